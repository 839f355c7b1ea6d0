package main

import (
	"fmt"
	"path"

	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/mdparse"
)

// precommitCmd is what the installed git pre-commit hook runs: it refuses
// a commit that stages a secret in any file of the store, that would push a
// staged MEMORY.md past Claude Code's cliff, or that stages a memory file
// whose frontmatter does not parse.
type precommitCmd struct{}

func (precommitCmd) Run(e *env) error {
	r, err := e.open()
	if err != nil {
		return err
	}
	staged, err := r.StagedStoreFiles(e.ctx)
	if err != nil {
		return err
	}
	failed := false
	for _, f := range staged {
		if err := secrets.Check(f.Path, string(f.Data)); err != nil {
			failed = true
			fmt.Fprintf(e.stdout, "%v\n", err)
		}
		if path.Base(f.Path) == catalog.FileName {
			b := mdparse.MeasureCatalog(f.Path, f.Data)
			if !b.Fits {
				failed = true
				printBudget(e, b)
			}
			continue
		}
		if path.Ext(f.Path) != ".md" {
			continue // not a memory: only scanned
		}
		if _, err := mdparse.Parse(f.Path, f.Data); err != nil {
			failed = true
			fmt.Fprintf(e.stdout, "%v\n", err)
		}
	}
	if failed {
		fmt.Fprintln(e.stderr, "mem: error: commit refused: fix the memory files above (`mem budget --fix` regenerates MEMORY.md), or commit with --no-verify")
		return exitError(1)
	}
	return nil
}
