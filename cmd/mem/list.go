package main

import (
	"bufio"
	"fmt"
	"text/tabwriter"
)

type listCmd struct {
	JSON bool `help:"Print a JSON array."`
}

func (c listCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	entries, bad, err := r.List(e.ctx)
	if err != nil {
		return err
	}
	for _, b := range bad {
		fmt.Fprintf(e.stderr, "mem: warning: %v\n", b)
	}
	if c.JSON {
		return printJSON(e, nonNil(entries))
	}
	// tabwriter writes each cell and its padding on its own: unbuffered,
	// a listing of 10,000 memories was 60,000 write calls.
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, m := range entries {
		label := ""
		if m.SupersededBy != "" {
			label = " (superseded by " + m.SupersededBy + ")"
		}
		if m.Broken != "" {
			label += " (broken: the file does not parse)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", m.Slug, m.Class, m.Name, label)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return out.Flush()
}
