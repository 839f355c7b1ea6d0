package main

import (
	"errors"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/mdparse"
)

type showCmd struct {
	JSON bool   `help:"Print the memory's frontmatter fields and body as a JSON object."`
	Slug string `arg:"" help:"The memory: its slug, its path as mem search prints it, or the start of its slug (a MEMORY.md section's is like reviewer/MEMORY.md#L5)."`
}

// shownMemory is a memory as show --json prints it: where it is, the
// fields of its frontmatter under their keys, and its body.
type shownMemory struct {
	Slug           string    `json:"slug"`
	Path           string    `json:"path"`
	Name           string    `json:"name"`
	Description    string    `json:"description,omitempty"`
	Class          string    `json:"class"`
	Importance     int       `json:"importance,omitempty"`
	Modified       time.Time `json:"modified,omitzero"`
	Tags           []string  `json:"tags"`
	Aliases        []string  `json:"aliases"`
	LearnedAliases []string  `json:"aliases_learned,omitempty"`
	SupersededBy   string    `json:"superseded_by,omitempty"`
	Unverified     []string  `json:"unverified"`
	Status         string    `json:"status,omitempty"`
	Type           string    `json:"type,omitempty"`
	Body           string    `json:"body"`
}

func (c showCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	data, shown, err := r.Show(e.ctx, c.Slug)
	if err != nil {
		return notFoundHint(err)
	}
	if !c.JSON {
		_, err = e.stdout.Write(data)
		return err
	}
	m, _ := mdparse.Salvage(shown, data) // a broken file shows as far as it reads
	return printJSON(e, shownMemory{
		Slug: mem.ShownSlug(c.Slug, shown), Path: shown, Name: m.Name, Description: m.Description, Class: m.EffectiveClass(),
		Importance: m.Importance, Modified: m.Modified, Tags: nonNil(m.Tags), Aliases: nonNil(m.Aliases),
		LearnedAliases: m.LearnedAliases, SupersededBy: m.SupersededBy, Unverified: nonNil(m.Unverified),
		Status: m.Status, Type: m.Type, Body: string(m.Body),
	})
}

// notFoundHint points at mem list when no slug was near enough to name.
func notFoundHint(err error) error {
	var nf *mem.NotFoundError
	if errors.Is(err, mem.ErrNotFound) && !(errors.As(err, &nf) && len(nf.Near) > 0) {
		return withHint(err, "`mem list` shows every slug")
	}
	return err
}

// resolveAll is the slug of each memory refs name (mem.Repo.Resolve), for
// the commands that take several.
func resolveAll(r *mem.Repo, refs []string) ([]string, error) {
	slugs := make([]string, 0, len(refs))
	for _, ref := range refs {
		slug, err := r.Resolve(ref)
		if err != nil {
			return nil, notFoundHint(err)
		}
		slugs = append(slugs, slug)
	}
	return slugs, nil
}
