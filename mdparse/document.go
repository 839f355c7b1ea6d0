package mdparse

import "github.com/mem-dev/mem/internal/document"

// Document is m as the search index holds it, known by slug, at path (as
// shown to the agent) in store (one of search.Stores): its summary fields,
// its effective class, and the searchable text of its body
// (Extract.Searchable).
func (m *Memory) Document(slug, path, store string) document.Doc {
	return document.Doc{
		Slug:         slug,
		Path:         path,
		Store:        store,
		Name:         m.Name,
		Description:  m.Description,
		Class:        m.EffectiveClass(),
		Importance:   m.Importance,
		Modified:     m.Modified,
		Tags:         m.Tags,
		Aliases:      m.Aliases,
		SupersededBy: m.SupersededBy,
		Unverified:   m.Unverified,
		Body:         ExtractBody(m.Body).Searchable(),
	}
}
