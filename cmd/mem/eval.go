package main

import (
	"fmt"
	"os"
	"time"

	"github.com/mem-dev/mem/internal/eval"
)

type evalCmd struct {
	JSON    bool   `help:"Print the report as JSON."`
	Now     string `help:"Score recency as of this date (YYYY-MM-DD), for reproducible runs." placeholder:"DATE"`
	Labels  string `help:"The store's labels (store-labels.json): a labelled duplicate of an expected memory counts as expected." placeholder:"FILE" type:"existingfile"`
	Battery string `arg:"" help:"JSONL battery: {id, prompt, previous?, expect: [slug...], ok?: [slug...]} per line." type:"existingfile"`
}

func (c evalCmd) Run(e *env) error {
	now := time.Now()
	if c.Now != "" {
		t, err := time.Parse("2006-01-02", c.Now)
		if err != nil {
			return fmt.Errorf("--now %q is not a date like 2026-11-29", c.Now)
		}
		now = t
	}
	f, err := os.Open(c.Battery)
	if err != nil {
		return err
	}
	defer f.Close()
	cases, err := eval.ReadBattery(f)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Battery, err)
	}
	if c.Labels != "" {
		lf, err := os.Open(c.Labels)
		if err != nil {
			return err
		}
		l, err := eval.ReadLabels(lf)
		lf.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Labels, err)
		}
		cases = eval.WithDuplicates(cases, l)
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	ix, err := r.Index(e.ctx)
	if err != nil {
		return err
	}
	defer ix.Close()
	rep := eval.Run(ix, cases, now)
	if c.JSON {
		return printJSON(e, rep)
	}
	rep.WriteText(e.stdout)
	return nil
}
