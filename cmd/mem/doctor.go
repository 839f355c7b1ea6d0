package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/install"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/sweep"
	"github.com/mem-dev/mem/mdparse"
)

// doctorCmd checks what install wired (install.Doctor) and the store itself.
type doctorCmd struct {
	JSON bool `help:"Print the findings as a JSON array of {check, severity, message, fix}; severity is error or info. The exit code is the same."`
}

// finding is one line of doctor --json.
type finding struct {
	Check    string `json:"check"`
	Severity string `json:"severity"` // error: doctor exits 1; info: a state worth knowing
	Message  string `json:"message"`
	Fix      string `json:"fix,omitempty"`
}

func (c doctorCmd) Run(e *env) error {
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
	found, err := doctorProblems(e, place, r)
	if err != nil {
		return err
	}
	// Errors first, each with its fix, then what is only worth knowing.
	slices.SortStableFunc(found, func(a, b install.Problem) int {
		return cmp.Compare(boolInt(a.Info), boolInt(b.Info))
	})
	failing := slices.ContainsFunc(found, func(p install.Problem) bool { return !p.Info })
	if c.JSON {
		out := []finding{}
		for _, p := range found {
			f := finding{Check: p.Check, Severity: "error", Message: p.Message, Fix: p.Fix}
			if p.Info {
				f.Severity = "info"
			}
			out = append(out, f)
		}
		if err := printJSON(e, out); err != nil {
			return err
		}
	} else {
		if !failing {
			fmt.Fprintln(e.stdout, "mem doctor: all good")
		}
		for _, p := range found {
			line := fmt.Sprintf("%s: %s", p.Check, p.Message)
			switch {
			case p.Fix != "" && p.Info:
				line += "; " + p.Fix // nothing is broken: a way, not a fix
			case p.Fix != "":
				line += "; fix: " + p.Fix
			}
			fmt.Fprintln(e.stdout, strings.TrimSpace(line))
		}
	}
	if failing {
		return exitError(1)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// doctorProblems are everything doctor finds: what install wired, the
// model, and the store (r, nil when there is none yet), with the last
// sweep's line, an Info one when it went well. mem serve's health page
// shows the problems among them.
func doctorProblems(e *env, place locate.Place, r *mem.Repo) ([]install.Problem, error) {
	o, err := placeOptions(place, []string{install.Claude}, false)
	if err != nil {
		return nil, err
	}
	problems := install.Doctor(o)
	if err := modelcmd.FromEnv().Available(); err != nil {
		problems = append(problems, noModel(err))
	}
	if r != nil {
		problems = append(problems, storeProblems(e, r)...)
		if run, ok := sweep.Last(r.StateDir()); ok {
			if run.OK || run.Finished.IsZero() && time.Since(run.Started) < time.Hour {
				problems = append(problems, install.Problem{Check: "sweep", Message: run.Line(time.Now()), Info: true})
			} else {
				problems = append(problems, install.Problem{Check: "sweep", Message: run.Line(time.Now()), Fix: "run `mem sweep` to see it fail"})
			}
		}
	}
	return problems, nil
}

// noModel is doctor's finding when no model can run (err, from
// modelcmd.Runner.Available): a state, not a fault; mem works, and only the
// offline passes that need one (aliases first) wait for it.
func noModel(err error) install.Problem {
	p := install.Problem{Check: "model", Message: "aliases are not written: no model", Fix: "install claude or set MEM_MODEL_CMD", Info: true}
	if strings.TrimSpace(os.Getenv("MEM_MODEL_CMD")) != "" {
		p.Fix = strings.TrimPrefix(err.Error(), modelcmd.ErrUnavailable.Error()+": ") // what is wrong with it, and what to do
	}
	return p
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
	files, err := r.Catalogs().All(e.ctx)
	if err != nil {
		return append(ps, install.Problem{Check: "store", Message: err.Error()})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			ps = append(ps, install.Problem{Check: "budget", Message: err.Error()})
			continue
		}
		if behind, err := r.Catalogs().Behind(e.ctx, f); err == nil && len(behind) > 0 {
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
