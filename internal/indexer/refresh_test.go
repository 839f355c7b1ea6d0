package indexer

import (
	"io/fs"
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
		t.Run(tt.name, func(t *testing.T) {
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
			tt.between(t, s, edit)
			ix, err = s.Refresh(stale)
			if err != nil {
				t.Fatal(err)
			}
			if got := bodies(t, ix); !slices.Equal(got, tt.want) {
				t.Errorf("after the refresh %q, want %q", got, tt.want)
			}
			ix, stale = s.Check()
			if tt.next == nil {
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
			if got := bodies(t, ix); !slices.Equal(got, tt.next) {
				t.Errorf("after the next refresh %q, want %q", got, tt.next)
			}
		})
	}
}
