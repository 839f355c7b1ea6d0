package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/gitstore"
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
	reportResult(e, w.Result)
	fmt.Fprintln(e.stdout, w.Slug)
	return nil
}

// reportSkip tells the user when a file was written but not committed, and
// what becomes of it.
func reportSkip(e *env, skipped string) {
	if skipped == "" {
		return
	}
	fmt.Fprintf(e.stderr, "mem: wrote the file but did not commit: %s\n", strings.TrimSpace(skipped))
	if skipped != gitstore.SkipNoChange && skipped != gitstore.SkipNoRepo {
		fmt.Fprintln(e.stderr, "mem: hint: the write stays pending; the next mem write commits it, with its own message")
	}
}

// reportResult tells the user, on stderr, what became of a write beyond its
// own commit: why it was not committed, earlier pending writes committed
// first, and anything else worth a warning.
func reportResult(e *env, r gitstore.Result) {
	reportSkip(e, r.Skipped)
	if n := len(r.Earlier); n > 0 {
		what := "writes"
		if n == 1 {
			what = "write"
		}
		fmt.Fprintf(e.stderr, "mem: also committed %d earlier %s left uncommitted\n", n, what)
	}
	if r.Warning != "" {
		fmt.Fprintf(e.stderr, "mem: warning: %s\n", r.Warning)
	}
}
