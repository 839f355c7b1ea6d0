package main

import (
	"fmt"

	"github.com/mem-dev/mem"
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
	return nil
}
