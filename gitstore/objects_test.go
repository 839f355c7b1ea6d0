package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// backends opens the store's repository with each implementation of
// objects: the git command, the reference, first.
func backends(t *testing.T, s *Store) map[string]objects {
	t.Helper()
	g, err := openGoGit(s)
	if err != nil {
		t.Fatalf("go-git: %v", err)
	}
	return map[string]objects{"cli": cliObjects{s}, "go-git": g}
}

// conform runs f against every implementation and fails unless each gives
// the reference's answer.
func conform[T any](t *testing.T, s *Store, what string, f func(o objects) (T, error)) T {
	t.Helper()
	impls := backends(t, s)
	want, wantErr := f(impls["cli"])
	got, err := f(impls["go-git"])
	if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
		t.Errorf("%s: go-git gives %+v, %v; git gives %+v, %v", what, got, err, want, wantErr)
	}
	if wantErr != nil {
		t.Fatalf("%s: %v", what, wantErr)
	}
	return want
}

// TestObjectsConformance holds the in-process implementation to git's own
// plumbing: the same trees, the same commits byte for byte (identity and
// dates included), the same reads (issue 19, item 7).
func TestObjectsConformance(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	run(t, repo, "init", "-q")
	s, err := openAt(filepath.Join(repo, ".claude", "agent-memory"))
	if err != nil {
		t.Fatal(err)
	}

	type headT struct{ Commit, Tree string }
	if h := conform(t, s, "head of an unborn branch", func(o objects) (headT, error) {
		c, tr, err := o.head(ctx)
		return headT{c, tr}, err
	}); h.Commit != "" {
		t.Fatalf("unborn head %+v", h)
	}

	// Blobs and a first tree from nothing, nested.
	write(t, filepath.Join(repo, "README"), "hello\n")
	write(t, filepath.Join(repo, "run.sh"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(repo, "run.sh"), 0o755)
	write(t, filepath.Join(s.Root, "a.md"), "a\n")
	write(t, filepath.Join(s.Root, "sub", "b.md"), "b\n")
	os.Symlink("a.md", filepath.Join(s.Root, "link.md"))
	run(t, repo, "add", "-A")
	paths := []string{"README", "run.sh", ".claude/agent-memory/a.md", ".claude/agent-memory/sub/b.md", ".claude/agent-memory/link.md", "missing.md"}
	index := filepath.Join(repo, ".git", "index")
	entries := conform(t, s, "index entries (version 2)", func(o objects) ([]entry, error) { return o.indexEntries(ctx, index, paths) })
	if entries[5].Mode != 0 || entries[1].Mode != 0o100755 || entries[4].Mode != 0o120000 {
		t.Errorf("entries %+v", entries)
	}
	tree := conform(t, s, "tree from nothing", func(o objects) (string, error) { return o.writeTree(ctx, "", entries[:5]) })
	if want := run(t, repo, "write-tree"); tree != want {
		t.Errorf("tree %s, git write-tree %s", tree, want)
	}

	// Commits, byte for byte, under each way of naming the committer.
	t.Setenv("GIT_AUTHOR_DATE", "1700000000 +0100")
	t.Setenv("GIT_COMMITTER_DATE", "@1700000100 -0230")
	empty := filepath.Join(t.TempDir(), "empty")
	write(t, empty, "")
	inc := filepath.Join(t.TempDir(), "with-include")
	write(t, inc, "[include]\n\tpath = "+filepath.Join(t.TempDir(), "nothing")+"\n[user]\n\tname = Included\n\temail = inc@example.com\n")
	msg := "mem: store a\n\nMem-Action: store\n"
	var first string
	for _, c := range []struct {
		name, global string
		local, env   []string
	}{
		{name: "global"},
		{name: "repository", local: []string{"user.name", "Repo User", "user.email", "repo@example.com"}},
		{name: "author and committer keys", local: []string{"author.name", "Auth", "committer.email", "c@example.com"}},
		{name: "none: mem's", global: empty},
		{name: "author from the environment", global: empty, env: []string{"GIT_AUTHOR_NAME", "Env", "GIT_AUTHOR_EMAIL", "env@example.com"}},
		{name: "EMAIL", global: empty, env: []string{"EMAIL", "mail@example.com", "GIT_AUTHOR_NAME", "A", "GIT_COMMITTER_NAME", "C"}},
		{name: "an include: git decides", global: inc},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.global != "" {
				t.Setenv("GIT_CONFIG_GLOBAL", c.global)
			}
			for i := 0; i < len(c.local); i += 2 {
				run(t, repo, "config", c.local[i], c.local[i+1])
				defer run(t, repo, "config", "--unset", c.local[i])
			}
			for i := 0; i < len(c.env); i += 2 {
				t.Setenv(c.env[i], c.env[i+1])
			}
			commit := conform(t, s, "commit", func(o objects) (string, error) { return o.writeCommit(ctx, tree, "", msg) })
			run(t, repo, "cat-file", "-e", commit)
			if first == "" {
				first = commit
			}
		})
	}
	run(t, repo, "update-ref", "HEAD", first)
	run(t, repo, "fsck", "--strict", "--no-progress")

	// A second commit: change, add deeper, remove until a directory empties.
	write(t, filepath.Join(s.Root, "a.md"), "a2\n")
	write(t, filepath.Join(s.Root, "x", "y", "c.md"), "c\n")
	os.RemoveAll(filepath.Join(s.Root, "sub"))
	run(t, repo, "add", "-A")
	paths = []string{".claude/agent-memory/a.md", ".claude/agent-memory/x/y/c.md", ".claude/agent-memory/sub/b.md"}
	entries = conform(t, s, "index entries", func(o objects) ([]entry, error) { return o.indexEntries(ctx, index, paths) })
	tree2 := conform(t, s, "tree on a base", func(o objects) (string, error) { return o.writeTree(ctx, tree, entries) })
	if want := run(t, repo, "write-tree"); tree2 != want {
		t.Errorf("tree %s, git write-tree %s", tree2, want)
	}
	second := conform(t, s, "commit on a parent", func(o objects) (string, error) { return o.writeCommit(ctx, tree2, first, msg) })
	run(t, repo, "update-ref", "HEAD", second)

	// Names that git orders by a directory's trailing "/": beside the
	// directory x, the files x.md, x-y.md and x0.md, and a file that gives
	// way to a directory of its name.
	for _, name := range []string{"x.md", "x-y.md", "x0.md", "x/z.md", "a.md.d/e.md"} {
		write(t, filepath.Join(s.Root, name), name+"\n")
	}
	os.Remove(filepath.Join(s.Root, "link.md"))
	write(t, filepath.Join(s.Root, "link.md", "f.md"), "f\n")
	run(t, repo, "add", "-A")
	paths = []string{".claude/agent-memory/x.md", ".claude/agent-memory/x-y.md", ".claude/agent-memory/x0.md", ".claude/agent-memory/x/z.md", ".claude/agent-memory/a.md.d/e.md", ".claude/agent-memory/link.md", ".claude/agent-memory/link.md/f.md"}
	entries = conform(t, s, "index entries, ordered names", func(o objects) ([]entry, error) { return o.indexEntries(ctx, index, paths) })
	tree3 := conform(t, s, "tree with names ordered as git orders them", func(o objects) (string, error) { return o.writeTree(ctx, tree2, entries) })
	if want := run(t, repo, "write-tree"); tree3 != want {
		t.Errorf("tree %s, git write-tree %s", tree3, want)
	}

	conform(t, s, "head", func(o objects) (headT, error) {
		c, tr, err := o.head(ctx)
		return headT{c, tr}, err
	})
	for _, rev := range []string{"HEAD", second[:10], "HEAD~1", "main"} {
		conform(t, s, "read commit "+rev, func(o objects) (commitObject, error) { return o.readCommit(ctx, rev) })
	}
	changes := conform(t, s, "diff", func(o objects) ([]change, error) { return o.diffTree(ctx, tree, tree2) })
	conform(t, s, "diff from nothing", func(o objects) ([]change, error) { return o.diffTree(ctx, "", tree) })
	var hashes []string
	for _, ch := range changes {
		if ch.From.Mode != 0 {
			hashes = append(hashes, ch.From.Hash)
		}
	}
	conform(t, s, "blobs", func(o objects) ([][]byte, error) { return o.readBlobs(ctx, hashes) })

	// A blob's name without a process: go-git knows it, as git hash-object
	// gives it; the git command does not say (commitAttempt then builds no
	// guess).
	readme := filepath.Join(repo, "README")
	data, _ := os.ReadFile(readme)
	impls := backends(t, s)
	if name, ok := impls["go-git"].blobName(data); !ok || name != run(t, repo, "hash-object", readme) {
		t.Errorf("go-git blobName = %s, %v; git hash-object says %s", name, ok, run(t, repo, "hash-object", readme))
	}
	if _, ok := impls["cli"].blobName(data); ok {
		t.Error("the git command's blobName claims to know a name without a process")
	}

	// The index in its other formats; a split index is left to git.
	for _, setup := range [][]string{
		{"update-index", "--index-version", "3"},
		{"add", "-N", "README.new"},
		{"update-index", "--index-version", "4"},
		{"update-index", "--split-index"},
	} {
		if setup[0] == "add" {
			write(t, filepath.Join(repo, "README.new"), "new\n")
		}
		run(t, repo, setup...)
		paths := []string{".claude/agent-memory/a.md", "README.new", "run.sh", ".claude/agent-memory/x/y/c.md"}
		conform(t, s, "index entries after git "+strings.Join(setup, " "), func(o objects) ([]entry, error) { return o.indexEntries(ctx, index, paths) })
	}
}

