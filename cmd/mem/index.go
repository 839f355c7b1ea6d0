package main

import "fmt"

type indexCmd struct {
	Rebuild bool `help:"Parse every file again instead of only the changed ones."`
	Quiet   bool `short:"q" help:"Print nothing."`
}

func (c indexCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ix := r.Index
	if c.Rebuild {
		ix = r.Rebuild
	}
	idx, err := ix(e.ctx)
	if err != nil {
		return err
	}
	defer idx.Close()
	if !c.Quiet {
		fmt.Fprintf(e.stdout, "indexed %d entries into %s\n", idx.Len(), e.shown(r.Place.IndexPath()))
	}
	return nil
}
