package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mem-dev/mem"
)

type storeCmd struct {
	Class       string   `help:"rule, fact, event, gotcha, reference, procedure, preference or decision." default:"fact"`
	Importance  int      `help:"1-10: how much the next session loses if it does not see this." default:"5"`
	Tags        []string `help:"Comma-separated tags." sep:","`
	Name        string   `help:"Title (default: the first line of the body); the slug comes from it."`
	Description string   `help:"One line: what the memory says."`
	Supersedes  string   `help:"Slug of a memory this one replaces (it is kept, marked superseded)." placeholder:"SLUG"`
	Body        string   `arg:"" optional:"" help:"The memory's content; '-' or nothing reads stdin."`
}

func (c storeCmd) Run(e *env) error {
	body := c.Body
	if body == "" || body == "-" {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		body = string(b)
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	w, err := r.Store(e.ctx, mem.Note{
		Name: c.Name, Description: c.Description, Class: c.Class, Importance: c.Importance,
		Tags: c.Tags, Supersedes: c.Supersedes, Body: body,
	})
	if errors.Is(err, mem.ErrExists) {
		return withHint(err, fmt.Sprintf("choose another --name, or read the existing one with `mem show %s`", w.Slug))
	}
	if err != nil {
		return err
	}
	reportSkip(e, w.Skipped)
	fmt.Fprintln(e.stdout, w.Slug)
	return nil
}

// reportSkip tells the user when a file was written but not committed.
func reportSkip(e *env, skipped string) {
	if skipped != "" {
		fmt.Fprintf(e.stderr, "mem: wrote the file but did not commit: %s\n", strings.TrimSpace(skipped))
	}
}
