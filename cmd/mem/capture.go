package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/background"
)

type captureCmd struct {
	Transcript string `help:"Session transcript (JSONL); default: transcript_path from hook JSON on stdin." type:"path" placeholder:"PATH"`
	Max        int    `help:"Store at most N memories." default:"5" placeholder:"N"`
	Detach     bool   `help:"Return at once and capture in the background (for SessionEnd and PreCompact hooks)."`
	JSON       bool   `help:"Print what was written and skipped as JSON."`
	NoModel    bool   `name:"no-model" help:"Do nothing but say that capture needs a model."`
}

// transcriptOf is the transcript a pass reads and the directory it runs
// in: the one given, else the hook JSON's transcript_path and cwd on stdin
// (SessionEnd, PreCompact and Stop send them).
func transcriptOf(e *env, command, given string) (transcript, dir string, err error) {
	if given != "" {
		return given, e.dir, nil
	}
	if isTerminal(e.stdin) {
		return "", "", noTranscript(command)
	}
	var in struct {
		TranscriptPath string `json:"transcript_path"`
		Cwd            string `json:"cwd"`
	}
	if err := json.NewDecoder(io.LimitReader(e.stdin, 1<<20)).Decode(&in); err != nil || in.TranscriptPath == "" {
		return "", "", errors.New("no transcript: give --transcript PATH or hook JSON with transcript_path on stdin")
	}
	dir = e.dir
	if in.Cwd != "" {
		dir = in.Cwd
	}
	return in.TranscriptPath, dir, nil
}

func (c captureCmd) Run(e *env) error {
	if background.InModelCall() {
		return nil // inside our own model call: never capture the capture
	}
	transcript, dir, err := transcriptOf(e, "capture", c.Transcript)
	if err != nil {
		return err
	}
	c.Transcript = transcript
	if c.Detach {
		return c.detach(e, dir)
	}
	r, err := mem.Open(dir, e.store)
	if err != nil {
		return err
	}
	r.AfterWrite = enrichAfterWrite(r, e.command)
	m := modelFor(e, c.NoModel, "capture")
	if m == nil {
		return errors.New("capture needs a model: install `claude` or set MEM_MODEL_CMD")
	}
	p := newProgress(e.stderr, "capture")
	res, err := r.Capture(e.ctx, p.watch(m), c.Transcript, c.Max) // takes the model lock itself
	p.end()
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e, res)
	}
	if !res.New {
		fmt.Fprintf(e.stdout, "nothing new in session %s since its last capture\n", res.Session)
	}
	if res.Masked > 0 {
		fmt.Fprintf(e.stderr, "mem: %d transcript lines held what looks like a secret; masked before the model saw them\n", res.Masked)
	}
	if len(res.Written) > 0 {
		reportSkip(e, res.Written[0].Skipped)
	}
	for _, w := range res.Written {
		fmt.Fprintf(e.stdout, "captured %s\n", w.Slug)
	}
	for _, s := range res.Skipped {
		verb := "skipped"
		if s.Refused {
			verb = "refused"
		}
		fmt.Fprintf(e.stdout, "%s  %q: %s\n", verb, s.Proposal.Name, s.Reason)
	}
	return nil
}

// detach starts the same capture in a new session and returns, so the hook
// that called it never waits on a model.
func (c captureCmd) detach(e *env, dir string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"-C", dir, "capture", "--transcript", c.Transcript, "--max", fmt.Sprint(c.Max)}
	if e.store != "" {
		args = append([]string{"--store", e.store}, args...)
	}
	cmd := exec.Command(self, args...)
	cmd.SysProcAttr = background.Detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start capture: %w", err)
	}
	return cmd.Process.Release()
}
