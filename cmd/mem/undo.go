package main

import "fmt"

type undoCmd struct {
	Ref string `arg:"" help:"The mem commit to revert: its hash, as mem log lists it."`
}

func (c undoCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	res, err := r.Undo(e.ctx, c.Ref)
	if err != nil {
		return err
	}
	reportResult(e, r, res)
	if res.Committed {
		fmt.Fprintf(e.stdout, "reverted %s in %.12s\n", c.Ref, res.Commit)
	}
	return nil
}
