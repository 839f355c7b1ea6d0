package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// setWait shortens how long a commit waits for index.lock and for a moving
// branch, for the length of the test.
func setWait(t *testing.T, lock, commit time.Duration) {
	oldLock, oldCommit := indexLockWait, commitTimeout
	indexLockWait, commitTimeout = lock, commit
	t.Cleanup(func() { indexLockWait, commitTimeout = oldLock, oldCommit })
}

// inHead lists the store files HEAD holds.
func inHead(t *testing.T, repo string) []string {
	t.Helper()
	out := run(t, repo, "ls-tree", "-r", "--name-only", "HEAD", "--", ".claude")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

func memSubjects(t *testing.T, repo string) string {
	t.Helper()
	return run(t, repo, "log", "--format=%s", "--grep=^Mem-Action:")
}

// While another git holds index.lock past the wait (a `git commit -a` with
// its editor open), mem must not move the branch: a branch that holds the
// memory and an index that does not would make the user's next commit delete
// it. The write stays pending and the next write commits it.
func TestApplyIndexLockHeld(t *testing.T) {
	setWait(t, 100*time.Millisecond, time.Second)
	repo, s := newRepo(t)
	head := run(t, repo, "rev-parse", "HEAD")
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "") // git's lock: never mem's to remove

	info, ch := store("held", "held\n")
	res := apply(t, s, info, ch)
	if res.Committed || !res.Pending || res.Skipped != SkipIndexLocked {
		t.Fatalf("with index.lock held: %+v, want pending, skipped %q", res, SkipIndexLocked)
	}
	if got := run(t, repo, "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved while the index was locked")
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("git's index.lock was removed: %v", err)
	}

	// The other git finishes; the user commits their own work.
	os.Remove(lock)
	write(t, filepath.Join(repo, "other.txt"), "other\n")
	run(t, repo, "add", "other.txt")
	run(t, repo, "commit", "-q", "-m", "user work")
	if got := run(t, repo, "show", "--name-status", "--format=", "HEAD"); got != "A\tother.txt" {
		t.Errorf("the user's commit changed %q", got)
	}

	// The next write commits the pending one first, with its own message.
	info, ch = store("next", "next\n")
	res = apply(t, s, info, ch)
	if !res.Committed || len(res.Earlier) != 1 {
		t.Fatalf("next write: %+v, want committed with one earlier commit", res)
	}
	if got := memSubjects(t, repo); got != "mem: store next\nmem: store held" {
		t.Errorf("mem commits:\n%s", got)
	}
	if got := inHead(t, repo); len(got) != 2 {
		t.Errorf("HEAD holds %q", got)
	}
	checkClean(t, repo)
	if ps, _ := s.loadPending(); len(ps) != 0 {
		t.Errorf("%d writes still pending", len(ps))
	}
}

// Flush commits what is pending and nothing else.
func TestFlush(t *testing.T) {
	setWait(t, 50*time.Millisecond, time.Second)
	repo, s := newRepo(t)
	ctx := context.Background()
	if res, err := s.Flush(ctx); err != nil || res.Committed || res.Skipped != "" {
		t.Fatalf("Flush with nothing pending: %+v, %v", res, err)
	}
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "")
	info, ch := store("a", "a\n")
	apply(t, s, info, ch)
	info, ch = store("b", "b\n")
	apply(t, s, info, ch)
	os.Remove(lock)
	res, err := s.Flush(ctx)
	if err != nil || !res.Committed || len(res.Earlier) != 1 {
		t.Fatalf("Flush: %+v, %v", res, err)
	}
	if got := memSubjects(t, repo); got != "mem: store b\nmem: store a" {
		t.Errorf("mem commits:\n%s", got)
	}
	checkClean(t, repo)
}

