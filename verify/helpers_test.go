package verify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
)

// needShared skips t when the shared evaluation data is absent, and
// returns its directory.
func needShared(t testing.TB) string {
	t.Helper()
	for _, sub := range []string{"store", "codebase", "store-labels.json"} {
		shareddata.Need(t, "eval", sub)
	}
	return shareddata.Path("eval")
}

var sig = &object.Signature{Name: "Test", Email: "test@example.com", When: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}

// gitInit makes dir a git repository with everything in it committed.
func gitInit(t testing.TB, dir string) (*git.Repository, plumbing.Hash) {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	h, err := wt.Commit("initial import", &git.CommitOptions{Author: sig, AllowEmptyCommits: true})
	if err != nil {
		t.Fatal(err)
	}
	return r, h
}

// fixture is the eval codebase as a git repository with the eval store at
// .claude/agent-memory/, and the store's memories by slug (MEMORY.md left
// out: it is an index).
func fixture(t testing.TB) (string, map[string]*mdparse.Memory) {
	t.Helper()
	eval := needShared(t)
	dir := t.TempDir()
	store := filepath.Join(dir, ".claude", "agent-memory")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(eval, "codebase"))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(store, os.DirFS(filepath.Join(eval, "store"))); err != nil {
		t.Fatal(err)
	}
	gitInit(t, dir)
	mems := map[string]*mdparse.Memory{}
	files, err := filepath.Glob(filepath.Join(store, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f) == "MEMORY.md" {
			continue
		}
		mems[filepath.Base(f[:len(f)-len(".md")])] = readMemory(t, f)
	}
	return dir, mems
}

// readMemory reads and parses the memory file at path.
func readMemory(t testing.TB, path string) *mdparse.Memory {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mdparse.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
