package indexer

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/search"
)

// dirFiles is a store directory read as gitstore reads it.
type dirFiles string

func (d dirFiles) Walk() ([]string, error) {
	var rels []string
	err := filepath.WalkDir(string(d), func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(string(d), p)
			rels = append(rels, filepath.ToSlash(rel))
		}
		return err
	})
	return rels, err
}

func (d dirFiles) ReadFile(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), filepath.FromSlash(rel)))
}

func memory(name, body string) string {
	return "---\nname: " + name + "\ndescription: " + name + "\nclass: fact\n---\n" + body + "\n"
}

// bodies are the index's documents as "slug: body", sorted.
func bodies(t *testing.T, ix *search.Index) []string {
	t.Helper()
	var out []string
	for _, d := range ix.Docs() {
		out = append(out, d.Slug+": "+d.Body)
	}
	ix.Close()
	slices.Sort(out)
	return out
}

// TestCheckThenRefresh: the refresh after a full check uses the stamps the
// check took while the cache is the one it checked, and stats again when
// another process rewrote the cache meanwhile; either way an edit made
// after the check is found by the next check, never lost.
func TestCheckThenRefresh(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	tests := []struct {
		name string
		// between runs after the check and before the refresh under the lock.
		between func(t *testing.T, s Store, edit func(slug, body string))
		want    []string // after the refresh
		next    []string // after the next check and refresh; nil: the refresh left it fresh
	}{
		{
			name:    "nothing between",
			between: func(*testing.T, Store, func(string, string)) {},
			want:    []string{"a: edited a", "b: body b", "c: body c"},
		},
		{
			name:    "a file edited after the check waits for the next check",
			between: func(_ *testing.T, _ Store, edit func(string, string)) { edit("b", "edited b after") },
			want:    []string{"a: edited a", "b: body b", "c: body c"},
			next:    []string{"a: edited a", "b: edited b after", "c: body c"},
		},
		{
			name: "the cache rewritten meanwhile: stat again",
			between: func(t *testing.T, s Store, edit func(string, string)) {
				edit("c", "edited c by the other")
				ix, err := s.Refresh(nil) // another process's refresh
				if err != nil {
					t.Fatal(err)
				}
				ix.Close()
				edit("b", "edited b after")
			},
			want: []string{"a: edited a", "b: edited b after", "c: edited c by the other"},
		},
	}
	for _, tt := range tests {
		for _, delta := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/delta=%v", tt.name, delta), func(t *testing.T) {
				useDeltas(t, delta)
				checkThenRefresh(t, tt.between, tt.want, tt.next)
			})
		}
	}
}

// useDeltas makes every refresh write a delta (on) or the whole cache.
func useDeltas(t *testing.T, on bool) {
	saved := deltaLimit
	t.Cleanup(func() { deltaLimit = saved })
	deltaLimit = func(int) int {
		if on {
			return math.MaxInt
		}
		return 0
	}
}

