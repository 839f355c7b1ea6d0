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
	Explain  bool     `help:"Print the query as built from the prompt, and the threshold, on stderr."`
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
		fmt.Fprintf(e.stderr, "query: %s\nthreshold: %.2f (the best result must reach it, as in the prompt hook; --all ignores it)\n", q, search.DefaultThreshold)
	}
	if c.JSON {
		return printJSON(e, mem.Hits(results)) // never nil: [] when nothing fits
	}
	if len(results) == 0 && !c.All {
		// Silent, as the hook would be; a person may still want the near
		// misses. Said on stderr: stdout stays empty for scripts.
		near, _, err := r.Search(e.ctx, strings.Join(c.Query, " "), c.Previous, search.Options{Limit: c.Limit, All: true})
		if err != nil || len(near) == 0 {
			return err
		}
		what, them := "1 memory matches", "it"
		if len(near) > 1 {
			what, them = fmt.Sprintf("%d memories match", len(near)), "them"
		}
		fmt.Fprintf(e.stderr, "mem: nothing clears the prompt hook's threshold (%.2f); %s below it (best %.2f): `mem search --all` shows %s\n",
			search.DefaultThreshold, what, near[0].Score, them)
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
