package main

import (
	"fmt"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/profile"
)

type profileCmd struct {
	Show    profileShowCmd    `cmd:"" default:"withargs" help:"Print the profile, numbered, with each line's metadata and the size against the cap."`
	Add     profileAddCmd     `cmd:"" help:"Add a line; when the profile would pass its cap, the weakest lines become memories (same write)."`
	Rm      profileRmCmd      `cmd:"" help:"Remove a line, by its number (mem profile show) or its text."`
	Migrate profileMigrateCmd `cmd:"" help:"Move the lines of a profile an earlier mem kept in the store (shared with the team) into your personal one, as a commit."`
}

// scopeFlag picks the profile: the person's (default), kept in Claude
// Code's user scope and never shared, or the team's, the store's
// PROFILE.md, committed for everyone.
type scopeFlag struct {
	Team bool `help:"The team's profile (the store's PROFILE.md, committed and shared) instead of your personal one."`
}

func (f scopeFlag) scope() mem.ProfileScope {
	if f.Team {
		return mem.TeamProfile
	}
	return mem.PersonalProfile
}

// capFlag is the size cap, shared by the commands that need it. Its
// default is profile.DefaultCap (kong.Vars in run).
type capFlag struct {
	Cap int `help:"Size cap, in characters of the injected lines." env:"MEM_PROFILE_CAP" default:"${profile_cap}" placeholder:"N"`
}

type profileShowCmd struct {
	capFlag
	scopeFlag
	JSON bool `help:"Print {file, scope, size, cap, lines} as JSON."`
}

func (c profileShowCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	p, err := r.Profiles().Read(e.ctx, c.scope())
	if err != nil {
		return err
	}
	file := r.Profiles().File(c.scope())
	if c.JSON {
		return printJSON(e, map[string]any{"file": file, "scope": c.scope().String(), "size": p.Size(), "cap": c.Cap, "lines": nonNil(p.Lines)})
	}
	entries := p.Entries()
	if len(entries) == 0 {
		fmt.Fprintf(e.stdout, "%s: empty (`mem profile add LINE` adds one)\n", file)
		teamNote(e, r, c.scope())
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
	teamNote(e, r, c.scope())
	return nil
}

type profileAddCmd struct {
	capFlag
	scopeFlag
	Said       bool     `help:"The user said this (default: an agent inferred it). Said lines outlast inferred ones."`
	Importance int      `help:"1-10: how much a session loses without it." default:"5" placeholder:"N"`
	Line       []string `arg:"" help:"The line (the words are joined by spaces)."`
}

func (c profileAddCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ch, err := r.Profiles().Add(e.ctx, c.scope(), profile.Line{
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
	reportProfileWrite(e, c.scope(), ch.Skipped)
	for _, d := range ch.Demoted {
		fmt.Fprintf(e.stdout, "demoted to memory %s: %s (%s)\n", d.Slug, d.Text, d.Meta())
	}
	fmt.Fprintf(e.stdout, "profile: %d/%d characters in %s\n", ch.Size, ch.Cap, r.Profiles().File(c.scope()))
	teamNote(e, r, c.scope())
	return nil
}

// reportProfileWrite is reportSkip for a profile: the personal one is in
// no repository, so that it is not committed is how it should be.
func reportProfileWrite(e *env, scope mem.ProfileScope, skipped string) {
	if scope == mem.PersonalProfile && skipped == gitstore.SkipNoRepo {
		return
	}
	reportSkip(e, skipped)
}

// teamNote says, beside the personal profile, that the store holds a
// profile every teammate's agent reads, and how to move it when it is one
// person's (as an earlier mem kept it).
func teamNote(e *env, r *mem.Repo, scope mem.ProfileScope) {
	if scope == mem.TeamProfile {
		return
	}
	team, err := r.Profiles().Read(e.ctx, mem.TeamProfile)
	if err != nil || len(team.Entries()) == 0 {
		return
	}
	fmt.Fprintf(e.stderr, "mem: note: %s holds a profile of %d lines that every teammate's agent reads; if they are yours, `mem profile migrate` moves them into your personal profile\n",
		r.Profiles().File(mem.TeamProfile), len(team.Entries()))
}

type profileRmCmd struct {
	scopeFlag
	Which []string `arg:"" help:"The line's number (mem profile show) or its text, or a piece of text only it contains."`
}

func (c profileRmCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	ch, err := r.Profiles().Remove(e.ctx, c.scope(), strings.Join(c.Which, " "))
	if err != nil {
		return withHint(err, "`mem profile show` numbers the lines")
	}
	reportProfileWrite(e, c.scope(), ch.Skipped)
	fmt.Fprintf(e.stdout, "removed from the profile: %s\n", ch.Line.Text)
	return nil
}

type profileMigrateCmd struct {
	capFlag
}

func (c profileMigrateCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	m, err := r.Profiles().Migrate(e.ctx, c.Cap)
	if err != nil {
		return err
	}
	for _, l := range m.Moved {
		fmt.Fprintf(e.stdout, "moved: %s (%s)\n", l.Text, l.Meta())
	}
	for _, d := range m.Demoted {
		fmt.Fprintf(e.stdout, "demoted to memory %s: %s\n", d.Path, d.Text)
	}
	reportResult(e, r, m.Result)
	fmt.Fprintf(e.stdout, "%d lines moved from %s (removed from the store) to %s\n", len(m.Moved), m.From, m.To)
	return nil
}
