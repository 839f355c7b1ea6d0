package hooks

import (
	"encoding/binary"
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
// first process to record the claim acts, a duplicate within the window
// does nothing. An input that names its event uniquely (a prompt_id, sent
// since Claude Code 2.1.196) claims for long; one that may come again
// legitimately (a SessionStart's) only for a few seconds, since duplicates
// start together.
//
// # Claims file format
//
// <state dir>/claims: a ring of claimSlots records of 16 bytes, each the
// 64-bit FNV-1a of the event, a zero byte and the key, then the claim's
// time in Unix nanoseconds, both little-endian; zero bytes are an empty
// slot. A claim reads the ring and writes one slot in place (the oldest),
// under an exclusive flock of the file. It used to be a file created per
// claim, which on a busy file system cost more than the rest of the prompt
// hook (half a millisecond, measured); a slot written in place allocates
// nothing. A claim older than its window, or pushed out by claimSlots
// newer ones, no longer claims anything.
const (
	// OnceUnique is the window of a key that names one event.
	OnceUnique = time.Hour
	// OnceRepeatable is the window of a key the same event may repeat.
	OnceRepeatable = 3 * time.Second
	claimSlots     = 64
	claimSize      = 16
)

// Claim reports whether this process is the first, within window, to
// handle key for event in the place whose state directory is stateDir. It
// fails open: when the claim cannot be recorded, the process acts. Claims
// age by the clock, whatever time the caller works with.
func Claim(stateDir, event string, key []byte, window time.Duration) bool {
	h := fnv.New64a()
	h.Write([]byte(event))
	h.Write([]byte{0})
	h.Write(key)
	id := h.Sum64() | 1 // never zero, the empty slot's
	path := filepath.Join(stateDir, "claims")
	// rawfile: os.OpenFile would start the runtime's network poller (an
	// epoll instance and an eventfd) on the prompt path.
	f, err := rawfile.Open(path, os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) && os.MkdirAll(stateDir, 0o755) == nil {
		f, err = rawfile.Open(path, os.O_RDWR|os.O_CREATE, 0o644)
	}
	if err != nil {
		return true
	}
	defer f.Close() // and with it the lock
	if lockClaims(f) != nil {
		return true
	}
	var ring [claimSlots * claimSize]byte
	n, _ := f.ReadAt(ring[:], 0)
	if n == 0 {
		// The first claim here: the marker files an older mem-hook made
		// per claim, in once/, are read by nobody now.
		os.RemoveAll(filepath.Join(stateDir, "once"))
	}
	// What a short file does not hold reads as empty slots (zeros).
	now := time.Now().UnixNano()
	slot, oldest := 0, int64(-1)
	for i := range claimSlots {
		rec := ring[i*claimSize : (i+1)*claimSize]
		at := int64(binary.LittleEndian.Uint64(rec[8:]))
		if binary.LittleEndian.Uint64(rec) == id && now-at < int64(window) {
			return false
		}
		if oldest < 0 || at < oldest {
			slot, oldest = i, at
		}
	}
	var rec [claimSize]byte
	binary.LittleEndian.PutUint64(rec[:], id)
	binary.LittleEndian.PutUint64(rec[8:], uint64(now))
	f.WriteAt(rec[:], int64(slot*claimSize))
	return true
}
