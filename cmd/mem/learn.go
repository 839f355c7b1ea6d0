package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/hooks"
	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/learn"
)

type learnCmd struct {
	Transcript string `help:"Session transcript (JSONL); default: transcript_path from hook JSON on stdin." type:"path" placeholder:"PATH"`
	JSON       bool   `help:"Print what was read, learned and refused as JSON."`
}

// Run learns aliases from a session: prompts the hook kept quiet on, after
// which the agent found a memory itself (package learn). The Stop hook
// starts it detached; by hand it says what it did.
func (c learnCmd) Run(e *env) error {
	if background.InModelCall() {
		return nil // inside our own model call
	}
	transcript, dir, err := transcriptOf(e, "learn", c.Transcript)
	if err != nil {
		return err
	}
	c.Transcript = transcript
	r, err := mem.Open(dir, e.store)
	if err != nil {
		return err
	}
	unlock, err := r.LockNamed(e.ctx, learn.Lock)
	os.Remove(filepath.Join(r.Place.StateDir(), hooks.LearnPending))
	if err != nil {
		return err
	}
	defer unlock()
	rep, err := learn.Run(e.ctx, r, c.Transcript, time.Now())
	if err != nil {
		hookLog(r, "learn: "+err.Error()) // started by the Stop hook, no one else sees it
		return err
	}
	if c.JSON {
		return printJSON(e, rep)
	}
	for _, l := range rep.Learned {
		fmt.Fprintf(e.stdout, "learned  %s: %q (%s) %.12s\n", l.Slug, l.Alias, l.Reason, l.Commit)
	}
	for _, l := range rep.Refused {
		fmt.Fprintf(e.stdout, "refused  %s: %q: %s\n", l.Slug, l.Alias, l.Reason)
	}
	fmt.Fprintf(e.stdout, "%d turns read, %d candidates, %d learned, %d refused, %d waiting\n",
		rep.Turns, len(rep.Candidates), len(rep.Learned), len(rep.Refused), rep.Waiting)
	return nil
}
