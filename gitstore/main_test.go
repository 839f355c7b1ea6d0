package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/gittest"
	"github.com/mem-dev/mem/internal/locate"
)

// TestMain isolates git from this machine's configuration and doubles as the
// helper process of TestApplyProcesses: with MEM_GITSTORE_HELPER set, the test
// binary locks the store, applies one change and exits.
func TestMain(m *testing.M) {
	if os.Getenv("MEM_GITSTORE_HELPER") != "" {
		if err := helper(); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	gittest.Main(m, "[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n")
}

// helper waits for the start file, then locks the store and applies one file.
func helper() error {
	start := os.Getenv("MEM_GITSTORE_START")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(start); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no start signal")
		}
	}
	s, err := openAt(os.Getenv("MEM_GITSTORE_ROOT"))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	unlock, err := s.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	slug := os.Getenv("MEM_GITSTORE_HELPER")
	res, err := s.Apply(ctx, []Change{{Path: slug + ".md", Data: []byte("# " + slug + "\n")}}, CommitInfo{Action: "store", Slug: slug})
	if err != nil {
		return err
	}
	if !res.Committed {
		return fmt.Errorf("not committed: %s", res.Skipped)
	}
	return nil
}

// run runs git in dir and returns its trimmed output, failing the test on error.
func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := runGitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func runGitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// newRepo makes a git repository with one commit (README) and returns the
// store at .claude/agent-memory in it, not created yet.
func newRepo(t testing.TB) (repo string, s *Store) {
	t.Helper()
	repo = t.TempDir()
	run(t, repo, "init", "-q")
	write(t, filepath.Join(repo, "README"), "hello\n")
	run(t, repo, "add", "README")
	run(t, repo, "commit", "-q", "-m", "initial")
	s, err := openAt(filepath.Join(repo, ".claude", "agent-memory"))
	if err != nil {
		t.Fatal(err)
	}
	return repo, s
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// apply locks the store and applies changes, failing the test on error.
func apply(t testing.TB, s *Store, info CommitInfo, changes ...Change) Result {
	t.Helper()
	ctx := context.Background()
	unlock, err := s.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	res, err := s.Apply(ctx, changes, info)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func store(slug, content string) (CommitInfo, Change) {
	return CommitInfo{Action: "store", Slug: slug}, Change{Path: slug + ".md", Data: []byte(content)}
}

// checkClean asserts fsck passes and git status shows nothing for the store.
func checkClean(t testing.TB, repo string) {
	t.Helper()
	run(t, repo, "fsck", "--strict", "--no-progress")
	if st := run(t, repo, "status", "--porcelain", "--", ".claude"); st != "" {
		t.Errorf("git status for the store is not clean:\n%s", st)
	}
}

// noIndexCopies fails the test when gitDir still holds a copy of the index
// that a commit made (and its lock): each one ends with its Apply. (A mem
// killed mid-commit leaves one, which the next write removes, unless the
// killed mem's git update-index, still running, writes it again after that.)
func noIndexCopies(t testing.TB, gitDir string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(gitDir, "mem-index.*")); len(left) > 0 {
		t.Errorf("copies of the index left: %q", left)
	}
}

// openAt opens the store at root as mem does: locate finds its place. With
// MEM_GITSTORE_BACKEND=cli the store uses the git command for its objects
// (TestCLIBackend).
func openAt(root string) (*Store, error) {
	p, err := locate.Find(root, root)
	if err != nil {
		return nil, err
	}
	s, err := Open(p)
	if err == nil {
		s.backend = os.Getenv("MEM_GITSTORE_BACKEND")
	}
	return s, err
}

// initAt inits the store at root as mem does.
func initAt(root string) (*Store, []string, error) {
	p, err := locate.Find(root, root)
	if err != nil {
		return nil, nil, err
	}
	return Init(p)
}
