package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/install"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/sweep"
	"github.com/mem-dev/mem/mdparse"
)

// doctorCmd checks what install wired (install.Doctor) and the store itself.
type doctorCmd struct{}

func (doctorCmd) Run(e *env) error {
	r, err := e.open()
	var place locate.Place
	switch {
	case err == nil:
		place = r.Place
	case errors.Is(err, mem.ErrNoStore):
		// No store yet: install.Doctor says so among everything else that
		// needs doing.
		if place, err = locate.Find(e.dir, e.store); err != nil {
			return err
		}
	default:
		return err
	}
	problems, swept, err := doctorProblems(e, place, r)
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		fmt.Fprintln(e.stdout, "mem doctor: all good")
		if swept != "" {
			fmt.Fprintln(e.stdout, swept)
		}
		return nil
	}
	if swept != "" {
		fmt.Fprintln(e.stdout, swept)
	}
	for _, p := range problems {
		line := fmt.Sprintf("%s: %s", p.Check, p.Message)
		if p.Fix != "" {
			line += "; fix: " + p.Fix
		}
		fmt.Fprintln(e.stdout, strings.TrimSpace(line))
	}
	return exitError(1)
}

// doctorProblems are everything doctor checks: what install wired, and the
// store (r, nil when there is none yet), with the last sweep's line when it
// went well (a failed one is a problem). mem serve's health page shows them.
func doctorProblems(e *env, place locate.Place, r *mem.Repo) (problems []install.Problem, swept string, err error) {
	o, err := placeOptions(place, []string{install.Claude}, false)
	if err != nil {
		return nil, "", err
	}
	problems = install.Doctor(o)
	if r != nil {
		problems = append(problems, storeProblems(e, r)...)
		if run, ok := sweep.Last(r.StateDir()); ok {
			if run.OK || run.Finished.IsZero() && time.Since(run.Started) < time.Hour {
				swept = "sweep: " + run.Line(time.Now())
			} else {
				problems = append(problems, install.Problem{Check: "sweep", Message: run.Line(time.Now()), Fix: "run `mem sweep` to see it fail"})
			}
		}
	}
	return problems, swept, nil
}

// storeProblems are doctor's checks of the store itself.
func storeProblems(e *env, r *mem.Repo) []install.Problem {
	var ps []install.Problem
	// A missing or stale cache is no problem: every command and the hook
	// rebuild it. One that cannot be built is.
	broken, err := r.Broken(e.ctx) // reads the index, building it when it must
	if err != nil {
		ps = append(ps, install.Problem{Check: "index", Message: "the search cache cannot be built: " + err.Error(), Fix: "run `mem index` to see it fail"})
	}
	for _, b := range broken {
		ps = append(ps, install.Problem{Check: "memory", Message: b + " (searched as far as it reads)", Fix: "correct the file (mem show and mem edit refuse it until then)"})
	}
	pending, err := r.PendingWrites()
	if err != nil {
		ps = append(ps, install.Problem{Check: "pending", Message: err.Error()})
	}
	for _, p := range pending {
		ps = append(ps, install.Problem{Check: "pending",
			Message: fmt.Sprintf("a write is not committed yet: %s (%s, written %s)", p.Subject, strings.Join(p.Paths, ", "), p.Time.Local().Format(time.DateTime)),
			Fix:     "the next mem write commits it, once git can commit (no merge or rebase in progress, no index.lock held, git on PATH)"})
	}
	files, err := r.Catalogs(e.ctx)
	if err != nil {
		return append(ps, install.Problem{Check: "store", Message: err.Error()})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			ps = append(ps, install.Problem{Check: "budget", Message: err.Error()})
			continue
		}
		if behind, err := r.CatalogBehind(e.ctx, f); err == nil && len(behind) > 0 {
			ps = append(ps, install.Problem{Check: "budget",
				Message: fmt.Sprintf("%s is behind the store: it lists %s", e.shown(f), strings.Join(behind, ", ")),
				Fix:     "edit it, or run `mem budget --fix` to have mem generate it and keep it current"})
		}
		if b := mdparse.MeasureCatalog(e.shown(f), data); !b.Fits {
			ps = append(ps, install.Problem{Check: "budget",
				Message: fmt.Sprintf("%s is over the load limit: Claude Code stops reading at line %d", b.File, b.CutLine),
				Fix:     "run `mem budget --fix`"})
		}
	}
	return ps
}
