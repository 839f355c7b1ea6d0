package main

import (
	"fmt"
	"os"
	"path"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/install"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/secrets"
)

// precommitCmd is what the installed git pre-commit hook runs: it refuses
// a commit that would push a staged MEMORY.md past Claude Code's cliff or
// that stages a memory file whose frontmatter does not parse.
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
		if path.Base(f.Path) == "MEMORY.md" {
			b := mdparse.MeasureMemoryIndex(f.Path, f.Data)
			if !b.Fits {
				failed = true
				printBudget(e, b)
			}
			continue
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

// storeProblems are doctor's checks of the store itself.
func storeProblems(e *env, r *mem.Repo) []install.Problem {
	var ps []install.Problem
	if !r.IndexFresh() {
		ps = append(ps, install.Problem{Check: "index", Message: "the search cache is missing or stale", Fix: "run `mem index`"})
	}
	files, err := r.MemoryIndexes()
	if err != nil {
		return append(ps, install.Problem{Check: "store", Message: err.Error()})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			ps = append(ps, install.Problem{Check: "budget", Message: err.Error()})
			continue
		}
		if b := mdparse.MeasureMemoryIndex(e.shown(f), data); !b.Fits {
			ps = append(ps, install.Problem{Check: "budget",
				Message: fmt.Sprintf("%s is over the load limit: Claude Code stops reading at line %d", b.File, b.CutLine),
				Fix:     "run `mem budget --fix`"})
		}
	}
	return ps
}
