package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestApply(t *testing.T) {
	repo, s := newRepo(t)
	before, readsBefore := gitSpawns.Load(), indexReads.Load()
	info, ch := store("vat-rounding", "VAT is rounded per line.\n")
	info.Body = "Stored from a session."
	info.Trailers = []Trailer{{"Mem-Confidence", "0.82"}, {"Mem-Reason", "two\nlines"}}
	res := apply(t, s, info, ch)
	spawns := gitSpawns.Load() - before
	// In process, the index (which holds the whole project) is read twice:
	// before anything is written, for its states, and once git has staged
	// the paths, for their entries; settle finds it the file it installed.
	if reads := indexReads.Load() - readsBefore; s.backend == "" && reads > 2 {
		t.Errorf("Apply read the index %d times, want at most 2", reads)
	}
	if !res.Committed || res.Skipped != "" || res.Warning != "" {
		t.Fatalf("%+v", res)
	}
	// In process, a commit takes two git processes: update-index for the
	// user's index and update-ref for the branch (issue 19, item 7); the
	// git command also reads the index's flags (ls-files) and the staged
	// blobs, which are checked for conflict markers (issue 36).
	if max := map[string]int64{"cli": 11, "": 2}[s.backend]; spawns > max {
		t.Errorf("Apply spawned git %d times, want at most %d", spawns, max)
	}
	if head := run(t, repo, "rev-parse", "HEAD"); head != res.Commit {
		t.Errorf("HEAD %s, Result.Commit %s", head, res.Commit)
	}
	wantMsg := "mem: store vat-rounding\n\nStored from a session.\n\nMem-Action: store\nMem-Confidence: 0.82\nMem-Reason: two lines"
	if got := run(t, repo, "log", "-1", "--format=%B"); got != wantMsg {
		t.Errorf("message:\n%s\nwant:\n%s", got, wantMsg)
	}
	if got := run(t, repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>"); got != "Test User <test@example.com>|Test User <test@example.com>" {
		t.Errorf("identity %q", got)
	}
	if got := run(t, repo, "reflog", "-1", "--format=%gs", "main"); got != "mem: store vat-rounding" {
		t.Errorf("branch reflog %q", got)
	}
	if got := run(t, repo, "show", "--name-only", "--format=", "HEAD"); got != ".claude/agent-memory/vat-rounding.md" {
		t.Errorf("commit touches %q", got)
	}
	if got := read(t, filepath.Join(s.Root, "vat-rounding.md")); got != "VAT is rounded per line.\n" {
		t.Errorf("file %q", got)
	}
	checkClean(t, repo)
	noIndexCopies(t, filepath.Join(repo, ".git"))

	// Several changes, a deletion among them, make one commit.
	res = apply(t, s, CommitInfo{Action: "supersede", Slug: "vat-v2"},
		Change{Path: "vat-rounding.md", Delete: true},
		Change{Path: "agent/vat-v2.md", Data: []byte("v2\n")})
	if !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := run(t, repo, "show", "--name-status", "--format=", "HEAD"); got != "A\t.claude/agent-memory/agent/vat-v2.md\nD\t.claude/agent-memory/vat-rounding.md" {
		t.Errorf("commit changes %q", got)
	}
	if s.Exists("vat-rounding.md") {
		t.Error("deleted file still exists")
	}
	checkClean(t, repo)

	// Writing what is already committed makes no commit.
	head := run(t, repo, "rev-parse", "HEAD")
	res = apply(t, s, CommitInfo{Action: "store", Slug: "vat-v2"}, Change{Path: "agent/vat-v2.md", Data: []byte("v2\n")})
	if res.Committed || res.Skipped != SkipNoChange {
		t.Errorf("%+v", res)
	}
	if got := run(t, repo, "rev-parse", "HEAD"); got != head {
		t.Error("HEAD moved")
	}
	if got := run(t, repo, "rev-list", "--count", "HEAD"); got != "3" {
		t.Errorf("%s commits", got)
	}
}

