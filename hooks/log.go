package hooks

import (
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/logfile"
)

// logHookError appends one line to <stateDir>/hook.log; hooks fail open,
// so this is the only trace of our own errors. It does nothing when the
// state directory is unknown and ignores its own failures.
func logHookError(stateDir string, now time.Time, msg string) {
	if stateDir == "" {
		return
	}
	logfile.AppendDated(filepath.Join(stateDir, logfile.HookErrors), now, msg)
}
