package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/locate"
)

func TestOpen(t *testing.T) {
	repo, s := newRepo(t)
	repo, _ = filepath.EvalSymlinks(repo)
	if want := filepath.Join(repo, ".claude", "agent-memory"); s.Root != want {
		t.Errorf("Root = %q, want %q", s.Root, want)
	}
	if s.WorkTree != repo || s.GitDir != filepath.Join(repo, ".git") || s.CommonDir != s.GitDir {
		t.Errorf("got WorkTree %q GitDir %q CommonDir %q", s.WorkTree, s.GitDir, s.CommonDir)
	}
	if got := s.GitPath("a/b.md"); got != ".claude/agent-memory/a/b.md" {
		t.Errorf("GitPath = %q", got)
	}

	t.Run("symlinked path", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(repo, link); err != nil {
			t.Fatal(err)
		}
		s2, err := openAt(filepath.Join(link, "mem"))
		if err != nil {
			t.Fatal(err)
		}
		if s2.Root != filepath.Join(repo, "mem") || s2.WorkTree != repo {
			t.Errorf("Root %q WorkTree %q", s2.Root, s2.WorkTree)
		}
	})
	t.Run("no repository", func(t *testing.T) {
		dir, _ := filepath.EvalSymlinks(t.TempDir())
		s2, err := openAt(filepath.Join(dir, "x", "y"))
		if err != nil {
			t.Fatal(err)
		}
		if s2.WorkTree != "" || s2.GitDir != "" || s2.StateDir() != filepath.Join(dir, "x", "y", ".mem") {
			t.Errorf("%+v", s2)
		}
	})
	t.Run("linked worktree", func(t *testing.T) {
		wt := filepath.Join(t.TempDir(), "wt")
		run(t, repo, "worktree", "add", "-q", wt)
		wt, _ = filepath.EvalSymlinks(wt)
		s2, err := openAt(filepath.Join(wt, "mem"))
		if err != nil {
			t.Fatal(err)
		}
		if s2.WorkTree != wt || s2.CommonDir != filepath.Join(repo, ".git") || s2.GitDir == s2.CommonDir {
			t.Errorf("%+v", s2)
		}
	})
	t.Run("inside .git", func(t *testing.T) {
		if _, err := openAt(filepath.Join(repo, ".git", "mem")); err == nil {
			t.Error("opened a store inside .git")
		}
	})
}

func TestInit(t *testing.T) {
	t.Run("no repository", func(t *testing.T) {
		dir, _ := filepath.EvalSymlinks(t.TempDir())
		root := filepath.Join(dir, "notes")
		s, created, err := initAt(root)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{root, filepath.Join(root, ".git")}; !reflect.DeepEqual(created, want) {
			t.Errorf("created %q, want %q", created, want)
		}
		if s.WorkTree != root {
			t.Errorf("WorkTree %q", s.WorkTree)
		}
		if _, created, err = initAt(root); err != nil || len(created) != 0 {
			t.Errorf("second Init: created %q, err %v", created, err)
		}
	})
	t.Run("in a repository", func(t *testing.T) {
		_, s := newRepo(t)
		_, created, err := initAt(s.Root)
		if err != nil {
			t.Fatal(err)
		}
		if len(created) != 1 || created[0] != s.Root {
			t.Errorf("created %q", created)
		}
		if _, err := os.Stat(filepath.Join(s.Root, ".git")); err == nil {
			t.Error("made a nested repository")
		}
	})
}

// escapeFixture is a store with an outside directory next to it, and symlinks
// from the store into it.
func escapeFixture(t testing.TB) (s *Store, outside string) {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(dir, "store")
	outside = filepath.Join(dir, "outside")
	write(t, filepath.Join(outside, "secret.md"), "secret\n")
	write(t, filepath.Join(root, "in.md"), "in\n")
	write(t, filepath.Join(root, "sub", "deep.md"), "deep\n")
	for link, target := range map[string]string{
		"outdir":      outside,
		"outfile.md":  filepath.Join(outside, "secret.md"),
		"relout.md":   "../outside/secret.md",
		"dangling.md": filepath.Join(outside, "nothing.md"),
		"alias.md":    "in.md",
		"subdir":      "sub",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := openAt(root)
	if err != nil {
		t.Fatal(err)
	}
	return s, outside
}

func TestConfinement(t *testing.T) {
	s, outside := escapeFixture(t)
	for _, tc := range []struct {
		path   string
		escape bool // refused with ErrEscape
		ok     bool // readable
	}{
		{path: "in.md", ok: true},
		{path: "sub/deep.md", ok: true},
		{path: "sub/../in.md", ok: true},
		{path: "alias.md", ok: true},
		{path: "subdir/deep.md", ok: true},
		{path: "../x.md", escape: true},
		{path: "sub/../../x.md", escape: true},
		{path: "..", escape: true},
		{path: "/etc/passwd", escape: true},
		{path: filepath.Join(outside, "secret.md"), escape: true},
		{path: "outdir/secret.md", escape: true},
		{path: "outdir/new.md", escape: true},
		{path: "outfile.md", escape: true},
		{path: "relout.md", escape: true},
		{path: "dangling.md", escape: true},
		{path: ""},
		{path: "."},
		{path: ".git/config"},
		{path: "a\x00b.md"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, err := s.ReadFile(tc.path)
			if tc.ok {
				if err != nil || !s.Exists(tc.path) {
					t.Fatalf("ReadFile: %v; Exists %v", err, s.Exists(tc.path))
				}
				return
			}
			if err == nil || s.Exists(tc.path) {
				t.Fatalf("ReadFile err = %v; Exists %v", err, s.Exists(tc.path))
			}
			if got := errors.Is(err, ErrEscape); got != tc.escape {
				t.Errorf("ReadFile: errors.Is(%v, ErrEscape) = %v, want %v", err, got, tc.escape)
			}
			if tc.escape && !strings.Contains(err.Error(), "escapes the store") {
				t.Errorf("error %q does not say the path escapes", err)
			}
			_, err = s.Apply(context.Background(), []Change{{Path: tc.path, Data: []byte("pwned\n")}}, CommitInfo{Action: "store"})
			if err == nil {
				t.Fatal("Apply wrote it")
			}
			if got := errors.Is(err, ErrEscape); got != tc.escape {
				t.Errorf("Apply: errors.Is(%v, ErrEscape) = %v, want %v", err, got, tc.escape)
			}
		})
	}
	if got := read(t, filepath.Join(outside, "secret.md")); got != "secret\n" {
		t.Errorf("outside file changed: %q", got)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("outside directory has %d entries", len(entries))
	}
}

