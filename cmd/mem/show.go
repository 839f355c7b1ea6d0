package main

import (
	"errors"

	"github.com/mem-dev/mem"
)

type showCmd struct {
	Slug string `arg:"" help:"The memory: its slug, its path as mem search prints it, or the start of its slug (a MEMORY.md section's is like reviewer/MEMORY.md#L5)."`
}

func (c showCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	data, _, err := r.Show(e.ctx, c.Slug)
	if err != nil {
		return notFoundHint(err)
	}
	_, err = e.stdout.Write(data)
	return err
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