// A pending write commits the files as they are: a file removed since is not
// committed as a deletion, and a write whose file was committed by hand
// leaves nothing to do.
func TestPendingFollowsTheFiles(t *testing.T) {
	setWait(t, 50*time.Millisecond, time.Second)
	repo, s := newRepo(t)
	apply(t, s, CommitInfo{Action: "store", Slug: "kept"}, Change{Path: "kept.md", Data: []byte("v1\n")})
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "")
	apply(t, s, CommitInfo{Action: "store", Slug: "kept"}, Change{Path: "kept.md", Data: []byte("v2\n")})
	apply(t, s, CommitInfo{Action: "store", Slug: "byhand"}, Change{Path: "byhand.md", Data: []byte("x\n")})
	os.Remove(lock)
	os.Remove(filepath.Join(s.Root, "kept.md"))
	run(t, repo, "add", ".claude/agent-memory/byhand.md")
	run(t, repo, "commit", "-q", "-m", "by hand")
	res, err := s.Flush(context.Background())
	if err != nil || res.Committed {
		t.Fatalf("Flush: %+v, %v", res, err)
	}
	if got := run(t, repo, "show", "HEAD:.claude/agent-memory/kept.md"); got != "v1" {
		t.Errorf("kept.md in HEAD = %q, want v1 (a file removed by hand is not a removal of mem's)", got)
	}
}

// With the user committing in a loop, every write is committed as its own
// mem commit: none fails on a moving branch, none is left untracked.
func TestApplyWhileUserCommits(t *testing.T) {
	repo, s := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var rounds, failed atomic.Int64
	var whyMu sync.Mutex
	why := map[string]int{}
	fail := func(out string) {
		failed.Add(1)
		whyMu.Lock()
		defer whyMu.Unlock()
		if i := strings.Index(out, "\n"); i > 0 {
			out = out[:i]
		}
		if len(out) > 60 {
			out = out[:60]
		}
		why[out]++
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			write(t, filepath.Join(repo, "u.txt"), fmt.Sprintln(i))
			rounds.Add(1)
			if out, err := runGitErr(repo, "add", "u.txt"); err != nil {
				fail(out)
				continue
			}
			if out, err := runGitErr(repo, "commit", "-q", "-m", fmt.Sprint("user ", i)); err != nil {
				fail(out)
			}
		}
	}()
	const n = 20
	for i := range n {
		info, ch := store(fmt.Sprintf("m%02d", i), fmt.Sprintf("m%02d\n", i))
		res := apply(t, s, info, ch)
		if !res.Committed && !res.Pending {
			t.Errorf("store %d: %+v", i, res)
		}
	}
	cancel()
	wg.Wait()
	t.Logf("the user's loop: %d rounds, %d git add/commit failed: %v", rounds.Load(), failed.Load(), why)
	if _, err := s.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(memSubjects(t, repo), "mem: store"); got != n {
		t.Errorf("%d mem commits, want %d", got, n)
	}
	if got := inHead(t, repo); len(got) != n {
		t.Errorf("HEAD holds %d memories, want %d", len(got), n)
	}
	if st := run(t, repo, "status", "--porcelain", "--", ".claude"); st != "" {
		t.Errorf("store not clean:\n%s", st)
	}
}

// fakeGit puts a git on PATH that runs the real one, except that it kills
// mem (its parent) with SIGKILL at one moment of a commit: when mem gives
// `git update-index` the paths (preparing the user's index), when it starts
// `git update-ref`, or just after update-ref has moved the branch.
func fakeGit(t *testing.T, when string) string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var script string
	switch when {
	case "update-index":
		// Once it has the paths: mem starts it before it writes the files.
		script = "case \" $* \" in *' update-index '*) cat >/dev/null; kill -9 $PPID; sleep 1; exit 1;; esac\n"
	case "update-ref":
		script = "case \" $* \" in *' " + when + " '*) kill -9 $PPID; sleep 1; exit 1;; esac\n"
	case "after update-ref":
		script = "case \" $* \" in *' update-ref '*) \"" + real + "\" \"$@\"; kill -9 $PPID; exit 0;; esac\n"
	}
	write(t, filepath.Join(dir, "git"), "#!/bin/sh\n"+script+"exec \""+real+"\" \"$@\"\n")
	os.Chmod(filepath.Join(dir, "git"), 0o755)
	return dir
}

// killedAt runs one store in a helper process that is killed with SIGKILL
// at the moment fakeGit names.
func killedAt(t *testing.T, s *Store, when, slug string) {
	t.Helper()
	start := filepath.Join(t.TempDir(), "go")
	write(t, start, "")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEM_GITSTORE_HELPER="+slug, "MEM_GITSTORE_ROOT="+s.Root, "MEM_GITSTORE_START="+start,
		"PATH="+fakeGit(t, when)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ProcessState.String() != "signal: killed" {
		t.Fatalf("helper was not killed: %v\n%s", err, out)
	}
}

