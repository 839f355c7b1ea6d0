package main

import (
	"fmt"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/modelcmd"
)

type verifyCmd struct {
	JSON    bool     `help:"Print the report as JSON."`
	NoModel bool     `name:"no-model" help:"Use only the deterministic claim extractor."`
	Offline bool     `help:"Do not probe URLs (they are then unknown)."`
	Strict  bool     `help:"Exit 1 when a claim failed, for scripts and CI (a failed claim is otherwise a label, not an error)."`
	Slugs   []string `arg:"" optional:"" help:"Memories to verify (default: all)."`
}

func (c verifyCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	slugs, err := resolveAll(r, c.Slugs)
	if err != nil {
		return err
	}
	m := modelFor(e, c.NoModel, "claims beyond the deterministic extractor")
	unlock, err := lockModel(e, r, m)
	if err != nil {
		return err
	}
	defer unlock()
	p := newProgress(e.stderr, "verify")
	v, err := r.Verify(e.ctx, mem.VerifyOptions{
		Slugs:    slugs,
		Network:  !c.Offline,
		Model:    p.watch(m),
		Progress: p.update,
	})
	p.end()
	if err != nil {
		return err
	}
	reportSkip(e, v.Skipped)
	for _, me := range v.ModelErrors {
		fmt.Fprintf(e.stderr, "mem: verify %s: no claims from the model, only the ones found without it: %s\n", me.Memory, me.Error)
	}
	failed := exitError(0)
	if c.Strict && len(v.Failed) > 0 {
		failed = exitError(1)
	}
	if c.JSON {
		if err := printJSON(e, v); err != nil {
			return err
		}
		return failed
	}
	fmt.Fprintf(e.stdout, "%d memories, %d claims: %d passed, %d unknown, %d failed, %d rejected\n",
		v.Memories, v.Claims, v.Passed, v.Unknown, len(v.Failed), len(v.Rejected))
	for _, f := range v.Failed {
		fmt.Fprintf(e.stdout, "failed   %s: %s\n", f.Memory, f.Reason)
	}
	for _, rj := range v.Rejected {
		fmt.Fprintf(e.stdout, "rejected %s: %s (%s)\n", rj.Memory, rj.Claim, rj.Reason)
	}
	for _, s := range v.Changed {
		fmt.Fprintf(e.stdout, "changed  %s: not labelled, it changed while it was probed\n", s)
	}
	for _, b := range v.Broken {
		fmt.Fprintf(e.stdout, "broken   %s: not verified until the file is fixed\n", b)
	}
	if v.Commit != "" {
		fmt.Fprintf(e.stdout, "labelled %d, cleared %d in %.12s\n", len(v.Labelled), len(v.Cleared), v.Commit)
	}
	return failed
}

// modelFor returns the configured model runner, or nil (saying why on
// stderr) when --no-model is set or no model command is available: the
// deterministic parts of a pass still run. The result is an interface so
// that nil reaches the passes as "no model", not as a nil *modelcmd.Runner.
func modelFor(e *env, off bool, what string) modelcmd.Asker {
	if off {
		return nil
	}
	m := modelcmd.FromEnv()
	m.Log = e.stderr
	if err := m.Available(); err != nil {
		fmt.Fprintf(e.stderr, "mem: no model, so no %s: %v\n", what, err)
		return nil
	}
	return m
}