func TestApplyBadInfo(t *testing.T) {
	_, s := newRepo(t)
	for _, info := range []CommitInfo{
		{},
		{Action: "two words"},
		{Action: "store", Trailers: []Trailer{{"Bad Key", "x"}}},
		{Action: "store", Trailers: []Trailer{{"Mem-Action", "forget"}}},
	} {
		if _, err := s.Apply(context.Background(), []Change{{Path: "x.md"}}, info); err == nil {
			t.Errorf("Apply accepted %+v", info)
		}
	}
	if _, err := s.Apply(context.Background(), nil, CommitInfo{Action: "store"}); err == nil {
		t.Error("Apply accepted no changes")
	}
	if _, err := s.Apply(context.Background(), []Change{{Path: "x.md"}, {Path: "./x.md"}}, CommitInfo{Action: "store"}); err == nil {
		t.Error("Apply accepted one path twice")
	}
	if s.Exists("x.md") {
		t.Error("a refused Apply wrote a file")
	}
}

// Check sees every file's content and the message, and its refusal fails
// the whole call before anything is written or committed.
func TestApplyCheck(t *testing.T) {
	repo, s := newRepo(t)
	before := run(t, repo, "rev-list", "--all", "--count")
	var seen []string
	refuse := errors.New("refused")
	s.Check = func(path string, data []byte) error {
		seen = append(seen, fmt.Sprintf("%s=%q", path, firstLine(string(data))))
		if strings.Contains(string(data), "SECRET") {
			return refuse
		}
		return nil
	}
	ch := []Change{{Path: "a.md", Data: []byte("fine\n")}, {Path: "b.md", Data: []byte("SECRET\n")}, {Path: "c.md", Delete: true}}
	if _, err := s.Apply(context.Background(), ch, CommitInfo{Action: "store", Slug: "a"}); err != refuse {
		t.Fatalf("Apply = %v, want the check's error as it is", err)
	}
	if s.Exists("a.md") || s.Exists("b.md") {
		t.Error("a refused Apply wrote a file")
	}
	if out := run(t, repo, "rev-list", "--all", "--count"); out != before {
		t.Errorf("a refused Apply committed: %s commits, %s before", out, before)
	}
	if want := `[.claude/agent-memory/a.md="fine" .claude/agent-memory/b.md="SECRET"]`; fmt.Sprint(seen) != want {
		t.Errorf("Check saw %v, want %s (deletions have no content)", seen, want)
	}
	seen = nil
	if _, err := s.Apply(context.Background(), ch[:1], CommitInfo{Action: "store", Slug: "a", Trailers: []Trailer{{"Mem-Reason", "SECRET"}}}); err != refuse {
		t.Errorf("Apply with a refused message = %v", err)
	}
	if want := `[.claude/agent-memory/a.md="fine" ="mem: store a"]`; fmt.Sprint(seen) != want {
		t.Errorf("Check saw %v, want %s", seen, want)
	}
}

// A commit is built while git stages the files, on the blobs the files
// would make as they are; when the repository's attributes make git stage
// something else (line endings normalised here), the commit is git's.
func TestApplyStagesAsGitDoes(t *testing.T) {
	repo, s := newRepo(t)
	write(t, filepath.Join(repo, ".gitattributes"), "*.md text\n")
	run(t, repo, "add", ".gitattributes")
	run(t, repo, "commit", "-q", "-m", "attributes")
	for _, c := range []struct{ name, data, committed string }{
		{"as-is.md", "one\ntwo\n", "one\ntwo\n"},
		{"crlf.md", "one\r\ntwo\r\n", "one\ntwo\n"},
	} {
		res := apply(t, s, CommitInfo{Action: "store", Slug: c.name}, Change{Path: c.name, Data: []byte(c.data)})
		if !res.Committed {
			t.Fatalf("%s: %+v", c.name, res)
		}
		if got := run(t, repo, "cat-file", "blob", "HEAD:.claude/agent-memory/"+c.name); got+"\n" != c.committed {
			t.Errorf("%s: committed %q, want %q (what git add stages)", c.name, got, c.committed)
		}
		if got := run(t, repo, "show", "--name-only", "--format=", "HEAD"); got != ".claude/agent-memory/"+c.name {
			t.Errorf("%s: commit touches %q", c.name, got)
		}
		checkClean(t, repo)
	}
}