// SHA-256 repositories, which go-git cannot open, are committed to, logged
// and undone through the git command (issue 20, item 10).
func TestSHA256(t *testing.T) {
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--object-format=sha256", repo).CombinedOutput(); err != nil {
		t.Skipf("git cannot make a SHA-256 repository: %v %s", err, out)
	}
	s, err := openAt(filepath.Join(repo, ".claude", "agent-memory"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.objects().(cliObjects); !ok {
		t.Fatalf("a SHA-256 repository opened with %T", s.objects())
	}
	info, ch := store("a", "a\n")
	res := apply(t, s, info, ch)
	if !res.Committed || len(res.Commit) != 64 {
		t.Fatalf("%+v", res)
	}
	info, ch = store("a", "a2\n")
	second := apply(t, s, info, ch)
	entries, err := s.Log(context.Background(), 0)
	if err != nil || len(entries) != 2 {
		t.Fatalf("Log: %+v, %v", entries, err)
	}
	ctx := context.Background()
	unlock, err := s.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if res, err := s.Undo(ctx, second.Commit[:12]); err != nil || !res.Committed {
		t.Fatalf("Undo: %+v, %v", res, err)
	}
	if got := read(t, filepath.Join(s.Root, "a.md")); got != "a\n" {
		t.Errorf("after undo a.md = %q", got)
	}
	checkClean(t, repo)
}

// The store's tests run against the git command too: the reference passes
// every one the in-process implementation passes.
func TestCLIBackend(t *testing.T) {
	if os.Getenv("MEM_GITSTORE_BACKEND") != "" {
		t.Skip("already the CLI run")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^(TestApply|TestApplyKeepsUserWork|TestApplySkipped|TestApplyUnbornBranch|TestApplyIdentity|TestApplyIndexLocked|TestApplyIndexLockHeld|TestFlush|TestPendingFollowsTheFiles|TestApplyKilled|TestLog|TestUndo)$")
	cmd.Env = append(os.Environ(), "MEM_GITSTORE_BACKEND=cli")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("with the git command as the backend: %v\n%s", err, out)
	}
}

// A store kept open (mem mcp, mem serve) still commits after the user's git
// packs and prunes the objects it had read loose: go-git's list of packs is
// read again when an object is not found.
func TestObjectsAfterGC(t *testing.T) {
	repo, s := newRepo(t)
	info, ch := store("a", "a\n")
	apply(t, s, info, ch)
	for _, slug := range []string{"b", "c", "d"} {
		run(t, repo, "gc", "-q", "--prune=now")
		info, ch = store(slug, slug+"\n")
		if res := apply(t, s, info, ch); !res.Committed {
			t.Fatalf("%+v", res)
		}
	}
	if _, ok := s.objects().(*goGitObjects); !ok {
		t.Fatalf("not go-git: %T", s.objects())
	}
	if _, err := s.Log(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	checkClean(t, repo)
}
