package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mem-dev/mem"
)

// editCmd is `mem edit SLUG`: the memory in $VISUAL or $EDITOR, and what
// comes back committed as one mem commit, checked as a new memory is (it
// must parse, fit and hold no secret). The editor works on a copy, so the
// hook never reads a half edit, and a result mem refuses is kept for the
// next try.
type editCmd struct {
	File string `help:"Take the new content from FILE instead of an editor (for scripts and agents)." type:"path" placeholder:"FILE"`
	Slug string `arg:"" help:"The memory: its slug, its path as mem search prints it, or the start of its slug."`
}

func (c editCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	slug, err := r.Resolve(c.Slug)
	if err != nil {
		return notFoundHint(err)
	}
	was, shown, err := r.Raw(e.ctx, slug)
	if err != nil {
		return err
	}
	path := c.File
	if path == "" {
		dir, err := os.MkdirTemp("", "mem-edit-")
		if err != nil {
			return err
		}
		path = filepath.Join(dir, filepath.Base(shown)) // .md: the editor knows it is markdown
		if err := os.WriteFile(path, was, 0o600); err != nil {
			return err
		}
		if err := runEditor(e, path); err != nil {
			return withHint(err, fmt.Sprintf("set $EDITOR (or $VISUAL) to your editor; the copy is %s", path))
		}
	}
	now, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if bytes.Equal(now, was) {
		fmt.Fprintf(e.stdout, "no change to %s\n", slug)
		if c.File == "" {
			os.RemoveAll(filepath.Dir(path))
		}
		return nil
	}
	w, err := r.Rewrite(e.ctx, slug, was, now)
	if err != nil {
		kept := fmt.Sprintf("your version is kept in %s: fix it and run `mem edit %s --file %s`", path, slug, path)
		if errors.Is(err, mem.ErrChanged) {
			kept = fmt.Sprintf("your version is kept in %s: compare it with %s, then run `mem edit %s --file %s`", path, shown, slug, path)
		}
		return withHint(err, kept)
	}
	if c.File == "" {
		os.RemoveAll(filepath.Dir(path))
	}
	reportResult(e, r, w.Result)
	fmt.Fprintf(e.stdout, "edited %s\n", w.Slug)
	return nil
}

// runEditor opens path in $VISUAL, else $EDITOR, else vi, on the terminal
// mem runs in. The variable may hold arguments ("code --wait"), as git
// allows, so it runs through the shell.
func runEditor(e *env, path string) error {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	cmd := exec.CommandContext(e.ctx, "sh", "-c", editor+` "$1"`, "mem-edit", path)
	// The editor talks to the terminal itself, not through mem's writers.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the editor (%s) failed: %v; nothing was changed", editor, err)
	}
	return nil
}
