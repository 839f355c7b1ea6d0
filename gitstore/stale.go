package gitstore

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// staleAge is the age past which a temporary file whose name gives no
// process is taken for a leftover: every write that makes one takes
// milliseconds.
const staleAge = 10 * time.Minute

// removeStale removes what a mem killed mid-write left behind, and only
// what is provably mem's and stale: the index.lock of a mem process that is
// gone (with the ref locks it records; see removeStaleLock), and temporary
// files of mem's own naming, left by a process that is gone (their names
// carry its pid) or, for names without a pid, older than staleAge. dirs are
// the store directories about to be written. A lock or file of a live
// process is never touched.
func (s *Store) removeStale(dirs []string) {
	if s.GitDir != "" {
		if _, err := os.Lstat(filepath.Join(s.GitDir, "index.lock")); err == nil {
			removeStaleLock(filepath.Join(s.GitDir, "index.lock"))
		}
		removeStaleTemps(s.GitDir, func(name string) (string, bool) {
			for _, prefix := range []string{"mem-index.", "mem-lock."} {
				if rest, ok := strings.CutPrefix(name, prefix); ok && (strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, ".tmp.lock")) {
					return rest, true
				}
			}
			return "", false
		})
	}
	removeStaleTemps(s.StateDir(), func(name string) (string, bool) {
		if rest, ok := strings.CutPrefix(name, "index."); ok && (strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, ".tmp.lock")) {
			return rest, true // a commit's temporary index: index.<pid>.<random>.tmp
		}
		if strings.HasPrefix(name, ".index-") && (strings.Contains(name, ".bin.tmp") || strings.Contains(name, ".delta.tmp")) {
			return "", true // the search cache's temporary file, or its delta's
		}
		return "", false
	})
	removeStaleTemps(s.pendingDir(), func(name string) (string, bool) {
		// .<time>-w.<pid>.<random>.json.tmp<random>: a journal entry being written
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp") {
			return "", false
		}
		if _, rest, ok := strings.Cut(name, "-w."); ok {
			return rest, true
		}
		return "", true
	})
	for _, d := range dirs {
		removeStaleTemps(d, func(name string) (string, bool) {
			// .<file>.tmp-<pid>-<random>, or .<file>.tmp-<random> from older mem
			i := strings.LastIndex(name, ".tmp-")
			if !strings.HasPrefix(name, ".") || i < 0 {
				return "", false
			}
			rest := name[i+len(".tmp-"):]
			if pid, _, ok := strings.Cut(rest, "-"); ok {
				return pid + ".", true
			}
			return "", true
		})
	}
}

// removeStaleTemps removes the files in dir that match says are mem's
// temporary files and that are stale. match returns the part of the name
// that starts with "<pid>.", or "" when the name carries no pid.
func removeStaleTemps(dir string, match func(name string) (pidAndRest string, ok bool)) {
	// Names alone, and the type only of those that match: dir is the
	// store's on every write, thousands of memories that os.ReadDir would
	// sort and give an entry each.
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return
	}
	for _, name := range names {
		rest, ok := match(name)
		if !ok {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || fi.IsDir() {
			continue
		}
		if pidStr, _, found := strings.Cut(rest, "."); found && pidStr != "" {
			pid, err := strconv.Atoi(pidStr)
			if err == nil && pid > 0 {
				if pid != os.Getpid() && !processAlive(pid, "-") {
					os.Remove(path)
				}
				continue
			}
		}
		if time.Since(fi.ModTime()) > staleAge {
			os.Remove(path)
		}
	}
}
