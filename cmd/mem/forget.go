package main

import "fmt"

type forgetCmd struct {
	Slug string `arg:"" help:"The memory: its slug, its path as mem search prints it, or the start of its slug."`
}

func (c forgetCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	w, err := r.Forget(e.ctx, c.Slug)
	if err != nil {
		return notFoundHint(err)
	}
	reportResult(e, r, w.Result)
	fmt.Fprintf(e.stdout, "forgot %s\n", w.Slug)
	return nil
}
