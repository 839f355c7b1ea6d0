package main

import (
	"errors"

	"github.com/mem-dev/mem"
)

type showCmd struct {
	Slug string `arg:"" help:"The memory's slug, as mem list or mem search names it (a MEMORY.md section's is like reviewer/MEMORY.md#L5)."`
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

func notFoundHint(err error) error {
	if errors.Is(err, mem.ErrNotFound) {
		return withHint(err, "`mem list` shows every slug")
	}
	return err
}