// Meanwhile runs once per Apply that wrote its files, with the files on
// disk, and Apply returns only after it has: mem's search cache, refreshed
// there, is never behind a write that returned.
func TestApplyMeanwhile(t *testing.T) {
	repo, s := newRepo(t)
	var calls int
	var sawFile, returned bool
	info := CommitInfo{Action: "store", Slug: "a", Meanwhile: func() {
		calls++
		sawFile = read(t, filepath.Join(s.Root, "a.md")) == "a\n"
		time.Sleep(50 * time.Millisecond) // longer than git takes to commit here
		returned = true
	}}
	res := apply(t, s, info, Change{Path: "a.md", Data: []byte("a\n")})
	if !res.Committed || calls != 1 || !sawFile || !returned {
		t.Errorf("Apply = %+v; Meanwhile called %d times, saw the file %v, had returned %v; want committed, 1, true, true", res, calls, sawFile, returned)
	}
	if got := run(t, repo, "show", "--name-only", "--format=", "HEAD"); got != ".claude/agent-memory/a.md" {
		t.Errorf("commit touches %q", got)
	}

	// Nothing written, nothing to refresh: a refused write does not call it.
	calls = 0
	s.Check = func(string, []byte) error { return errors.New("refused") }
	if _, err := s.Apply(context.Background(), []Change{{Path: "b.md", Data: []byte("b\n")}}, info); err == nil || calls != 0 {
		t.Errorf("refused Apply: error %v, Meanwhile called %d times; want an error and 0", err, calls)
	}
}

func firstLine(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }

// The user's staged work stays staged and out of the commit; unstaged edits
// stay as they are.
func TestApplyKeepsUserWork(t *testing.T) {
	repo, s := newRepo(t)
	apply(t, s, CommitInfo{Action: "store", Slug: "old"}, Change{Path: "old.md", Data: []byte("old\n")})

	write(t, filepath.Join(repo, "staged.txt"), "staged\n")
	run(t, repo, "add", "staged.txt")
	write(t, filepath.Join(repo, "README"), "edited, not staged\n")
	// A memory the user edited and staged by hand is theirs to commit too.
	write(t, filepath.Join(s.Root, "old.md"), "hand edit\n")
	run(t, repo, "add", ".claude/agent-memory/old.md")
	statusBefore := run(t, repo, "status", "--porcelain")

	info, ch := store("new", "new\n")
	res := apply(t, s, info, ch)
	if !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := run(t, repo, "show", "--name-only", "--format=", "HEAD"); got != ".claude/agent-memory/new.md" {
		t.Errorf("commit touches %q", got)
	}
	if got := run(t, repo, "diff", "--cached", "--name-only"); got != ".claude/agent-memory/old.md\nstaged.txt" {
		t.Errorf("staged after Apply: %q", got)
	}
	if got := run(t, repo, "diff", "--name-only"); got != "README" {
		t.Errorf("unstaged after Apply: %q", got)
	}
	if got := read(t, filepath.Join(repo, "README")); got != "edited, not staged\n" {
		t.Errorf("README = %q", got)
	}
	if got := run(t, repo, "status", "--porcelain"); got != statusBefore {
		t.Errorf("status changed:\n%s\nwas:\n%s", got, statusBefore)
	}
	run(t, repo, "fsck", "--strict", "--no-progress")
}

// conflicted returns a repository whose branches main and other both changed
// README, on main.
func conflicted(t *testing.T) (string, *Store) {
	repo, s := newRepo(t)
	run(t, repo, "checkout", "-q", "-b", "other")
	write(t, filepath.Join(repo, "README"), "other\n")
	run(t, repo, "commit", "-q", "-am", "other")
	run(t, repo, "checkout", "-q", "main")
	write(t, filepath.Join(repo, "README"), "main\n")
	run(t, repo, "commit", "-q", "-am", "main")
	return repo, s
}

func mustFail(t *testing.T, dir string, args ...string) {
	t.Helper()
	if out, err := runGitErr(dir, args...); err == nil {
		t.Fatalf("git %s succeeded:\n%s", strings.Join(args, " "), out)
	}
}

