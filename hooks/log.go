package hooks

import (
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/logfile"
)

// logHookError appends one line to <cacheDir>/hook.log; hooks fail open,
// so this is the only trace of our own errors. It does nothing when the
// cache directory is unknown and ignores its own failures.
func logHookError(cacheDir string, now time.Time, msg string) {
	if cacheDir == "" {
		return
	}
	logfile.AppendDated(filepath.Join(cacheDir, logfile.HookErrors), now, msg)
}