func TestApplyRefusesEscapeBeforeWriting(t *testing.T) {
	s, _ := escapeFixture(t)
	_, err := s.Apply(context.Background(), []Change{
		{Path: "first.md", Data: []byte("x")},
		{Path: "../second.md", Data: []byte("x")},
	}, CommitInfo{Action: "store"})
	if !errors.Is(err, ErrEscape) {
		t.Fatalf("err = %v", err)
	}
	if s.Exists("first.md") {
		t.Error("wrote first.md of a refused batch")
	}
}

func TestWalk(t *testing.T) {
	s, _ := escapeFixture(t)
	for _, p := range []string{
		"MEMORY.md",
		"agent/a.md",
		"agent/nested/b.md",
		"notes.txt",
		".hidden/c.md",
		"agent/.d.md",
		".e.md.tmp-123", // a crash's leftover
		"agent/.f.md.tmp-abc",
	} {
		write(t, filepath.Join(s.Root, p), "x\n")
	}
	got, err := s.Walk()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"MEMORY.md", "agent/a.md", "agent/nested/b.md", "alias.md", "in.md", "sub/deep.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Walk = %q\nwant %q", got, want)
	}

	s.Root = filepath.Join(s.Root, "not-yet")
	if got, err := s.Walk(); err != nil || got != nil {
		t.Errorf("Walk of a missing store = %q, %v", got, err)
	}
}

func TestWriteLeavesNoTemp(t *testing.T) {
	s, _ := escapeFixture(t)
	if _, err := s.Apply(context.Background(), []Change{{Path: "new/x.md", Data: []byte("x\n")}}, CommitInfo{Action: "store"}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(s.Root, "new"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "x.md" {
		t.Errorf("new/ holds %v", entries)
	}
	// Rewriting keeps the mode.
	if err := os.Chmod(filepath.Join(s.Root, "new", "x.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(context.Background(), []Change{{Path: "new/x.md", Data: []byte("y\n")}}, CommitInfo{Action: "store"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(s.Root, "new", "x.md"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after rewrite: %v, %v", fi.Mode(), err)
	}
}

// FuzzConfinement checks that whatever path is accepted resolves under Root,
// and that nothing outside is ever written.
func FuzzConfinement(f *testing.F) {
	for _, p := range []string{
		"in.md", "a/b.md", "../x.md", "/etc/passwd", "outdir/x.md", "outfile.md", "relout.md",
		"dangling.md", "subdir/../../x.md", "sub/./deep.md", "a//b.md", "..", ".", "", "a\x00.md",
		`..\x.md`, "sub/../outdir/x.md", ".git/x", "alias.md",
	} {
		f.Add(p)
	}
	s, outside := escapeFixture(f)
	f.Fuzz(func(t *testing.T, rel string) {
		if _, err := s.ReadFile(rel); err == nil {
			resolved, err := filepath.EvalSymlinks(filepath.Join(s.Root, rel))
			if err != nil || !locate.Within(s.Root, resolved) {
				t.Fatalf("read %q, which resolves to %q (%v)", rel, resolved, err)
			}
		}
		_, err := s.Apply(context.Background(), []Change{{Path: rel, Data: []byte("fuzz\n")}}, CommitInfo{Action: "store"})
		if err == nil {
			resolved, err := filepath.EvalSymlinks(filepath.Join(s.Root, rel))
			if err != nil || !locate.Within(s.Root, resolved) {
				t.Fatalf("wrote %q, which resolves to %q (%v)", rel, resolved, err)
			}
		}
		entries, _ := os.ReadDir(outside)
		if len(entries) != 1 || read(t, filepath.Join(outside, "secret.md")) != "secret\n" {
			t.Fatalf("after %q the outside directory changed", rel)
		}
	})
}
