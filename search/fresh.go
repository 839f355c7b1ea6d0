package search

// Freshness: whether the cache still reflects the memory files, without opening the repository and without parsing anything.
//
// A cache records a Source (modification time and size) for every store
// directory and every memory file. Statting every file costs ~5.6 µs each,
// too much for the prompt path at 10,000 memories, so the prompt path runs
// a quick check: one stat per directory, which catches adds, deletes,
// renames, editors that save by rename, and git itself (checkout, pull,
// merge and reset replace a file by unlink and create, which moves its
// directory's mtime); the stale marker that the PostToolUse hook drops when
// an agent edits a store file in place; and a rotating slice of file stats,
// so an in-place edit nobody announced is noticed within a few prompts.
// Every non-hook mem command runs a full check.

import (
	"os"
	"path/filepath"
	"time"
)

// SourceKind says what a stamped path is.
type SourceKind uint8

const (
	SourceFile SourceKind = iota // a memory file
	SourceDir                    // a store directory
)

// Source is what a stat said about one path when the cache was built.
type Source struct {
	Path  string
	ModNs int64
	Size  int64
	Kind  SourceKind
}

// Stat stats path; a missing path gets the zero stamp (ModNs 0, Size -1).
func Stat(path string, kind SourceKind) Source {
	s := Source{Path: path, Kind: kind, Size: -1}
	if fi, err := os.Stat(path); err == nil {
		s.ModNs, s.Size = fi.ModTime().UnixNano(), fi.Size()
		if kind == SourceDir {
			s.Size = 0 // directory sizes vary by filesystem and say nothing more than mtime
		}
	}
	return s
}

func (s Source) changed() bool {
	return Stat(s.Path, s.Kind) != s
}

// StaleMarker is the file, in the cache directory, whose presence says
// "something edited the store; check every file before trusting the cache".
const StaleMarker = "stale"

// Mark drops the stale marker; the PostToolUse hook calls it.
func MarkStale(cacheDir string) error {
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(cacheDir, StaleMarker), nil, 0o644)
}

// Clear removes the stale marker after a refresh.
func ClearStale(cacheDir string) { os.Remove(filepath.Join(cacheDir, StaleMarker)) }

// statSlice is how many file stamps a quick check stats per call.
const statSlice = 16

// Freshness is what a check concluded.
type Freshness uint8

const (
	Fresh       Freshness = iota // the cache reflects the files
	ClearMarker                  // the marker was set but every file is unchanged: clear it
	Stale                        // a store file or directory changed: rebuild what changed
)

// Stamps is a cache's record of what it was built from. A cache can serve
// it in place, decoding only the stamps a check reads: the prompt path
// reads the directories and a few dozen files, not ten thousand records.
type Stamps interface {
	Dirs() []Source
	Files() int
	File(i int) Source
}

// Check compares stamps with the filesystem. A quick check (full false)
// follows the cheap signals in the package comment and checks every file
// when the marker says an agent edited the store; a full check stats
// everything.
func CheckFresh(stamps Stamps, cacheDir string, now time.Time, full bool) Freshness {
	for _, s := range stamps.Dirs() {
		if s.changed() {
			return Stale
		}
	}
	n := stamps.Files()
	_, err := os.Stat(filepath.Join(cacheDir, StaleMarker))
	marked := err == nil
	if full || marked || n <= statSlice {
		for i := range n {
			if stamps.File(i).changed() {
				return Stale
			}
		}
		if marked {
			return ClearMarker
		}
		return Fresh
	}
	// A rotating window over the files, chosen by the clock so no state
	// needs writing on the prompt path.
	start := int(now.UnixNano()/int64(time.Millisecond)) % n
	for i := range statSlice {
		if stamps.File((start + i) % n).changed() {
			return Stale
		}
	}
	return Fresh
}
