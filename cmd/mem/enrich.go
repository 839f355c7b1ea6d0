package main

import (
	"errors"
	"fmt"
	"strings"
)

type enrichCmd struct {
	Force   bool     `help:"Also rewrite memories that have aliases already."`
	JSON    bool     `help:"Print the aliases written as JSON."`
	NoModel bool     `name:"no-model" help:"Do nothing but say that enrich needs a model."`
	Slugs   []string `arg:"" optional:"" help:"Memories to enrich (default: every current memory without aliases)."`
}

func (c enrichCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	m := modelFor(e, c.NoModel, "aliases")
	if m == nil {
		return errors.New("enrich needs a model: install `claude` or set MEM_MODEL_CMD")
	}
	res, err := r.Enrich(e.ctx, m, c.Slugs, c.Force, newProgress(e.stderr, "enrich").update)
	if c.JSON && err == nil {
		return printJSON(e, res)
	}
	for _, en := range res {
		fmt.Fprintf(e.stdout, "%s: %s\n", en.Slug, strings.Join(en.Aliases, "; "))
	}
	return err
}