// mem killed at any moment of a commit never leaves a branch that holds a
// memory the index lacks: the user's next commit deletes nothing, and the
// next mem write commits what is pending and removes the lock the killed
// mem held.
func TestApplyKilled(t *testing.T) {
	for _, when := range []string{"update-index", "update-ref", "after update-ref"} {
		t.Run(when+"/user commits", func(t *testing.T) {
			repo, s := newRepo(t)
			killedAt(t, s, when, "killed")
			lock := filepath.Join(repo, ".git", "index.lock")
			if data, err := os.ReadFile(lock); err == nil && !strings.HasPrefix(string(data), lockMagic+" ") {
				t.Fatalf("index.lock after the kill is not mem's: %q", data)
			}
			// The user, told by git that index.lock exists, removes it and commits.
			os.Remove(lock)
			for _, l := range s.refLocks() {
				os.Remove(l)
			}
			if st := run(t, repo, "status", "--porcelain", "--", ".claude"); strings.Contains(st, "D ") {
				t.Errorf("after the kill, git status shows a deletion:\n%s", st)
			}
			write(t, filepath.Join(repo, "other.txt"), "other\n")
			run(t, repo, "add", "other.txt")
			run(t, repo, "commit", "-q", "-m", "user work")
			if deleted := run(t, repo, "log", "--diff-filter=D", "--name-only", "--format="); deleted != "" {
				t.Errorf("deleted by a commit: %s", deleted)
			}
			if _, err := os.Stat(filepath.Join(s.Root, "killed.md")); err != nil {
				t.Errorf("the memory is gone from disk: %v", err)
			}
		})
		t.Run(when+"/next write", func(t *testing.T) {
			repo, s := newRepo(t)
			killedAt(t, s, when, "killed")
			info, ch := store("next", "next\n")
			res := apply(t, s, info, ch)
			if !res.Committed {
				t.Fatalf("next write: %+v", res)
			}
			want := "mem: store next\nmem: store killed"
			if got := memSubjects(t, repo); got != want {
				t.Errorf("mem commits:\n%s\nwant:\n%s", got, want)
			}
			for _, l := range append(s.refLocks(), filepath.Join(repo, ".git", "index.lock")) {
				if _, err := os.Stat(l); err == nil {
					t.Errorf("%s left", l)
				}
			}
			checkClean(t, repo)
		})
	}
}

// What a killed mem leaves is cleaned by the next write, and only that: a
// lock of a live process, or one git took, stays.
func TestRemoveStale(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := dead.Process.Pid
	old := time.Now().Add(-time.Hour)

	t.Run("mem's leftovers", func(t *testing.T) {
		repo, s := newRepo(t)
		apply(t, s, CommitInfo{Action: "store", Slug: "a"}, Change{Path: "a.md", Data: []byte("a\n")})
		gitDir := filepath.Join(repo, ".git")
		lock := filepath.Join(gitDir, "index.lock")
		headLock := filepath.Join(gitDir, "HEAD.lock")
		write(t, headLock, "")
		fi, _ := os.Lstat(headLock)
		write(t, lock, fmt.Sprintf("%s pid=%d start=-\nref-lock %s %s\n", lockMagic, deadPid, headLock, fileID(fi)))
		leftovers := []string{
			filepath.Join(s.Root, fmt.Sprintf(".a.md.tmp-%d-0123456789ab", deadPid)),
			filepath.Join(s.Root, ".a.md.tmp-0123456789ab"), // older mem: no pid, an hour old
			filepath.Join(gitDir, fmt.Sprintf("mem-index.%d.0123456789ab.tmp", deadPid)),
			filepath.Join(s.StateDir(), fmt.Sprintf("index.%d.0123456789ab.tmp", deadPid)),
			filepath.Join(s.StateDir(), fmt.Sprintf("index.%d.0123456789ab.tmp.lock", deadPid)),
			filepath.Join(s.StateDir(), ".index-0123456789abcdef.bin.tmp123456"),
			filepath.Join(s.StateDir(), "pending", fmt.Sprintf(".01796169383038544505-w.%d.66f7c699cba2.json.tmp1595201056", deadPid)),
		}
		for i, f := range leftovers {
			write(t, f, "x")
			if i < len(leftovers)-1 { // the journal's is young: its pid tells
				os.Chtimes(f, old, old)
			}
		}
		young := filepath.Join(s.Root, ".b.md.tmp-0123456789ab") // may be a write in progress
		write(t, young, "x")

		info, ch := store("b", "b\n")
		if res := apply(t, s, info, ch); !res.Committed {
			t.Fatalf("%+v", res)
		}
		for _, f := range append(leftovers, lock, headLock) {
			if _, err := os.Lstat(f); err == nil {
				t.Errorf("%s left", f)
			}
		}
		if _, err := os.Lstat(young); err != nil {
			t.Errorf("a young temporary file was removed: %v", err)
		}
	})
	for _, tc := range []struct{ name, content string }{
		{"git's lock", ""},
		{"live mem's lock", fmt.Sprintf("%s pid=%d start=%s\n", lockMagic, os.Getpid(), processStart(os.Getpid()))},
		{"reused pid", fmt.Sprintf("%s pid=%d start=1\n", lockMagic, os.Getpid())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setWait(t, 50*time.Millisecond, time.Second)
			repo, s := newRepo(t)
			lock := filepath.Join(repo, ".git", "index.lock")
			write(t, lock, tc.content)
			info, ch := store("c", "c\n")
			res := apply(t, s, info, ch)
			if tc.name == "reused pid" {
				if processStart(os.Getpid()) == "-" {
					t.Skip("no process start times here")
				}
				if !res.Committed {
					t.Errorf("a lock whose pid now names another process was not taken for stale: %+v", res)
				}
				return
			}
			if res.Committed || res.Skipped != SkipIndexLocked {
				t.Errorf("%+v", res)
			}
			if got, err := os.ReadFile(lock); err != nil || string(got) != tc.content {
				t.Errorf("the lock was touched: %q, %v", got, err)
			}
		})
	}
}