func checkThenRefresh(t *testing.T, between func(*testing.T, Store, func(string, string)), want, next []string) {
	root := t.TempDir()
	store := filepath.Join(root, "store")
	if err := os.MkdirAll(store, 0o755); err != nil {
		t.Fatal(err)
	}
	s := Store{Place: locate.Place{CommonDir: filepath.Join(root, "git"), Store: store}, Files: dirFiles(store), Logf: t.Logf}
	edit := func(slug, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(store, slug+".md"), []byte(memory("Note "+slug, body)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, slug := range []string{"a", "b", "c"} {
		edit(slug, "body "+slug)
	}
	if ix, stale := s.Check(); ix != nil || stale != nil {
		t.Fatalf("no cache yet: Check gave %v, %v", ix, stale)
	}
	ix, err := s.Refresh(nil)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix, stale := s.Check()
	if ix == nil || stale != nil {
		t.Fatalf("a fresh cache: Check gave %v, %v", ix, stale)
	}
	ix.Close()

	edit("a", "edited a")
	ix, stale = s.Check()
	if ix != nil || stale == nil || stale.dirs || len(stale.files) != 1 {
		t.Fatalf("one file edited: Check gave %v, %+v", ix, stale)
	}
	between(t, s, edit)
	ix, err = s.Refresh(stale)
	if err != nil {
		t.Fatal(err)
	}
	if got := bodies(t, ix); !slices.Equal(got, want) {
		t.Errorf("after the refresh %q, want %q", got, want)
	}
	ix, stale = s.Check()
	if next == nil {
		if ix == nil {
			t.Fatalf("the refresh left the cache stale: %+v", stale)
		}
		ix.Close()
		return
	}
	if ix != nil {
		t.Fatal("an edit after the check was not seen by the next check")
	}
	if ix, err = s.Refresh(stale); err != nil {
		t.Fatal(err)
	}
	if got := bodies(t, ix); !slices.Equal(got, next) {
		t.Errorf("after the next refresh %q, want %q", got, next)
	}
}

// TestRefreshDelta: edits of every kind, refreshed with deltas beside the
// cache, leave what a rebuild from the files holds; an edit in place or an
// added file is written as a delta, a deleted file rewrites the cache whole
// and removes the delta.
func TestRefreshDelta(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	useDeltas(t, true)
	root := t.TempDir()
	store := filepath.Join(root, "store")
	if err := os.MkdirAll(filepath.Join(store, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Store{Place: locate.Place{CommonDir: filepath.Join(root, "git"), Store: store}, Files: dirFiles(store), Logf: t.Logf}
	put := func(rel, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(store, rel), []byte(memory("Note "+rel, body)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"a.md", "b.md", "sub/c.md"} {
		put(rel, "body of "+rel)
	}
	ix, err := s.Rebuild()
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	steps := []struct {
		name  string
		do    func()
		delta bool // a delta lies beside the cache after
	}{
		{"edited in place", func() { put("a.md", "edited once, with zyzzyva") }, true},
		{"edited again", func() { put("a.md", "edited twice") }, true},
		{"another edited", func() { put("sub/c.md", "c edited") }, true},
		{"added", func() { put("d.md", "a new one") }, true},
		{"added in a subdirectory", func() { put("sub/e.md", "another new one") }, true},
		{"deleted", func() { os.Remove(filepath.Join(store, "b.md")) }, false},
		{"edited after the delete", func() { put("d.md", "d edited") }, true},
		{"broken", func() { os.WriteFile(filepath.Join(store, "a.md"), []byte("---\nname: [unclosed\n---\nbody\n"), 0o644) }, true},
	}
	for _, st := range steps {
		st.do()
		ix, stale := s.Check()
		if ix != nil || stale == nil {
			t.Fatalf("%s: Check saw no change", st.name)
		}
		if ix, err = s.Refresh(stale); err != nil {
			t.Fatal(err)
		}
		got := bodies(t, ix)
		_, err := os.Stat(search.DeltaPath(s.Place.IndexPath()))
		if exists := err == nil; exists != st.delta {
			t.Errorf("%s: a delta beside the cache: %v, want %v", st.name, exists, st.delta)
		}
		if ix, stale = s.Check(); ix == nil {
			t.Fatalf("%s: the refreshed cache is not fresh (%+v)", st.name, stale)
		}
		ix.Close()
		// A rebuild elsewhere, from the same files.
		other := s
		other.Place.CommonDir = filepath.Join(t.TempDir(), "git")
		rebuilt, err := other.Rebuild()
		if err != nil {
			t.Fatal(err)
		}
		if want := bodies(t, rebuilt); !slices.Equal(got, want) {
			t.Errorf("%s: refreshed %q\nrebuilt %q", st.name, got, want)
		}
	}
}

// TestRefreshWritten: a writer's refresh parses the files it wrote, and
// whatever else changed is either folded in (a listing that does not agree
// sends it to the full refresh) or left for the next check, never lost and
// never blessed as fresh.
func TestRefreshWritten(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	tests := []struct {
		name    string
		change  func(write, remove func(slug, body string)) // what happens before the refresh
		written []string                                    // what the writer says it wrote
		want    []string                                    // after the refresh
		fresh   bool                                        // whether the cache is fresh after it
	}{
		{
			name:    "a new memory",
			change:  func(write, _ func(string, string)) { write("d", "body d") },
			written: []string{"d.md"},
			want:    []string{"a: body a", "b: body b", "c: body c", "d: body d"},
			fresh:   true,
		},
		{
			name:    "an edit in place",
			change:  func(write, _ func(string, string)) { write("b", "edited b") },
			written: []string{"b.md"},
			want:    []string{"a: body a", "b: edited b", "c: body c"},
			fresh:   true,
		},
		{
			name:    "a memory removed",
			change:  func(_, remove func(string, string)) { remove("c", "") },
			written: []string{"c.md"},
			want:    []string{"a: body a", "b: body b"},
			fresh:   true,
		},
		{
			name: "a hand edit in place beside the write waits for the next check",
			change: func(write, _ func(string, string)) {
				write("a", "edited a by hand")
				write("d", "body d")
			},
			written: []string{"d.md"},
			want:    []string{"a: body a", "b: body b", "c: body c", "d: body d"},
			fresh:   false,
		},
		{
			name: "a file added by hand beside the write: the full refresh",
			change: func(write, _ func(string, string)) {
				write("e", "body e by hand")
				write("d", "body d")
			},
			written: []string{"d.md"},
			want:    []string{"a: body a", "b: body b", "c: body c", "d: body d", "e: body e by hand"},
			fresh:   true,
		},
		{
			name: "a file removed by hand beside the write: the full refresh",
			change: func(write, remove func(string, string)) {
				remove("a", "")
				write("d", "body d")
			},
			written: []string{"d.md"},
			want:    []string{"b: body b", "c: body c", "d: body d"},
			fresh:   true,
		},
		{
			name: "a new directory: the full refresh",
			change: func(write, _ func(string, string)) {
				write("sub/f", "body f")
			},
			written: []string{"sub/f.md"},
			want:    []string{"a: body a", "b: body b", "c: body c", "f: body f"},
			fresh:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			store := filepath.Join(root, "store")
			s := Store{Place: locate.Place{CommonDir: filepath.Join(root, "git"), Store: store}, Files: dirFiles(store), Logf: t.Logf}
			write := func(slug, body string) {
				t.Helper()
				p := filepath.Join(store, filepath.FromSlash(slug)+".md")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(memory("Note "+slug, body)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			remove := func(slug, _ string) {
				if err := os.Remove(filepath.Join(store, slug+".md")); err != nil {
					t.Fatal(err)
				}
			}
			for _, slug := range []string{"a", "b", "c"} {
				write(slug, "body "+slug)
			}
			ix, err := s.Rebuild()
			if err != nil {
				t.Fatal(err)
			}
			ix.Close()
			tt.change(write, remove)
			ix, err = s.RefreshWritten(tt.written)
			if err != nil {
				t.Fatal(err)
			}
			if got := bodies(t, ix); !slices.Equal(got, tt.want) {
				t.Errorf("after the refresh %q, want %q", got, tt.want)
			}
			ix, stale := s.Check()
			if ix != nil {
				ix.Close()
			}
			if fresh := ix != nil; fresh != tt.fresh {
				t.Fatalf("fresh after the refresh = %v, want %v (%+v)", fresh, tt.fresh, stale)
			}
			if !tt.fresh {
				// What the writer's refresh left is found by the next check.
				ix, err := s.Refresh(stale)
				if err != nil {
					t.Fatal(err)
				}
				rebuilt, err := s.Rebuild()
				if err != nil {
					t.Fatal(err)
				}
				if got, want := bodies(t, ix), bodies(t, rebuilt); !slices.Equal(got, want) {
					t.Errorf("after the next check %q, want %q", got, want)
				}
			}
		})
	}
}

// TestRefreshDirOnly: a directory that moved while no memory did (Claude
// Code creating its empty auto-memory directory at a session's start, a
// file that is no memory added to the store) is stamped anew by the
// refresh, so the next check finds the cache fresh instead of asking for
// the same refresh at every prompt.
func TestRefreshDirOnly(t *testing.T) {
	tests := []struct {
		name string
		move func(t *testing.T, store, personal string)
	}{
		{"the personal store created empty", func(t *testing.T, _, personal string) {
			if err := os.MkdirAll(personal, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file that is no memory added", func(t *testing.T, store, _ string) {
			if err := os.WriteFile(filepath.Join(store, "notes.txt"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		for _, delta := range []bool{false, true} {
			for _, marked := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/delta=%v/marked=%v", tt.name, delta, marked), func(t *testing.T) {
					t.Setenv("HOME", t.TempDir())
					claude := t.TempDir()
					t.Setenv("CLAUDE_CONFIG_DIR", claude)
					useDeltas(t, delta)
					root := t.TempDir()
					store := filepath.Join(root, "store")
					if err := os.MkdirAll(store, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(store, "a.md"), []byte(memory("Note a", "body a")), 0o644); err != nil {
						t.Fatal(err)
					}
					place := locate.Place{CommonDir: filepath.Join(root, "git"), Store: store, WorkTree: root}
					s := Store{Place: place, Files: dirFiles(store), Logf: t.Logf}
					ix, err := s.Refresh(nil)
					if err != nil {
						t.Fatal(err)
					}
					ix.Close()
					personal, _ := locate.PersonalStore(root)
					tt.move(t, store, personal)
					refresh := s.Refresh
					if marked {
						refresh = func(*Stale) (*search.Index, error) { return s.RefreshMarked() }
					}
					_, stale := s.Check()
					if stale == nil {
						t.Fatal("the moved directory was not seen")
					}
					if ix, err = refresh(stale); err != nil {
						t.Fatal(err)
					}
					if got := bodies(t, ix); !slices.Equal(got, []string{"a: body a"}) {
						t.Errorf("after the refresh %q", got)
					}
					ix, stale = s.Check()
					if ix == nil {
						t.Fatalf("the refresh left the cache stale: %+v", stale)
					}
					ix.Close()
				})
			}
		}
	}
}
