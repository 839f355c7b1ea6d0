package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/install"
	"github.com/mem-dev/mem/internal/text"
)

type storeCmd struct {
	Class       string   `help:"${classes}." default:"${default_class}"`
	Importance  int      `help:"1-10: how much the next session loses if it does not see this." default:"5"`
	Tags        []string `help:"Comma-separated tags." sep:","`
	Name        string   `help:"Title (default: the first line of the body); the slug comes from it."`
	Description string   `help:"One line: what the memory says."`
	Supersedes  string   `help:"Slug of a memory this one replaces (it is kept, marked superseded)." placeholder:"SLUG"`
	Body        string   `arg:"" optional:"" help:"The memory's content; '-' or nothing reads stdin."`
}

func (c storeCmd) Run(e *env) error {
	// The flag's default is 5, so 0 was given: say so rather than let the
	// library read it as "unset".
	if c.Importance < 1 || c.Importance > 10 {
		return fmt.Errorf("importance %d is out of range 1-10", c.Importance)
	}
	body := c.Body
	if body == "" || body == "-" {
		if isTerminal(e.stdin) {
			fmt.Fprintln(e.stderr, typeMemory)
		}
		b, err := readBody(e.stdin)
		if err != nil {
			return err
		}
		body = b
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
		reportResult(e, r, w.Result) // a write of it left pending earlier may be committed now
		var forgotten *mem.ForgottenError
		switch {
		case !errors.As(err, &forgotten):
			return withHint(err, fmt.Sprintf("choose another --name, or read the existing one with `mem show %s`", w.Slug))
		case forgotten.Forget == "":
			return withHint(err, fmt.Sprintf("take `status: forgotten` out of it with `mem edit %s` to bring it back, or choose another --name", w.Slug))
		}
		return withHint(err, fmt.Sprintf("`mem undo %.12s` brings it back (then `mem edit %s` changes it), or choose another --name", forgotten.Forget, w.Slug))
	}
	if err != nil {
		return err
	}
	reportResult(e, r, w.Result)
	fmt.Fprintln(e.stdout, w.Slug)
	return nil
}

// readBody reads a memory from stdin, no more than a memory may hold (and
// one byte to know it was more).
func readBody(in io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(in, mem.MaxMemoryBytes+1))
	if err != nil {
		return "", fmt.Errorf("read stdin: %w", err)
	}
	if len(b) > mem.MaxMemoryBytes {
		return "", fmt.Errorf("stdin holds more than the %s a memory may hold: keep one idea per memory, and point to a file in the repository for the rest", text.Size(mem.MaxMemoryBytes))
	}
	return string(b), nil
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

// reportResult tells the user, on stderr, what became of a write to repo
// beyond its own commit: why it was not committed, earlier pending writes
// committed first, that git's ignore rules cover what it committed, and
// anything else worth a warning.
func reportResult(e *env, repo *mem.Repo, r gitstore.Result) {
	reportSkip(e, r.Skipped)
	if r.Committed {
		if p, ok := install.StoreIgnored(repo.Place); ok {
			note(e, install.Problem{Message: p.Message}) // the fix is doctor's and install's to give
		}
	}
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
