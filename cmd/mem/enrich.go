package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/modelcmd"
)

type enrichCmd struct {
	Force      bool     `help:"Also rewrite memories whose aliases are current."`
	JSON       bool     `help:"Print the aliases written as JSON."`
	NoModel    bool     `name:"no-model" help:"Do nothing but say that enrich needs a model."`
	Background bool     `hidden:"" help:"Enrich what is missing or stale, quietly, once per request (started after writes)."`
	After      string   `hidden:"" help:"With --background: the command whose write started it, for the hook log." placeholder:"COMMAND"`
	Slugs      []string `arg:"" optional:"" help:"Memories to enrich (default: every current memory whose aliases are missing or were written for text that changed since)."`
}

func (c enrichCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	if c.Background {
		return enrichBackground(r, c.After)
	}
	slugs, err := resolveAll(r, c.Slugs)
	if err != nil {
		return err
	}
	m := modelFor(e, c.NoModel, "aliases")
	if m == nil {
		return errors.New("enrich needs a model: install `claude` or set MEM_MODEL_CMD")
	}
	unlock, err := lockModel(e, r, m)
	if err != nil {
		return err
	}
	defer unlock()
	p := newProgress(e.stderr, "enrich")
	res, err := r.Enrich(e.ctx, mem.EnrichOptions{Model: p.watch(m), Slugs: slugs, Force: c.Force, Progress: p.update})
	p.end()
	if c.JSON && err == nil {
		return printJSON(e, nonNil(res))
	}
	for _, en := range res {
		if en.Skipped != "" {
			fmt.Fprintf(e.stdout, "%s: skipped: %s\n", en.Slug, en.Skipped)
			continue
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", en.Slug, strings.Join(en.Aliases, "; "))
	}
	return err
}

// enrichBackground is `mem enrich --background`: what a write (of the
// command after) starts. It never fails: it has no one to tell but the
// hook log, whose lines it names "background enrich after mem <after>". A
// missing model is no error (mem doctor says it), so it logs nothing.
func enrichBackground(r *mem.Repo, after string) error {
	r.AfterWrite = nil // its own commits need no enrichment
	who := "background enrich"
	if after != "" {
		who += " after mem " + after
	}
	// Asked without one, the runner says ErrUnavailable.
	r.EnrichPending(context.Background(), mem.EnrichOptions{Model: modelcmd.FromEnv()}, func(err error) {
		if !errors.Is(err, modelcmd.ErrUnavailable) {
			hookLog(r, who+": "+err.Error())
		}
	})
	return nil
}
