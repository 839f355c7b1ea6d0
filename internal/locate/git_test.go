package locate

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/gittest"
)

func TestMain(m *testing.M) {
	gittest.Main(m, "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[protocol \"file\"]\n\tallow = always\n")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// revParse is git's answer for dir under env: the work tree, git dir and
// common git dir, canonical; ok is false outside any repository.
func revParse(t *testing.T, dir string, env []string) (p Place, ok bool) {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "--show-toplevel", "--git-dir", "--git-common-dir")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		return Place{}, false
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("git rev-parse in %s: %q", dir, out)
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return Canonical(p)
	}
	return Place{WorkTree: abs(lines[0]), GitDir: abs(lines[1]), CommonDir: abs(lines[2])}, true
}

// Find agrees with git rev-parse on where the repository is, from any
// directory and under git's environment variables, with every path
// canonical: the one answer every caller of locate gets (issue 19, item 1).
func TestFindAgreesWithGit(t *testing.T) {
	base := Canonical(t.TempDir())
	t.Setenv("MEM_STORE", "")
	repo := filepath.Join(base, "repo")
	git(t, base, "init", "-q", "repo")
	must(t, os.MkdirAll(filepath.Join(repo, "sub", "deep"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, "README"), []byte("x\n"), 0o644))
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	git(t, repo, "worktree", "add", "-q", filepath.Join(base, "wt"))
	must(t, os.Symlink(repo, filepath.Join(base, "link")))
	must(t, os.Symlink(filepath.Join(base, "wt"), filepath.Join(base, "wtlink")))
	git(t, base, "init", "-q", "lib")
	git(t, filepath.Join(base, "lib"), "commit", "-q", "--allow-empty", "-m", "lib")
	git(t, repo, "submodule", "add", "-q", "../lib", "vendor/lib")
	git(t, base, "init", "-q", "other")
	must(t, os.MkdirAll(filepath.Join(base, "plain"), 0o755))
	// A repository whose git dir is apart from its work tree, as dotfiles
	// setups keep it (GIT_DIR and GIT_WORK_TREE).
	git(t, base, "init", "-q", "--bare", "dot.git")
	must(t, os.MkdirAll(filepath.Join(base, "home", "cfg"), 0o755))

	for _, c := range []struct {
		name, dir, store string
		env              []string
		wantStore        string // "" for the default store of the work tree
	}{
		{name: "top", dir: repo},
		{name: "subdirectory", dir: filepath.Join(repo, "sub", "deep")},
		{name: "symlinked path", dir: filepath.Join(base, "link", "sub")},
		{name: "linked worktree", dir: filepath.Join(base, "wt")},
		{name: "linked worktree through a symlink", dir: filepath.Join(base, "wtlink")},
		{name: "submodule", dir: filepath.Join(repo, "vendor", "lib")},
		{name: "store in another repository", dir: repo, store: filepath.Join(base, "other", "notes"), wantStore: filepath.Join(base, "other", "notes")},
		{name: "store through a symlink", dir: repo, store: filepath.Join(base, "link", "notes"), wantStore: filepath.Join(repo, "notes")},
		{name: "store outside any repository", dir: repo, store: filepath.Join(base, "plain", "notes"), wantStore: filepath.Join(base, "plain", "notes")},
		{name: "relative store", dir: filepath.Join(repo, "sub"), store: "notes", wantStore: filepath.Join(repo, "sub", "notes")},
		{name: "GIT_DIR and GIT_WORK_TREE", dir: filepath.Join(base, "home", "cfg"),
			env: []string{"GIT_DIR=" + filepath.Join(base, "dot.git"), "GIT_WORK_TREE=" + filepath.Join(base, "home")}},
		{name: "GIT_DIR alone, at the top", dir: repo, env: []string{"GIT_DIR=.git"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			got, err := Find(c.dir, c.store)
			if err != nil {
				t.Fatal(err)
			}
			gitDir := c.dir
			if c.store != "" {
				gitDir = nearestExisting(got.Store)
			}
			want, inRepo := revParse(t, gitDir, nil)
			if !inRepo {
				want = Place{}
			}
			want.Store = c.wantStore
			if c.wantStore == "" {
				want.Store = filepath.Join(want.WorkTree, ".claude", "agent-memory")
			}
			if got != want {
				t.Errorf("Find(%q, %q)\n got %+v\nwant %+v (git rev-parse)", c.dir, c.store, got, want)
			}
		})
	}
}

// A store in the default place that is a symlink out of its work tree, to
// another repository or to any directory, is refused: mem would read,
// write and commit there (issue 20, item 4). One that stays inside is
// taken, by its resolved path.
func TestFindSymlinkedStore(t *testing.T) {
	base := Canonical(t.TempDir())
	t.Setenv("MEM_STORE", "")
	for _, name := range []string{"repo", "other"} {
		git(t, base, "init", "-q", name)
	}
	repo := filepath.Join(base, "repo")
	must(t, os.MkdirAll(filepath.Join(repo, ".claude"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "other", "notes"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "plain"), 0o755))
	must(t, os.MkdirAll(filepath.Join(repo, "docs", "memory"), 0o755))
	link := filepath.Join(repo, ".claude", "agent-memory")
	for _, c := range []struct {
		target, want string
	}{
		{"../../other/notes", ""},
		{filepath.Join(base, "plain"), ""},
		{"../docs/memory", filepath.Join(repo, "docs", "memory")},
	} {
		os.Remove(link)
		must(t, os.Symlink(c.target, link))
		p, err := Find(repo, "")
		if c.want == "" {
			if !errors.Is(err, ErrEscape) || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("store linked to %s: %+v, %v; want an escape refused", c.target, p, err)
			}
			continue
		}
		if err != nil || p.Store != c.want {
			t.Errorf("store linked to %s: %+v, %v; want store %s", c.target, p, err, c.want)
		}
	}
	// .claude itself linked out is the same escape.
	os.Remove(link)
	must(t, os.RemoveAll(filepath.Join(repo, ".claude")))
	must(t, os.Symlink(filepath.Join(base, "plain"), filepath.Join(repo, ".claude")))
	if _, err := Find(repo, ""); !errors.Is(err, ErrEscape) {
		t.Errorf(".claude linked out: %v", err)
	}
}