// BenchmarkGitsStartedBefore measures the scan of /proc a commit makes
// after it changed the user's index (settle), on this machine's processes.
func BenchmarkGitsStartedBefore(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		gitsStartedBefore(dir, time.Now())
	}
}

// TestGitsStartedBefore: the scan finds a git process running in the work
// tree that started before the given time, and neither one that started
// after it nor one in another directory.
func TestGitsStartedBefore(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc here")
	}
	repo, _ := newRepo(t)
	other := t.TempDir()
	// A git that stays running in repo: its alias runs a shell that sleeps.
	cmd := exec.Command("git", "-c", "alias.wait=!sleep 5", "wait")
	cmd.Dir = repo
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	time.Sleep(100 * time.Millisecond) // past the clock tick it started in
	pid := cmd.Process.Pid
	tests := []struct {
		name  string
		dir   string
		since time.Time
		want  bool
	}{
		{"in the work tree, started before", repo, time.Now(), true},
		{"in the work tree, started after", repo, time.Now().Add(-time.Minute), false},
		{"in another directory", other, time.Now(), false},
	}
	for _, tt := range tests {
		if got := slices.Contains(gitsStartedBefore(tt.dir, tt.since), pid); got != tt.want {
			t.Errorf("%s: found = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestApplyFailsWhole: an Apply that cannot write one of its files, or its
// journal, puts none of its files in place and leaves no temporary file and
// no journal entry behind.
func TestApplyFailsWhole(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, s *Store) // makes the Apply fail
	}{
		{"a path that is a directory", func(t *testing.T, s *Store) {
			if err := os.MkdirAll(filepath.Join(s.Root, "b.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a journal that cannot be written", func(t *testing.T, s *Store) {
			write(t, s.pendingDir(), "not a directory\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, s := newRepo(t)
			tt.setup(t, s)
			ctx := context.Background()
			unlock, err := s.Lock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			changes := []Change{{Path: "a.md", Data: []byte("a\n")}, {Path: "b.md", Data: []byte("b\n")}}
			if _, err := s.Apply(ctx, changes, CommitInfo{Action: "store", Slug: "a"}); err == nil {
				t.Fatal("Apply succeeded")
			}
			if _, err := os.Stat(filepath.Join(s.Root, "a.md")); err == nil {
				t.Error("a.md was put in place by an Apply that failed")
			}
			entries, _ := os.ReadDir(s.Root)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary file left: %s", e.Name())
				}
			}
			if fi, err := os.Stat(s.pendingDir()); err == nil && fi.IsDir() {
				if pend, _ := os.ReadDir(s.pendingDir()); len(pend) > 0 {
					t.Errorf("journal entries left: %v", pend)
				}
			}
		})
	}
}
