package main

import (
	"fmt"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/search"
)

type searchCmd struct {
	JSON     bool     `help:"Print a JSON array, best first; [] when nothing is relevant."`
	Limit    int      `help:"At most N results." default:"3" placeholder:"N"`
	Previous string   `help:"The assistant's previous turn, which may refine the query." placeholder:"TEXT"`
	All      bool     `help:"Ignore the relevance threshold: show the best matches even when the hook would stay silent."`
	Explain  bool     `help:"Print the query as built from the prompt, on stderr."`
	Query    []string `arg:"" help:"The prompt, as a person would type it."`
}

func (c searchCmd) Run(e *env) error {
	if c.Limit < 1 {
		return fmt.Errorf("--limit %d: a search returns at least one result", c.Limit)
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	results, q, err := r.Search(e.ctx, strings.Join(c.Query, " "), c.Previous, search.Options{Limit: c.Limit, All: c.All})
	if err != nil {
		return err
	}
	if c.Explain {
		fmt.Fprintf(e.stderr, "query: %s\n", q)
	}
	if c.JSON {
		return printJSON(e, mem.Hits(results)) // never nil: [] when nothing fits
	}
	for _, res := range results {
		fmt.Fprintf(e.stdout, "%.2f  %s  (%s) %s\n", res.Score, search.Where(res.Path, res.Line), res.Class, res.Name)
		for _, l := range res.Labels {
			fmt.Fprintf(e.stdout, "      [%s]\n", l)
		}
		if res.Snippet != "" {
			fmt.Fprintf(e.stdout, "      %s\n", strings.ReplaceAll(res.Snippet, "\n", "\n      "))
		}
	}
	return nil
}
