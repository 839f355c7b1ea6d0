package search

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// store makes a directory with n files and returns it with their stamps.
func stampedStore(t *testing.T, n int) (string, []Source) {
	t.Helper()
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	stamps := []Source{}
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("m%03d.md", i))
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
		stamps = append(stamps, Stat(p, SourceFile))
	}
	os.Chtimes(dir, old, old)
	return dir, append(stamps, Stat(dir, SourceDir))
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		files int
		touch func(t *testing.T, dir, cache string)
		full  bool
		want  Freshness
	}{
		{"untouched", 10, func(*testing.T, string, string) {}, false, Fresh},
		{"file added", 10, func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, "new.md")) }, false, Stale},
		{"file removed", 10, func(t *testing.T, dir, _ string) { os.Remove(filepath.Join(dir, "m003.md")) }, false, Stale},
		{"small store edited in place", 10, func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, "m003.md")) }, false, Stale},
		{"large store edited in place, full check", 200, func(t *testing.T, dir, _ string) { write(t, filepath.Join(dir, "m150.md")) }, true, Stale},
		{"large store edited in place, marker set", 200, func(t *testing.T, dir, cache string) {
			write(t, filepath.Join(dir, "m150.md"))
			MarkStale(cache, filepath.Join(dir, "m150.md"))
		}, false, Stale},
		{"marker set, nothing changed", 200, func(t *testing.T, dir, cache string) { MarkStale(cache, filepath.Join(dir, "m150.md")) }, false, ClearMarker},
		// The marker names what the agent edited: another file's unannounced
		// edit waits for the rotating slice (this check's slice starts at 0).
		{"marker names another file", 200, func(t *testing.T, dir, cache string) {
			write(t, filepath.Join(dir, "m150.md"))
			MarkStale(cache, filepath.Join(dir, "m010.md"))
		}, false, ClearMarker},
		// A marker that names nothing (an older mem's) checks every file.
		{"marker names nothing", 200, func(t *testing.T, dir, cache string) {
			write(t, filepath.Join(dir, "m150.md"))
			os.WriteFile(filepath.Join(cache, StaleMarker), nil, 0o644)
		}, false, Stale},
		{"marker names a file the cache lacks", 200, func(t *testing.T, dir, cache string) { MarkStale(cache, filepath.Join(dir, "zz.md")) }, false, Stale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, stamps := stampedStore(t, tt.files)
			cache := t.TempDir()
			tt.touch(t, dir, cache)
			if got := CheckFresh(newStampList(stamps), cache, time.UnixMilli(0), tt.full); got != tt.want {
				t.Errorf("Check = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRotatingSlice: an unannounced in-place edit in a large store is
// noticed within a few quick checks, without statting every file each time.
func TestRotatingSlice(t *testing.T) {
	dir, stamps := stampedStore(t, 500)
	cache := t.TempDir()
	write(t, filepath.Join(dir, "m321.md"))
	seen := false
	for ms := 0; ms < 500 && !seen; ms += statSlice {
		seen = CheckFresh(newStampList(stamps), cache, time.UnixMilli(int64(ms)), false) == Stale
	}
	if !seen {
		t.Error("a full rotation of quick checks did not notice the edit")
	}
	if CheckFresh(newStampList(stamps), cache, time.UnixMilli(0), false) != Fresh {
		t.Error("the first statSlice does not hold the edited file, yet the check said stale")
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("changed content"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stampList is a Stamps held in memory, for these tests (the product reads
// stamps in place from the search cache).
type stampList struct{ dirs, files []Source }

// newStampList sorts stamps into directories and files.
func newStampList(stamps []Source) stampList {
	var l stampList
	for _, s := range stamps {
		if s.Kind == SourceDir {
			l.dirs = append(l.dirs, s)
		} else {
			l.files = append(l.files, s)
		}
	}
	return l
}

func (l stampList) Dirs() []Source        { return l.dirs }
func (l stampList) Files() int            { return len(l.files) }
func (l stampList) File(i int) Source     { return l.files[i] }
func (l stampList) FilePath(i int) []byte { return []byte(l.files[i].Path) }
