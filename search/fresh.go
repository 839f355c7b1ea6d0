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
// an agent edits a store file in place, naming the file, which alone is
// statted then; and a rotating slice of file stats,
// so an in-place edit nobody announced is noticed within a few prompts.
// Every non-hook mem command runs a full check.

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mem-dev/mem/internal/rawfile"
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

// StaleMarker is the file, in the state directory, whose presence says
// "something edited the store; check before trusting the cache". It names
// the files edited, one absolute path a line; a marker that names none (an
// older mem's) or more than maxMarked means "check every file".
const StaleMarker = "stale"

// maxMarked is how many edited files a marker names before it stands for
// "check every file": past it, statting every file is as cheap as reading
// the list.
const maxMarked = 256

// MarkStale drops the stale marker, naming path, the file an agent edited;
// the PostToolUse hook calls it.
func MarkStale(stateDir, path string) error {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(stateDir, StaleMarker), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(path + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Marked reports whether the stale marker is set and which files it names:
// marked with no paths means any file may have changed.
func Marked(stateDir string) (paths []string, marked bool) {
	data, err := rawfile.ReadFile(filepath.Join(stateDir, StaleMarker))
	if err != nil {
		return nil, false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if line != "" && !slices.Contains(paths, line) {
			paths = append(paths, line)
		}
		if len(paths) > maxMarked {
			return nil, true
		}
	}
	return paths, true
}

// ClearStale removes the stale marker after a refresh.
func ClearStale(stateDir string) { os.Remove(filepath.Join(stateDir, StaleMarker)) }

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
	FilePath(i int) []byte // File(i).Path, without decoding the stamp
}

// CheckFresh compares stamps with the filesystem. A quick check (full
// false) follows the cheap signals in the package comment: the directories,
// the files the stale marker names (every file when it names none) and a
// rotating slice of the rest; a full check stats everything.
func CheckFresh(stamps Stamps, stateDir string, now time.Time, full bool) Freshness {
	for _, s := range stamps.Dirs() {
		if s.changed() {
			return Stale
		}
	}
	n := stamps.Files()
	named, marked := Marked(stateDir)
	if full || marked && named == nil || n <= statSlice {
		if anyChanged(stamps, n) {
			return Stale
		}
		if marked {
			return ClearMarker
		}
		return Fresh
	}
	if marked {
		found := 0
		for i := range n {
			p := stamps.FilePath(i)
			if slices.ContainsFunc(named, func(name string) bool { return string(p) == name }) {
				if stamps.File(i).changed() {
					return Stale
				}
				found++
			}
		}
		if found < len(named) {
			return Stale // a file the cache does not know (its directory's stamp should have said so)
		}
	}
	// A rotating window over the files, chosen by the clock so no state
	// needs writing on the prompt path.
	start := int(now.UnixNano()/int64(time.Millisecond)) % n
	for i := range statSlice {
		if stamps.File((start + i) % n).changed() {
			return Stale
		}
	}
	if marked {
		return ClearMarker
	}
	return Fresh
}

// anyChanged reports whether any of the n file stamps changed, statting
// them in parallel when there are many: a stat is a system call, so the
// cores share a large store's check.
func anyChanged(stamps Stamps, n int) bool {
	var changed atomic.Bool
	inParallel(n, func(lo, hi int) {
		st := newStatter()
		defer st.close()
		for i := lo; i < hi && !changed.Load(); i++ {
			if s := stamps.File(i); st.stat(s.Path, s.Kind) != s {
				changed.Store(true)
			}
		}
	})
	return changed.Load()
}

// Restat stats again the file stamps among stamps that keep accepts (all
// when keep is nil), in parallel when there are many, writes the new stamps
// of those that changed in place and returns their indexes, in order.
func Restat(stamps []Source, keep func(Source) bool) []int {
	var mu sync.Mutex
	var out []int
	inParallel(len(stamps), func(lo, hi int) {
		stat := newStatter()
		defer stat.close()
		var mine []int
		for i := lo; i < hi; i++ {
			st := stamps[i]
			if st.Kind != SourceFile || keep != nil && !keep(st) {
				continue
			}
			if now := stat.stat(st.Path, SourceFile); now != st {
				stamps[i] = now
				mine = append(mine, i)
			}
		}
		mu.Lock()
		out = append(out, mine...)
		mu.Unlock()
	})
	slices.Sort(out)
	return out
}

// StatFiles stamps the files at paths, as Stat does, through their
// directories held open and in parallel when there are many.
func StatFiles(paths []string) []Source {
	out := make([]Source, len(paths))
	inParallel(len(paths), func(lo, hi int) {
		st := newStatter()
		defer st.close()
		for i := lo; i < hi; i++ {
			out[i] = st.stat(paths[i], SourceFile)
		}
	})
	return out
}

// parallelMin is how many stats make it worth splitting them across cores.
const parallelMin = 512

// inParallel calls fn over [0, n) split into one range per core when n is
// large, else once.
func inParallel(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), 8, n/parallelMin)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}
