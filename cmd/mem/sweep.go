package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/sweep"
)

type sweepCmd struct {
	JSON       bool `help:"Print the run as JSON."`
	NoModel    bool `name:"no-model" help:"Run only the deterministic parts (no aliases, no model verdicts or claims)."`
	Offline    bool `help:"Do not probe URLs (they are then unknown)."`
	Background bool `hidden:"" help:"Sweep quietly if none ran today (started by the SessionStart hook)."`
}

// Run sweeps by hand: enrich, curate and verify, with a progress bar for
// each step, recorded for `mem doctor` like the daily one.
func (c sweepCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	r.AfterWrite = nil // the sweep enriches what its own steps leave
	if c.Background {
		sweepBackground(r)
		return nil
	}
	m := modelFor(e, c.NoModel, "aliases, model verdicts or model claims")
	unlock, err := lockModel(e, r, m)
	if err != nil {
		return err
	}
	defer unlock()
	p := newProgress(e.stderr, "sweep")
	run, err := sweep.Sweep(e.ctx, r, sweep.Options{
		Model: p.watch(m), Network: !c.Offline, Trigger: sweep.ByHand,
		Progress: func(step string) func(int, int) { return p.step("sweep: " + step) },
	})
	p.end()
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e, run)
	}
	for _, s := range run.Steps {
		switch {
		case s.Error != "":
			fmt.Fprintf(e.stdout, "%-7s failed: %s\n", s.Name, s.Error)
		case s.Skipped != "":
			fmt.Fprintf(e.stdout, "%-7s skipped: %s\n", s.Name, s.Skipped)
		default:
			fmt.Fprintf(e.stdout, "%-7s %s\n", s.Name, s.Summary)
		}
	}
	if !run.OK {
		return exitError(1)
	}
	return nil
}

// sweepBackground is `mem sweep --background`: it waits its turn for the
// model, then sweeps unless another sweep of the repository started today
// meanwhile. Its errors go to the hook log.
func sweepBackground(r *mem.Repo) {
	ctx := context.Background()
	unlock, err := r.LockModel(ctx)
	os.Remove(sweepPending(r))
	if err != nil {
		hookLog(r, "sweep: "+err.Error())
		return
	}
	defer unlock()
	if !sweep.Due(r.StateDir(), time.Now()) {
		return
	}
	m, _ := backgroundModel() // none: the deterministic parts still run
	run, err := sweep.Sweep(ctx, r, sweep.Options{Model: m, Network: true, Trigger: sweep.SessionStart})
	if err != nil {
		hookLog(r, "sweep: "+err.Error())
	} else if !run.OK {
		hookLog(r, "sweep: "+run.Line(time.Now()))
	}
}

// sweepIfDue starts a detached `mem sweep --background` when none ran in
// the repository for a day: what the SessionStart hook calls.
func sweepIfDue(r *mem.Repo, now time.Time) {
	if background.Off() || !sweep.Due(r.StateDir(), now) {
		return
	}
	err := os.WriteFile(sweepPending(r), nil, 0o644)
	if err == nil {
		err = startDetached(r, "sweep", "--background")
	}
	if err != nil {
		os.Remove(sweepPending(r))
		hookLog(r, "sweep: "+err.Error())
	}
}

// sweepPending marks a detached sweep started and not yet under way, so
// that whoever waits for the repository's passes to end waits for it too.
func sweepPending(r *mem.Repo) string { return filepath.Join(r.StateDir(), "sweep.pending") }
