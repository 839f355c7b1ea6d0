package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/internal/text"
)

type injectionsCmd struct {
	Limit   int    `help:"Show the last N decisions." default:"20" placeholder:"N"`
	Session string `help:"Only the decisions of the session whose ID starts with this." placeholder:"ID"`
	JSON    bool   `help:"Print a JSON array, oldest first."`
}

// Run prints the prompt hook's last decisions, oldest first, each with
// what it injected (or "silent") and the query it searched for, then how
// often it injected in all: what a person reads to judge whether mem
// speaks up too often or too seldom.
func (c injectionsCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	all, err := injections.Read(r.Place.StateDir())
	if err != nil {
		return fmt.Errorf("read the decision log: %w", err)
	}
	var picked []injections.Decision
	injected := 0
	for _, d := range all {
		if strings.HasPrefix(d.Session, c.Session) {
			picked = append(picked, d)
			if d.Injected {
				injected++
			}
		}
	}
	shown := picked[max(0, len(picked)-max(c.Limit, 0)):]
	if c.JSON {
		return printJSON(e, nonNil(shown))
	}
	switch {
	case len(picked) == 0 && c.Session != "":
		fmt.Fprintf(e.stdout, "no decisions of a session whose ID starts with %q\n", c.Session)
		return nil
	case len(picked) == 0:
		fmt.Fprintf(e.stdout, "no decisions logged in %s: the prompt hook writes one for every prompt\n", e.shown(r.Place.StateDir()))
		return nil
	}
	for _, d := range shown {
		what := "silent"
		if d.Injected {
			var rs []string
			for _, res := range d.Results {
				rs = append(rs, fmt.Sprintf("%s %.2f", res.Slug, res.Score))
			}
			what = strings.Join(rs, ", ")
		}
		when := d.Time
		if t, err := time.Parse(time.RFC3339Nano, d.Time); err == nil {
			when = t.Local().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(e.stdout, "%s  %-8.8s  %s\n    %s\n", when, d.Session, what, text.Clip(d.Query, 120))
	}
	fmt.Fprintf(e.stdout, "%d of %d decisions shown; %d injected (%.0f%%), %d silent\n",
		len(shown), len(picked), injected, 100*float64(injected)/float64(len(picked)), len(picked)-injected)
	return nil
}
