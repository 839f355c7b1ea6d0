// Package indexer turns memory files into the documents the search index
// holds. It sits between mdparse and search so that search, which runs in
// the prompt hook, links no markdown or YAML parser.
package indexer

import (
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Doc returns the search document of memory m, known by slug, at path (as
// shown to the agent) in store (one of search.Stores).
func Doc(m *mdparse.Memory, slug, path, store string) search.Doc {
	return search.Doc{
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
		Body:         mdparse.ExtractBody(m.Body).Searchable(),
	}
}
