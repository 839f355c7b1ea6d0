package main

import (
	"fmt"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/install"
)

type initCmd struct{}

func (initCmd) Run(e *env) error {
	r, created, err := mem.Init(e.dir, e.store)
	if err != nil {
		return err
	}
	for _, p := range created {
		fmt.Fprintf(e.stdout, "created %s\n", p)
	}
	if len(created) == 0 {
		fmt.Fprintf(e.stdout, "store already exists: %s\n", r.Place.Store)
	}
	if p, ok := install.Identity(r.Place); ok {
		note(e, p)
	}
	return nil
}

// note tells the user, on stderr, of a state worth knowing (an Info
// finding of doctor's) where a command meets it.
func note(e *env, p install.Problem) {
	line := "mem: note: " + p.Message
	if p.Fix != "" {
		line += "; " + p.Fix
	}
	fmt.Fprintln(e.stderr, line)
}