func TestApplySkipped(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) (string, *Store)
		want  string
	}{
		{"merge", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			mustFail(t, repo, "merge", "-q", "other")
			return repo, s
		}, SkipMerge},
		{"rebase", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			mustFail(t, repo, "rebase", "other")
			return repo, s
		}, SkipRebase},
		{"rebase --apply", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			mustFail(t, repo, "rebase", "--apply", "other")
			return repo, s
		}, SkipRebase},
		{"cherry-pick", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			mustFail(t, repo, "cherry-pick", "other")
			return repo, s
		}, SkipCherryPick},
		{"revert", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			write(t, filepath.Join(repo, "README"), "later\n")
			run(t, repo, "commit", "-q", "-am", "later")
			mustFail(t, repo, "revert", "--no-edit", "HEAD~1")
			return repo, s
		}, SkipRevert},
		{"bisect", func(t *testing.T) (string, *Store) {
			repo, s := conflicted(t)
			run(t, repo, "bisect", "start")
			return repo, s
		}, SkipBisect},
		{"detached HEAD", func(t *testing.T) (string, *Store) {
			repo, s := newRepo(t)
			run(t, repo, "checkout", "-q", "--detach")
			return repo, s
		}, SkipDetached},
		{"no repository", func(t *testing.T) (string, *Store) {
			s, err := openAt(filepath.Join(t.TempDir(), "mem"))
			if err != nil {
				t.Fatal(err)
			}
			return "", s
		}, SkipNoRepo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, s := tc.setup(t)
			var head string
			if repo != "" {
				head = run(t, repo, "rev-parse", "HEAD")
			}
			info, ch := store("note", "note\n")
			res := apply(t, s, info, ch)
			if res.Committed || res.Skipped != tc.want {
				t.Errorf("got %+v, want Skipped %q", res, tc.want)
			}
			if got, err := s.ReadFile("note.md"); err != nil || string(got) != "note\n" {
				t.Errorf("file not written: %q, %v", got, err)
			}
			if repo != "" {
				if got := run(t, repo, "rev-parse", "HEAD"); got != head {
					t.Errorf("HEAD moved from %s to %s", head, got)
				}
				noIndexCopies(t, filepath.Join(repo, ".git"))
			}
		})
	}
}

func TestApplyUnbornBranch(t *testing.T) {
	repo := t.TempDir()
	run(t, repo, "init", "-q")
	write(t, filepath.Join(repo, "staged.txt"), "staged\n")
	run(t, repo, "add", "staged.txt")
	s, err := openAt(filepath.Join(repo, "mem"))
	if err != nil {
		t.Fatal(err)
	}
	info, ch := store("first", "first\n")
	if res := apply(t, s, info, ch); !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := run(t, repo, "log", "--format=%P|%s", "main"); got != "|mem: store first" {
		t.Errorf("log %q", got)
	}
	if got := run(t, repo, "ls-tree", "-r", "--name-only", "HEAD"); got != "mem/first.md" {
		t.Errorf("tree %q", got)
	}
	if got := run(t, repo, "status", "--porcelain"); got != "A  staged.txt" {
		t.Errorf("status %q", got)
	}
	info, ch = store("second", "second\n")
	if res := apply(t, s, info, ch); !res.Committed {
		t.Fatalf("%+v", res)
	}
	if got := run(t, repo, "rev-list", "--count", "HEAD"); got != "2" {
		t.Errorf("%s commits", got)
	}
	run(t, repo, "fsck", "--strict", "--no-progress")
}

func TestApplyIdentity(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "gitconfig")
	write(t, empty, "")
	for _, tc := range []struct {
		name   string
		global string
		local  []string
		env    map[string]string
		want   string
	}{
		{name: "global", want: "Test User <test@example.com>|Test User <test@example.com>"},
		{name: "repository", local: []string{"Repo User", "repo@example.com"}, want: "Repo User <repo@example.com>|Repo User <repo@example.com>"},
		{name: "none", global: empty, want: "mem <mem@localhost>|mem <mem@localhost>"},
		{name: "author from env only", global: empty, env: map[string]string{"GIT_AUTHOR_NAME": "Env", "GIT_AUTHOR_EMAIL": "env@example.com"},
			want: "Env <env@example.com>|mem <mem@localhost>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, s := newRepo(t)
			if tc.global != "" {
				t.Setenv("GIT_CONFIG_GLOBAL", tc.global)
			}
			if tc.local != nil {
				run(t, repo, "config", "user.name", tc.local[0])
				run(t, repo, "config", "user.email", tc.local[1])
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			info, ch := store("who", "who\n")
			if res := apply(t, s, info, ch); !res.Committed {
				t.Fatalf("%+v", res)
			}
			if got := run(t, repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>"); got != tc.want {
				t.Errorf("identity %q, want %q", got, tc.want)
			}
		})
	}
}

