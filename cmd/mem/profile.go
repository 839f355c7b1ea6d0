package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/profile"
)

type profileCmd struct {
	Show profileShowCmd `cmd:"" default:"withargs" help:"Print the profile, numbered, with each line's metadata and the size against the cap."`
	Add  profileAddCmd  `cmd:"" help:"Add a line; when the profile would pass its cap, the weakest lines become memories (same commit)."`
	Rm   profileRmCmd   `cmd:"" help:"Remove a line, by its number (mem profile show) or its text, as a commit."`
}

// capFlag is the size cap, shared by the commands that need it. Its
// default is profile.DefaultCap (kong.Vars in run).
type capFlag struct {
	Cap int `help:"Size cap, in characters of the injected lines." env:"MEM_PROFILE_CAP" default:"${profile_cap}" placeholder:"N"`
}

type profileShowCmd struct {
	capFlag
	JSON bool `help:"Print {file, size, cap, lines} as JSON."`
}

func (c profileShowCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	p, err := r.Profile(e.ctx)
	if err != nil {
		return err
	}
	file := r.Place.Rel(filepath.Join(r.Place.Store, profile.FileName))
	if c.JSON {
		return printJSON(e, map[string]any{"file": file, "size": p.Size(), "cap": c.Cap, "lines": nonNil(p.Lines)})
	}
	entries := p.Entries()
	if len(entries) == 0 {
		fmt.Fprintf(e.stdout, "%s: empty (`mem profile add LINE` adds one)\n", file)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: %d lines, %d/%d characters\n", file, len(entries), p.Size(), c.Cap)
	n := 0
	for _, l := range p.Lines {
		if l.Heading {
			fmt.Fprintf(e.stdout, "    %s\n", l.Text)
			continue
		}
		n++
		fmt.Fprintf(e.stdout, "%3d. %s  (%s)\n", n, l.Text, l.Meta())
	}
	if p.Size() > c.Cap {
		fmt.Fprintf(e.stdout, "over the cap by %d characters: the next `mem profile add` moves the weakest lines into memories\n", p.Size()-c.Cap)
	}
	return nil
}

type profileAddCmd struct {
	capFlag
	Said       bool     `help:"The user said this (default: an agent inferred it). Said lines outlast inferred ones."`
	Importance int      `help:"1-10: how much a session loses without it." default:"5" placeholder:"N"`
	Line       []string `arg:"" help:"The line (the words are joined by spaces)."`
}

func (c profileAddCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ch, err := r.ProfileAdd(e.ctx, profile.Line{
		Text: strings.Join(c.Line, " "), Said: c.Said, Importance: c.Importance,
	}, c.Cap)
	if err != nil {
		return err
	}
	switch {
	case ch.Merged && ch.Skipped == gitstore.SkipNoChange:
		fmt.Fprintf(e.stdout, "already in the profile: %s (%s)\n", ch.Line.Text, ch.Line.Meta())
		return nil
	case ch.Merged:
		fmt.Fprintf(e.stdout, "updated in the profile: %s (%s)\n", ch.Line.Text, ch.Line.Meta())
	default:
		fmt.Fprintf(e.stdout, "added to the profile: %s (%s)\n", ch.Line.Text, ch.Line.Meta())
	}
	reportSkip(e, ch.Skipped)
	for _, d := range ch.Demoted {
		fmt.Fprintf(e.stdout, "demoted to memory %s: %s (%s)\n", d.Slug, d.Text, d.Meta())
	}
	fmt.Fprintf(e.stdout, "profile: %d/%d characters\n", ch.Size, ch.Cap)
	return nil
}

type profileRmCmd struct {
	Which []string `arg:"" help:"The line's number (mem profile show) or its text, or a piece of text only it contains."`
}

func (c profileRmCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ch, err := r.ProfileRemove(e.ctx, strings.Join(c.Which, " "))
	if err != nil {
		return withHint(err, "`mem profile show` numbers the lines")
	}
	reportSkip(e, ch.Skipped)
	fmt.Fprintf(e.stdout, "removed from the profile: %s\n", ch.Line.Text)
	return nil
}
