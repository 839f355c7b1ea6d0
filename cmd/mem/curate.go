package main

import (
	"fmt"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/curator"
)

type curateCmd struct {
	JSON    bool `help:"Print {duplicates, dead_paths, applied, review} as JSON."`
	DryRun  bool `help:"Report what would be applied and queued; write nothing."`
	NoModel bool `name:"no-model" help:"Run only the deterministic pass (duplicates, dead paths)."`
}

func (c curateCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	m := modelFor(e, c.NoModel, "supersession pass and no check of memories against the profile and CLAUDE.md")
	unlock, err := lockModel(e, r, m)
	if err != nil {
		return err
	}
	defer unlock()
	p := newProgress(e.stderr, "curate")
	res, err := r.Curate(e.ctx, mem.CurateOptions{
		DryRun:   c.DryRun,
		Model:    p.watch(m),
		Progress: p.update,
	})
	p.end()
	if err != nil {
		return err
	}
	if c.JSON {
		return printJSON(e, res)
	}
	for _, d := range res.Duplicates {
		fmt.Fprintf(e.stdout, "duplicate  %s = %s\n", d[0], d[1])
	}
	for _, d := range res.DeadPaths {
		fmt.Fprintf(e.stdout, "dead path  %s: %s\n", d.Memory, d.Path)
	}
	verb := "applied"
	if c.DryRun {
		verb = "would apply"
	}
	for _, d := range res.Apply {
		how := "superseded by"
		if d.Merged != "" {
			how = "merged into"
		}
		fmt.Fprintf(e.stdout, "%s %s %s %s (%.2f) %.12s\n", verb, d.Retire, how, d.Keep, d.Confidence, d.Commit)
	}
	for _, d := range res.Changed {
		fmt.Fprintf(e.stdout, "changed    %s / %s: not applied, a memory changed while the curator ran\n", d.Retire, d.Keep)
	}
	for _, it := range res.Review {
		fmt.Fprintf(e.stdout, "review     %s / %s: %s\n", it.A, it.B, it.Reason)
	}
	for _, b := range res.Broken {
		fmt.Fprintf(e.stdout, "broken     %s: not curated until the file is fixed\n", b)
	}
	fmt.Fprintf(e.stdout, "%d duplicates, %d dead paths, %d applied, %d for review\n",
		len(res.Duplicates), len(res.DeadPaths), len(res.Apply), len(res.Review))
	return nil
}

type reviewCmd struct {
	List   reviewListCmd   `cmd:"" default:"withargs" help:"List pending items."`
	Accept reviewAcceptCmd `cmd:"" help:"Accept an item: supersede one memory by the other, as a commit."`
	Reject reviewRejectCmd `cmd:"" help:"Reject an item, as a commit; it is not queued again."`
}

type reviewListCmd struct {
	All  bool `help:"Also show accepted and rejected items."`
	JSON bool `help:"Print a JSON array."`
}

func (c reviewListCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	items, err := r.Reviews(e.ctx)
	if err != nil {
		return err
	}
	var shown []curator.Review
	for _, it := range items {
		if c.All || it.Status == curator.ReviewPending {
			shown = append(shown, it)
		}
	}
	if c.JSON {
		return printJSON(e, nonNil(shown))
	}
	if len(shown) == 0 {
		what := "nothing waits for review"
		if c.All {
			what = "the review queue is empty"
		}
		fmt.Fprintf(e.stdout, "%s (mem curate queues what it cannot decide alone)\n", what)
		return nil
	}
	for _, it := range shown {
		keep := ""
		if it.Verdict != nil && it.Verdict.Keep != "" {
			keep = fmt.Sprintf(" (model: keep %s, %.2f, %s coverage)", it.Verdict.Keep, it.Verdict.Confidence, it.Verdict.Coverage)
		}
		fmt.Fprintf(e.stdout, "%s  %-8s %s / %s%s\n    held back: %s\n", it.ID, it.Status, it.A, it.B, keep, it.Reason)
		if it.Status == curator.ReviewPending && it.Would != "" {
			fmt.Fprintf(e.stdout, "    accepting would %s\n    and lose %s\n    %s\n", it.Would, it.Loses, it.Command())
		}
		if it.Status == curator.ReviewPending && it.NeedsKeep() {
			fmt.Fprintf(e.stdout, "    no model chose which to keep: mem review accept %s --keep %s (or --keep %s) keeps that one and supersedes the other\n", it.ID, it.A, it.B)
		}
	}
	return nil
}

type reviewAcceptCmd struct {
	ID   string `arg:"" help:"The item's id (mem review lists them)."`
	Keep string `help:"The memory to keep: A or B of the item's A / B in mem review; the other is superseded by it. Needed when no model chose." placeholder:"SLUG"`
}

// Help is what mem help review accept says beyond the one line: when
// accepting needs --keep.
func (reviewAcceptCmd) Help() string {
	return "An item of two memories, A / B as mem review lists them, is accepted by superseding one by the other. " +
		"When curate asked a model, its verdict says which to keep. Without a model (curate --no-model, or none installed) " +
		"nothing has chosen: say it with --keep A or --keep B, and the other is superseded by the one kept. " +
		"A tension with a rule (A is FILE:LINE) is acknowledged and needs no --keep."
}

func (c reviewAcceptCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	commit, err := r.Decide(e.ctx, mem.DecideOptions{ID: c.ID, Accept: true, Keep: c.Keep})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "accepted %s in %.12s\n", c.ID, commit)
	return nil
}

type reviewRejectCmd struct {
	ID string `arg:"" help:"The item's id (mem review lists them)."`
}

func (c reviewRejectCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	commit, err := r.Decide(e.ctx, mem.DecideOptions{ID: c.ID})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "rejected %s in %.12s\n", c.ID, commit)
	return nil
}
