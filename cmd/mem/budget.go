package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/mdparse"
)

type budgetCmd struct {
	JSON  bool     `help:"Print a JSON array of {file,lines,bytes,fits,cut_line}."`
	Fix   bool     `help:"Regenerate the store's MEMORY.md from the memories, within budget: rules and the most important first; commit it."`
	Merge bool     `help:"With --fix: act as git's merge driver; FILES are %O %A %B %P and the result is written to %A." hidden:""`
	Files []string `arg:"" optional:"" help:"MEMORY.md or CLAUDE.md files (default: every MEMORY.md in the store, and those of subagents whose memory is in the local or user scope)." type:"path"`
}

func (c budgetCmd) Run(e *env) error {
	if c.Fix {
		return c.fix(e)
	}
	files := c.Files
	if len(files) == 0 {
		r, err := e.open()
		if err != nil {
			return err
		}
		if files, err = r.Catalogs().All(e.ctx); err != nil {
			return err
		}
		// Subagents' MEMORY.md in the local and user scopes meet the same
		// cliff when Claude Code loads them into the subagent's prompt.
		more, bad := r.Catalogs().Agents(e.ctx)
		for _, err := range bad {
			fmt.Fprintf(e.stderr, "mem: warning: a subagent definition was not read: %v\n", err)
		}
		files = append(files, more...)
		if len(files) == 0 && !c.JSON {
			fmt.Fprintln(e.stdout, "no MEMORY.md in the store")
			return nil
		}
	}
	var report []mdparse.Budget
	over := false
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		shown := e.shown(f)
		if isClaudeMD(f) {
			b, warn := mdparse.MeasureClaudeMD(shown, data)
			report = append(report, b)
			if !b.Fits {
				over = true
			}
			if !c.JSON {
				printClaudeMD(e, b, warn)
			}
			continue
		}
		b := mdparse.MeasureCatalog(shown, data)
		report = append(report, b)
		if !b.Fits {
			over = true
		}
		if !c.JSON {
			printBudget(e, b)
		}
	}
	if c.JSON {
		if err := printJSON(e, nonNil(report)); err != nil {
			return err
		}
	}
	if over {
		return exitError(1)
	}
	return nil
}

func isClaudeMD(f string) bool {
	base := strings.ToUpper(filepath.Base(f))
	return base == "CLAUDE.MD" || base == "CLAUDE.LOCAL.MD" || base == "AGENTS.MD"
}

func printBudget(e *env, b mdparse.Budget) {
	if b.Fits {
		fmt.Fprintf(e.stdout, "%s: %d lines, %d bytes: fits (limit %d lines, %d bytes)\n",
			b.File, b.Lines, b.Bytes, mdparse.CatalogMaxLines, mdparse.CatalogMaxBytes)
		return
	}
	fmt.Fprintf(e.stdout, "%s: %d lines, %d bytes: OVER the limit (%d lines, %d bytes); Claude Code stops loading at line %d\n",
		b.File, b.Lines, b.Bytes, mdparse.CatalogMaxLines, mdparse.CatalogMaxBytes, b.CutLine)
	if len(b.Hidden) == 0 {
		return
	}
	// Sections first: a whole heading nobody reads is the loudest loss.
	var headings, entries []string
	for _, h := range b.Hidden {
		if strings.HasPrefix(h, "#") {
			headings = append(headings, h)
		} else {
			entries = append(entries, h)
		}
	}
	fmt.Fprintf(e.stdout, "never loaded: %d sections, %d entries\n", len(headings), len(entries))
	for _, h := range headings {
		fmt.Fprintf(e.stdout, "  %s\n", h)
	}
	for i, h := range entries {
		if i == 10 {
			fmt.Fprintf(e.stdout, "  … and %d more entries\n", len(entries)-i)
			break
		}
		fmt.Fprintf(e.stdout, "  - %s\n", h)
	}
}

func printClaudeMD(e *env, b mdparse.Budget, warn bool) {
	switch {
	case !b.Fits:
		fmt.Fprintf(e.stdout, "%s: %d bytes: over 4 MiB, Claude Code skips the whole file\n", b.File, b.Bytes)
	case warn:
		fmt.Fprintf(e.stdout, "%s: %d lines: loaded whole, but past %d lines adherence drops; consider moving detail into memories\n", b.File, b.Lines, mdparse.CatalogMaxLines)
	default:
		fmt.Fprintf(e.stdout, "%s: %d lines, %d bytes: fits\n", b.File, b.Lines, b.Bytes)
	}
}

// fix regenerates MEMORY.md files, or resolves a merge of one.
func (c budgetCmd) fix(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	if c.Merge {
		if len(c.Files) != 4 {
			return fmt.Errorf("--merge takes the four merge driver arguments %%O %%A %%B %%P, got %d", len(c.Files))
		}
		ours, theirs, name := c.Files[1], c.Files[2], c.Files[3]
		a, err := os.ReadFile(ours)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(theirs)
		if err != nil {
			return err
		}
		if !filepath.IsAbs(name) { // git gives %P relative to the work tree
			name = filepath.Join(r.Place.WorkTree, name)
		}
		rel, err := r.StoreRel(name)
		if err != nil {
			return err
		}
		data, err := r.Catalogs().Generate(e.ctx, rel, a, b)
		if err != nil {
			return err
		}
		return os.WriteFile(ours, data, 0o644)
	}
	files := c.Files
	if len(files) == 0 {
		if files, err = r.Catalogs().All(e.ctx); err != nil {
			return err
		}
		if len(files) == 0 {
			files = []string{filepath.Join(r.Place.Store, catalog.FileName)}
		}
	}
	for _, f := range files {
		rel, err := r.StoreRel(f)
		if err != nil {
			return err
		}
		w, err := r.Catalogs().Fix(e.ctx, rel)
		if err != nil {
			return err
		}
		if w.Skipped == mem.SkipUpToDate {
			fmt.Fprintf(e.stdout, "%s: %s\n", w.Path, w.Skipped)
			continue
		}
		reportSkip(e, w.Skipped)
		if len(w.Moved) > 0 {
			fmt.Fprintf(e.stdout, "%s: its notes did not leave room for the memories; moved them into %d memories: %s\n", w.Path, len(w.Moved), strings.Join(w.Moved, ", "))
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		printBudget(e, mdparse.MeasureCatalog(e.shown(f), data))
	}
	return nil
}
