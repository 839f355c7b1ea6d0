package hooks

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/locate"
)

// LearnPending, in the state directory, marks a learning run started and
// not yet under way; `mem learn` removes it once it holds its lock.
const LearnPending = "learn.pending"

// Learner is called by the gate when, since the last stop, the agent
// looked a memory up itself (GateResult.Found): the turn's prompt may be
// an alias the memory lacks. It must return at once.
type Learner func(in StopInput, place locate.Place) error

// StartLearn returns the Learner that starts `bin learn` for the session's
// transcript, detached, so the Stop hook never waits on it.
func StartLearn(bin string) Learner {
	return func(in StopInput, place locate.Place) error {
		if background.Off() {
			return nil
		}
		pending := filepath.Join(place.StateDir(), LearnPending)
		if err := os.WriteFile(pending, nil, 0o644); err != nil {
			return fmt.Errorf("start learn: %w", err)
		}
		cmd := exec.Command(bin, "--store", place.Store, "-C", place.WorkTree, "learn",
			"--transcript", locate.ExpandHome(in.TranscriptPath))
		cmd.SysProcAttr = background.Detached()
		if err := cmd.Start(); err != nil {
			os.Remove(pending)
			return fmt.Errorf("start learn: %w", err)
		}
		return cmd.Process.Release()
	}
}
