// Package sweep is a store's daily upkeep, `mem sweep`: enrich the memories
// whose aliases are missing or stale, curate, verify, one step after the
// other under the repository's model lock (the caller takes it), each step
// writing its own commits as it does when run alone. The SessionStart hook
// starts one detached when the last is a day old (Due), so a store keeps
// itself current without anyone typing a command; `mem doctor` shows the
// last run (Last).
//
// A step that fails does not stop the others: verify's path probes are
// worth running when the model is down. Without a model, enrich is skipped
// and curate and verify run their deterministic parts.
//
// # State file
//
// <git-common-dir>/mem/sweep.json holds the last run, written atomically
// when it starts (Finished zero) and when it ends, so a run that crashed
// still counts as today's: JSON of Run.
package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/atomicfile"
	"github.com/mem-dev/mem/internal/modelcmd"
)

// File is the state file's name in the repository's state directory.
const File = "sweep.json"

// Interval is how long after a run the next one is due.
const Interval = 24 * time.Hour

// Steps, in the order they run.
const (
	StepEnrich = "enrich"
	StepCurate = "curate"
	StepVerify = "verify"
)

// Triggers: who started a run.
const (
	ByHand       = "hand"
	SessionStart = "session-start"
)

// Run is one sweep: when, who started it, and what each step did.
type Run struct {
	Store    string    `json:"store"`
	Trigger  string    `json:"trigger"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"` // zero while it runs (or when it crashed)
	OK       bool      `json:"ok"`                // every step ran without an error
	Steps    []Step    `json:"steps"`
}

// Step is what one step of a run did.
type Step struct {
	Name    string `json:"name"`
	Summary string `json:"summary,omitempty"` // e.g. "3 memories enriched, 1 left: it changed meanwhile"
	Skipped string `json:"skipped,omitempty"` // why the step did not run
	Error   string `json:"error,omitempty"`
	// Commits counts the commits that changed memories (review queue
	// updates aside).
	Commits int `json:"commits"`
}

// Options tune a run.
type Options struct {
	Model   modelcmd.Asker // nil: no model; enrich is skipped
	Network bool           // verify probes URLs
	Trigger string         // ByHand or SessionStart
	// Progress, when set, gives a progress callback for a step.
	Progress func(step string) func(done, total int)
	Now      func() time.Time // default time.Now
}

// Sweep runs the steps on r and records the run in r's state directory.
// The caller holds the model lock. It returns the run; the error is only
// for a state file that cannot be written.
func Sweep(ctx context.Context, r *mem.Repo, o Options) (Run, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	run := Run{Store: r.Place.Store, Trigger: o.Trigger, Started: now().UTC().Truncate(time.Second), Steps: []Step{}}
	if err := save(r.StateDir(), run); err != nil {
		return run, err
	}
	progress := func(step string) func(int, int) {
		if o.Progress == nil {
			return nil
		}
		return o.Progress(step)
	}
	run.Steps = append(run.Steps, enrichStep(ctx, r, o, progress(StepEnrich)))
	run.Steps = append(run.Steps, curateStep(ctx, r, o, progress(StepCurate)))
	run.Steps = append(run.Steps, verifyStep(ctx, r, o, progress(StepVerify)))
	run.OK = true
	for _, s := range run.Steps {
		if s.Error != "" {
			run.OK = false
		}
	}
	run.Finished = now().UTC().Truncate(time.Second)
	return run, save(r.StateDir(), run)
}

func enrichStep(ctx context.Context, r *mem.Repo, o Options, progress func(int, int)) Step {
	s := Step{Name: StepEnrich}
	if o.Model == nil {
		s.Skipped = "no model"
		return s
	}
	res, err := r.Enrich(ctx, mem.EnrichOptions{Model: o.Model, Progress: progress})
	var written, changed int
	for _, e := range res {
		if e.Commit != "" {
			s.Commits++
		}
		if e.Skipped == mem.ReasonChanged {
			changed++
		} else {
			written++
		}
	}
	s.Summary = plural(written, "memory", "memories") + " enriched"
	if changed > 0 {
		s.Summary += fmt.Sprintf(", %d left: changed meanwhile", changed)
	}
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

func curateStep(ctx context.Context, r *mem.Repo, o Options, progress func(int, int)) Step {
	s := Step{Name: StepCurate}
	res, err := r.Curate(ctx, mem.CurateOptions{Model: o.Model, Progress: progress})
	s.Commits = len(res.Apply)
	s.Summary = fmt.Sprintf("%d superseded, %d for review, %d duplicates, %d dead paths",
		len(res.Apply), len(res.Review), len(res.Duplicates), len(res.DeadPaths))
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

func verifyStep(ctx context.Context, r *mem.Repo, o Options, progress func(int, int)) Step {
	s := Step{Name: StepVerify}
	v, err := r.Verify(ctx, mem.VerifyOptions{Model: o.Model, Network: o.Network, Progress: progress})
	if v.Commit != "" {
		s.Commits = 1
	}
	s.Summary = fmt.Sprintf("%d claims: %d failed, %d labelled, %d cleared", v.Claims, len(v.Failed), len(v.Labelled), len(v.Cleared))
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

// Line says in one line what a run did, for `mem doctor` and the CLI.
func (run Run) Line(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "last run %s (%s)", ago(now.Sub(run.Started)), run.Trigger)
	switch {
	case run.Finished.IsZero():
		b.WriteString(": did not finish")
	case run.OK:
		b.WriteString(": ok")
	default:
		b.WriteString(": failed")
	}
	for _, s := range run.Steps {
		switch {
		case s.Error != "":
			fmt.Fprintf(&b, "; %s failed: %s", s.Name, s.Error)
		case s.Skipped != "":
			fmt.Fprintf(&b, "; %s skipped: %s", s.Name, s.Skipped)
		default:
			fmt.Fprintf(&b, "; %s: %s", s.Name, s.Summary)
		}
	}
	return b.String()
}

// Last reads the last run recorded in stateDir; ok is false when there is
// none (or its file does not read as one).
func Last(stateDir string) (run Run, ok bool) {
	data, err := os.ReadFile(filepath.Join(stateDir, File))
	if err != nil || json.Unmarshal(data, &run) != nil || run.Started.IsZero() {
		return Run{}, false
	}
	return run, true
}

// Due reports whether a sweep is due in stateDir at now: none ran, or the
// last started at least Interval ago (or, by a clock that moved back, in the
// future).
func Due(stateDir string, now time.Time) bool {
	run, ok := Last(stateDir)
	if !ok {
		return true
	}
	age := now.Sub(run.Started)
	return age >= Interval || age < 0
}

func save(stateDir string, run Run) error {
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("record sweep: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(stateDir, File), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("record sweep: %w", err)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ago says how long ago d was, roughly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}
