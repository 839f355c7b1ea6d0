package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/hooks"
	"github.com/mem-dev/mem/internal/locate"
)

type hookCmd struct {
	Prompt   hookPromptCmd       `cmd:"" help:"UserPromptSubmit: inject relevant memories as additionalContext."`
	Gate     gateCmd             `cmd:"" hidden:"" help:"Stop: block when files were edited and nothing was stored."`
	PostTool hookPostToolCmd     `cmd:"" name:"post-tool" help:"PostToolUse on Edit|Write|MultiEdit: mark the index stale."`
	Session  hookSessionStartCmd `cmd:"" name:"session-start" help:"SessionStart: the profile and one line of store health."`
	Edits    hookEditsCmd        `cmd:"" help:"Commit memory files an agent edited in place (the Stop hook runs it), one commit each: mem: edit SLUG."`
}

type hookPromptCmd struct{}

func (hookPromptCmd) Run(e *env) error {
	hooks.Prompt(e.stdin, e.stdout, refreshInProcess, time.Now())
	return nil
}

// refreshInProcess refreshes the index without spawning a process: this
// binary links the parser anyway. Like the lean hook's refresh it never
// waits for the store's lock.
func refreshInProcess(place locate.Place) error {
	r, err := mem.Open(place.WorkTree, place.Store)
	if err != nil {
		return err
	}
	ix, err := r.TryIndex(context.Background())
	if errors.Is(err, mem.ErrBusy) {
		return hooks.ErrRefreshBusy
	}
	if err != nil {
		return err
	}
	return ix.Close()
}

type hookPostToolCmd struct{}

func (hookPostToolCmd) Run(e *env) error {
	hooks.PostTool(e.stdin)
	return nil
}

type gateCmd struct{}

func (gateCmd) Run(e *env) error {
	self, err := os.Executable()
	if err != nil {
		self = "mem"
	}
	if code := hooks.Gate(e.stdin, e.stderr, time.Now(), hooks.StartLearn(self)); code != 0 {
		return exitError(code)
	}
	return nil
}

type hookSessionStartCmd struct{}

// Run prints the profile and one line of store health as SessionStart
// context, and starts the daily sweep when it is due. Like every hook it
// fails open: on an error of ours it prints nothing (or the health line
// alone, when only the profile failed).
func (hookSessionStartCmd) Run(e *env) error {
	var in struct {
		Cwd string `json:"cwd"`
	}
	data, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
	if err != nil || json.Unmarshal(data, &in) != nil || in.Cwd == "" {
		return nil
	}
	r, err := mem.Open(in.Cwd, e.store)
	if err != nil {
		return nil
	}
	// mem's plugin and the project's settings may both run this hook.
	if !hooks.Claim(r.Place.StateDir(), "session-start", data, hooks.OnceRepeatable) {
		return nil
	}
	sweepIfDue(r, time.Now())
	line, err := r.Health(e.ctx)
	if err != nil {
		return nil
	}
	if prof, err := r.Profiles().Context(e.ctx); err == nil && prof != "" {
		line = prof + "\n\n" + line
	}
	e.stdout.Write(hooks.ContextJSON("SessionStart", line))
	return nil
}

type hookEditsCmd struct {
	Files []string `arg:"" help:"The edited memory files." type:"path"`
}

// Run commits the files the gate saw the agent edit. Unlike the hooks it
// reports its errors: the gate logs them.
func (c hookEditsCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	written, err := r.CommitEdits(e.ctx, c.Files)
	for _, w := range written {
		reportResult(e, r, w.Result)
		fmt.Fprintln(e.stdout, "mem: edit "+w.Slug)
	}
	return err
}
