package hooks

import (
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/rawfile"
)

// Claude Code runs one handler once when the same command is in several
// settings files, but a plugin's hooks are not compared with the settings':
// with mem's plugin enabled in a repository whose .claude/settings.json
// also has mem's hooks, every event runs mem twice, in parallel, with the
// same input. The second would inject the same memories again, or race the
// first for the gate's state. So each handler first claims its input: the
// first process to create the marker acts, a duplicate within the window
// does nothing. An input that names its event uniquely (a prompt_id, sent
// since Claude Code 2.1.196) claims for long; one that may come again
// legitimately (a SessionStart's) only for a few seconds, since duplicates
// start together.
//
// # Marker format
//
// <CacheDir>/once/<event>-<64-bit FNV-1a of the key, hex>: an empty file.
// A marker older than its window no longer claims anything; markers older
// than OnceUnique go when, one new marker in 256 (by its hash), the
// directory holds more than onceMaxFiles.
const (
	// OnceUnique is the window of a key that names one event.
	OnceUnique = time.Hour
	// OnceRepeatable is the window of a key the same event may repeat.
	OnceRepeatable = 3 * time.Second
	onceMaxFiles   = 256
)

// Claim reports whether this process is the first, within window, to
// handle key for event in the place whose cache directory is cacheDir. It
// fails open: when the marker cannot be written, the process acts. Markers
// age by the clock, whatever time the caller works with.
func Claim(cacheDir, event string, key []byte, window time.Duration) bool {
	now := time.Now()
	h := fnv.New64a()
	h.Write(key)
	sum := h.Sum(nil)
	dir := filepath.Join(cacheDir, "once")
	name := filepath.Join(dir, event+"-"+hex.EncodeToString(sum))
	for range 2 {
		// rawfile: os.OpenFile would start the runtime's network poller
		// (an epoll instance and an eventfd) on the prompt path.
		f, err := rawfile.Open(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		switch {
		case err == nil:
			f.Close()
			if sum[0] == 0 { // one claim in 256 reads the directory
				pruneOnce(dir, now)
			}
			return true
		case errors.Is(err, fs.ErrExist):
			fi, serr := os.Stat(name)
			if serr == nil && now.Sub(fi.ModTime()) < window {
				return false
			}
			// An old marker: this is the same input again, not a duplicate.
			os.Remove(name)
		case errors.Is(err, fs.ErrNotExist):
			if os.MkdirAll(dir, 0o755) != nil {
				return true
			}
		default:
			return true
		}
	}
	return true
}

// pruneOnce removes old markers once the directory holds many.
func pruneOnce(dir string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) <= onceMaxFiles {
		return
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > OnceUnique {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
