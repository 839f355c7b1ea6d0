package main

import (
	"fmt"

	"github.com/mem-dev/mem/gitstore"
)

type logCmd struct {
	Limit int  `help:"Show at most N entries." default:"50" placeholder:"N"`
	JSON  bool `help:"Print a JSON array."`
}

func (c logCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	entries, err := r.Log(e.ctx, c.Limit)
	if err != nil {
		return err
	}
	if c.JSON {
		for i := range entries {
			if entries[i].Trailers == nil {
				entries[i].Trailers = []gitstore.Trailer{} // [] in JSON, never null
			}
		}
		return printJSON(e, entries)
	}
	for _, en := range entries {
		fmt.Fprintf(e.stdout, "%.12s %s %-9s %s\n", en.Commit, en.Time.Local().Format("2006-01-02 15:04"), en.Action, en.Slug)
	}
	return nil
}
