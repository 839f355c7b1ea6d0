// Package fresh decides whether the search cache still reflects the memory
// files, without opening the repository and without parsing anything.
//
// A cache records a Stamp (modification time and size) for every store
// directory, every memory file, and the git files that move when commits,
// pulls and checkouts happen. Statting every file costs ~5.6 µs each, too
// much for the prompt path at 10,000 memories, so the prompt path runs
// Quick: one stat per directory (adds, deletes, renames, editors that save
// by rename), the git index and HEAD (commits, pulls, checkouts, whose
// change then triggers a full check), the stale marker that the PostToolUse
// hook drops when an agent edits a store file, and a rotating slice of file
// stats so an in-place edit nobody announced is noticed within a few
// prompts. Every non-hook mem command runs Full.
package fresh

import (
	"os"
	"path/filepath"
	"time"
)

// Kind says what a stamped path is.
type Kind uint8

const (
	File Kind = iota // a memory file
	Dir              // a store directory
	Git              // a git file whose change means "check every file"
)

// Stamp is what a stat said about one path when the cache was built.
type Stamp struct {
	Path  string
	ModNs int64
	Size  int64
	Kind  Kind
}

// Of stats path; a missing path gets the zero stamp (ModNs 0, Size -1).
func Of(path string, kind Kind) Stamp {
	s := Stamp{Path: path, Kind: kind, Size: -1}
	if fi, err := os.Stat(path); err == nil {
		s.ModNs, s.Size = fi.ModTime().UnixNano(), fi.Size()
		if kind == Dir {
			s.Size = 0 // directory sizes vary by filesystem and say nothing more than mtime
		}
	}
	return s
}

func (s Stamp) changed() bool {
	return Of(s.Path, s.Kind) != s
}

// MarkerName is the file, in the cache directory, whose presence says
// "something edited the store; check every file before trusting the cache".
const MarkerName = "stale"

// Mark drops the stale marker; the PostToolUse hook calls it.
func Mark(cacheDir string) error {
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(cacheDir, MarkerName), nil, 0o644)
}

// Clear removes the stale marker after a refresh.
func Clear(cacheDir string) { os.Remove(filepath.Join(cacheDir, MarkerName)) }

// slice is how many file stamps a quick check stats per call.
const slice = 48

// Verdict is what a check concluded.
type Verdict uint8

const (
	Fresh   Verdict = iota // the cache reflects the files
	Restamp                // the files are unchanged but git moved or the marker is set: rewrite the stamps
	Stale                  // a store file or directory changed: rebuild what changed
)

// Check compares stamps with the filesystem. A quick check (full false)
// follows the cheap signals in the package comment and escalates to every
// file when a git file or the marker says something happened; a full check
// stats everything.
func Check(stamps []Stamp, cacheDir string, now time.Time, full bool) Verdict {
	var files []Stamp
	moved := false
	for _, s := range stamps {
		switch s.Kind {
		case Dir:
			if s.changed() {
				return Stale
			}
		case Git:
			if !moved && s.changed() {
				moved = true
			}
		default:
			files = append(files, s)
		}
	}
	if _, err := os.Stat(filepath.Join(cacheDir, MarkerName)); err == nil {
		moved = true
	}
	if full || moved || len(files) <= slice {
		if anyChanged(files) {
			return Stale
		}
		if moved {
			return Restamp
		}
		return Fresh
	}
	// A rotating window over the files, chosen by the clock so no state
	// needs writing on the prompt path.
	start := int(now.UnixNano()/int64(time.Millisecond)) % len(files)
	for i := 0; i < slice; i++ {
		if files[(start+i)%len(files)].changed() {
			return Stale
		}
	}
	return Fresh
}

func anyChanged(stamps []Stamp) bool {
	for _, s := range stamps {
		if s.changed() {
			return true
		}
	}
	return false
}
