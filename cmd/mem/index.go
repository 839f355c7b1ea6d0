package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/hooks"
	"github.com/mem-dev/mem/search"
)

type indexCmd struct {
	Rebuild bool `help:"Parse every file again instead of only the changed ones."`
	Quiet   bool `short:"q" help:"Print nothing."`
	NoWait  bool `help:"Exit at once, with status 75, when another mem holds the store's lock (it refreshes the cache when done): for hooks."`
}

func (c indexCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ix := r.Index
	switch {
	case c.Rebuild:
		ix = r.Rebuild
	case c.NoWait:
		ix = r.TryIndex
	}
	idx, err := ix(e.ctx)
	if errors.Is(err, mem.ErrBusy) && c.NoWait {
		return exitError(hooks.ExitBusy)
	}
	if err != nil {
		return err
	}
	defer idx.Close()
	if !c.Quiet {
		fmt.Fprintf(e.stdout, "indexed %s into %s\n", indexedCount(idx.Docs()), e.shown(r.Place.IndexPath()))
	}
	return nil
}

// indexedCount says how many entries the index holds and, when they come
// from more than the project's store, how many from each, so that a person
// sees which of Claude Code's memory directories are searched.
func indexedCount(docs []search.Doc) string {
	n := map[string]int{}
	for _, d := range docs {
		n[d.Store]++
	}
	s := fmt.Sprintf("%d entries", len(docs))
	if len(docs) == 1 {
		s = "1 entry"
	}
	if len(n) == 0 || len(n) == 1 && n[search.StoreProject] > 0 {
		return s
	}
	var parts []string
	for _, store := range search.Stores {
		if n[store] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[store], store))
		}
	}
	return s + " (" + strings.Join(parts, ", ") + ")"
}