// A user's git holding index.lock briefly delays the index update; it does not
// lose it.
func TestApplyIndexLocked(t *testing.T) {
	repo, s := newRepo(t)
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "")
	go func() {
		time.Sleep(150 * time.Millisecond)
		os.Remove(lock)
	}()
	info, ch := store("locked", "x\n")
	res := apply(t, s, info, ch)
	if !res.Committed || res.Warning != "" {
		t.Fatalf("%+v", res)
	}
	checkClean(t, repo)
}

// checkAll asserts n mem commits on top of the initial one, each file in HEAD,
// a clean status and fsck.
func checkAll(t *testing.T, repo string, n int) {
	t.Helper()
	if got := run(t, repo, "rev-list", "--count", "HEAD"); got != fmt.Sprint(n+1) {
		t.Errorf("%s commits, want %d", got, n+1)
	}
	files := strings.Split(run(t, repo, "ls-tree", "-r", "--name-only", "HEAD", ".claude"), "\n")
	if len(files) != n {
		t.Errorf("%d files in HEAD, want %d: %q", len(files), n, files)
	}
	run(t, repo, "fsck", "--strict", "--no-progress")
	if st := run(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("status not clean:\n%s", st)
	}
}

func TestApplyGoroutines(t *testing.T) {
	repo, s := newRepo(t)
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ctx := context.Background()
			unlock, err := s.Lock(ctx)
			if err != nil {
				errs <- err
				return
			}
			defer unlock()
			slug := fmt.Sprintf("g%02d", i)
			res, err := s.Apply(ctx, []Change{{Path: slug + ".md", Data: []byte(slug)}}, CommitInfo{Action: "store", Slug: slug})
			if err == nil && !res.Committed {
				err = fmt.Errorf("%s not committed: %+v", slug, res)
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	checkAll(t, repo, n)
}

func TestApplyProcesses(t *testing.T) {
	repo, s := newRepo(t)
	const n = 20
	startFile := filepath.Join(t.TempDir(), "go")
	cmds := make([]*exec.Cmd, n)
	outs := make([]strings.Builder, n)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(),
			fmt.Sprintf("MEM_GITSTORE_HELPER=p%02d", i),
			"MEM_GITSTORE_ROOT="+s.Root,
			"MEM_GITSTORE_START="+startFile)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	write(t, startFile, "")
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i].String())
		}
	}
	checkAll(t, repo, n)
	subjects := strings.Split(run(t, repo, "log", "--format=%s", "HEAD~20..HEAD"), "\n")
	sort.Strings(subjects)
	for i, subj := range subjects {
		if want := fmt.Sprintf("mem: store p%02d", i); subj != want {
			t.Errorf("subject %q, want %q", subj, want)
		}
	}
}

func TestLockContext(t *testing.T) {
	_, s := newRepo(t)
	unlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.Lock(ctx); err == nil {
		t.Fatal("locked twice")
	}
	unlock()
	unlock() // twice is harmless
	unlock2, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unlock2()
	if _, err := os.Stat(filepath.Join(s.CommonDir, "mem", "store.lock")); err != nil {
		t.Error(err)
	}
}

// BenchmarkApply measures one store-and-commit in a small repository.
func BenchmarkApply(b *testing.B) {
	_, s := newRepo(b)
	ctx := context.Background()
	before := gitSpawns.Load()
	for i := 0; b.Loop(); i++ {
		res, err := s.Apply(ctx, []Change{{Path: "bench.md", Data: fmt.Appendf(nil, "run %d\n", i)}}, CommitInfo{Action: "store", Slug: "bench"})
		if err != nil || !res.Committed {
			b.Fatal(res, err)
		}
	}
	b.ReportMetric(float64(gitSpawns.Load()-before)/float64(b.N), "spawns/op")
}
