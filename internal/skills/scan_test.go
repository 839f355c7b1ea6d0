package skills

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/gittest"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/sessions"
	"github.com/mem-dev/mem/internal/shareddata"
)

// writeTranscripts writes one transcript per session: sessions s1-s3 build
// then test (s1's test fails), s4 only lists files.
func writeTranscripts(t *testing.T) string {
	dir := t.TempDir()
	n := 0
	bash := func(sid, cmd string) string {
		n++
		return fmt.Sprintf(`{"type":"assistant","sessionId":%q,"timestamp":"2026-03-0%dT10:00:00Z","message":{"id":"m%d","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":%q}}]}}`+"\n", sid, n%9+1, n, n, cmd)
	}
	result := func(sid, msg string) string {
		return fmt.Sprintf(`{"type":"user","sessionId":%q,"message":{"content":[{"type":"tool_result","tool_use_id":"t%d","is_error":true,"content":%q}]}}`+"\n", sid, n, msg)
	}
	files := map[string]string{
		"s1.jsonl": bash("s1", "go build ./...") + bash("s1", "go test ./parse/...") +
			result("s1", "Exit code 1\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: unexpected EOF"),
		"s2.jsonl": bash("s2", "go vet ./... && go build ./cmd/app") + bash("s2", "go test -run TestX ./..."),
		"s3.jsonl": bash("s3", "go build -o /tmp/app .") + bash("s3", "ls") + bash("s3", "go test ./..."),
		"s4.jsonl": bash("s4", "ls -la"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMain isolates git from this machine's configuration.
func TestMain(m *testing.M) {
	gittest.Main(m, "[user]\n\tname = Test\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n")
}

// gitRepo makes a repository with parse/parse_test.go committed, and a
// Claude directory of its own, so no personal skill takes a name.
func gitRepo(t *testing.T) string {
	t.Helper()
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), ".claude"))
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	os.MkdirAll(filepath.Join(dir, "parse"), 0o755)
	os.WriteFile(filepath.Join(dir, "parse", "parse_test.go"), []byte("package parse\n"), 0o644)
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "init")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func snapshot(t *testing.T, src string) *sessions.Snapshot {
	x := sessions.Open(filepath.Join(t.TempDir(), "transcripts"))
	if _, err := x.Update([]string{src}); err != nil {
		t.Fatal(err)
	}
	s, err := x.Load()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var goodDraft = Draft{
	Name:             "build-then-test",
	Description:      "Build, then run the tests, before any commit.",
	FailurePrevented: "Committing with a failing parser test: --- FAIL: TestParse (0.00s)",
	EvidenceSessions: []string{"s1", "s2"},
	Paths:            []string{"parse/parse_test.go"},
	Body:             "1. `go build ./...`\n2. `go test ./...`; if TestParse fails, read `parse/parse_test.go`.",
	Justification:    "Without it TestParse failures are committed and break the build for the next session.",
}

func TestCandidates(t *testing.T) {
	s := snapshot(t, writeTranscripts(t))
	cs := Candidates(s, 3)
	if len(cs) != 1 || cs[0].Key != "go build → go test" || strings.Join(cs[0].Sessions, ",") != "s1,s2,s3" {
		t.Fatalf("candidates: %+v", cs)
	}
	if len(cs[0].Failures) != 1 || cs[0].Failures[0].Session != "s1" {
		t.Errorf("failures: %+v", cs[0].Failures)
	}
	if cs := Candidates(s, 4); len(cs) != 0 {
		t.Errorf("min 4: %+v", cs)
	}
}

func TestScanPromoteReject(t *testing.T) {
	src := writeTranscripts(t)
	snap := snapshot(t, src)
	ctx := context.Background()

	t.Run("no model", func(t *testing.T) {
		repo := gitRepo(t)
		r, err := Open(repo)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Scan(ctx, snap, nil, 0)
		if !errors.Is(err, ErrNoModel) || len(res.Candidates) != 1 {
			t.Fatalf("got %v, %d candidates", err, len(res.Candidates))
		}
		if _, err := os.Stat(filepath.Join(repo, ".claude")); !os.IsNotExist(err) {
			t.Errorf("wrote something without a model")
		}
	})

	t.Run("gate rejects", func(t *testing.T) {
		repo := gitRepo(t)
		r, _ := Open(repo)
		bad := goodDraft
		bad.Justification = "It saves time."
		res, err := r.Scan(ctx, snap, modeltest.Answering(bad), 0)
		if err != nil || len(res.Admitted) != 0 || len(res.Rejected) != 1 || res.Rejected[0].Failures[0].Gate != GateJustification {
			t.Fatalf("res %+v err %v", res, err)
		}
		if head := git(t, repo, "log", "-1", "--format=%s"); head != "init" {
			t.Errorf("committed %q", head)
		}
	})

	t.Run("draft promote", func(t *testing.T) {
		repo := gitRepo(t)
		// The person's own staged work must stay staged and uncommitted.
		os.WriteFile(filepath.Join(repo, "wip.txt"), []byte("wip\n"), 0o644)
		git(t, repo, "add", "wip.txt")
		r, _ := Open(repo)
		fake := modeltest.Answering(goodDraft)
		res, err := r.Scan(ctx, snap, fake, 0)
		if err != nil || len(res.Admitted) != 1 || !res.Commit.Committed {
			t.Fatalf("res %+v err %v", res, err)
		}
		if p := fake.Prompt(); !strings.Contains(p, "--- FAIL: TestParse") || !strings.Contains(p, "go build → go test") {
			t.Errorf("prompt lacks the evidence:\n%s", p)
		}
		draft := ".claude/skill-drafts/build-then-test/SKILL.md"
		data, err := os.ReadFile(filepath.Join(repo, draft))
		if err != nil || !strings.Contains(string(data), "procedure: go build → go test") || !strings.HasPrefix(string(data), "---\nname: build-then-test\n") {
			t.Fatalf("draft: %v\n%s", err, data)
		}
		if files := git(t, repo, "show", "--name-only", "--format=", "HEAD"); files != draft {
			t.Errorf("commit touched %q", files)
		}
		if tr := git(t, repo, "log", "-1", "--format=%(trailers:key=Mem-Action,valueonly)"); tr != "skill-draft" {
			t.Errorf("trailer %q", tr)
		}
		if st := git(t, repo, "status", "--porcelain"); st != "A  wip.txt" {
			t.Errorf("status %q", st)
		}
		if ds := r.Drafts(); len(ds) != 1 || ds[0].Name != "build-then-test" || ds[0].Meta.Procedure != "go build → go test" {
			t.Errorf("drafts %+v", ds)
		}

		// A second scan does not propose it again.
		res, err = r.Scan(ctx, snap, fake, 0)
		if err != nil || len(res.Admitted)+len(res.Rejected) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "already covered") {
			t.Fatalf("rescan: %+v %v", res, err)
		}

		if _, err := r.Promote(ctx, "build-then-test"); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(repo, ".claude/skills/build-then-test/SKILL.md")); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(filepath.Join(repo, ".claude/skill-drafts/build-then-test")); !os.IsNotExist(err) {
			t.Errorf("draft still there: %v", err)
		}
		if tr := git(t, repo, "log", "-1", "--format=%(trailers:key=Mem-Action,valueonly)"); tr != "skill-promote" {
			t.Errorf("trailer %q", tr)
		}
		if _, err := r.Promote(ctx, "build-then-test"); !errors.Is(err, ErrNoDraft) {
			t.Errorf("promote twice: %v", err)
		}
	})

	t.Run("draft reject", func(t *testing.T) {
		repo := gitRepo(t)
		r, _ := Open(repo)
		fake := modeltest.Answering(goodDraft)
		if _, err := r.Scan(ctx, snap, fake, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Reject(ctx, "build-then-test", "we run make check instead"); err != nil {
			t.Fatal(err)
		}
		if ds := r.Drafts(); len(ds) != 0 {
			t.Errorf("drafts after reject: %+v", ds)
		}
		rej, err := r.Rejected()
		if err != nil || len(rej) != 1 || rej[0].Procedure != "go build → go test" || rej[0].Reason != "we run make check instead" {
			t.Fatalf("rejected %+v %v", rej, err)
		}
		if tr := git(t, repo, "log", "-1", "--format=%(trailers:key=Mem-Action,valueonly)"); tr != "skill-reject" {
			t.Errorf("trailer %q", tr)
		}
		// Never proposed again.
		n := fake.Calls()
		res, err := r.Scan(ctx, snap, fake, 0)
		if err != nil || fake.Calls() != n || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "rejected as build-then-test") {
			t.Fatalf("rescan after reject: %+v %v", res, err)
		}
	})
}

// TestRealCandidates logs what the counting finds in the real transcripts.
func TestRealCandidates(t *testing.T) {
	src := shareddata.Need(t, "external", "transcripts")
	s := snapshot(t, src)
	cs := Candidates(s, MinSessions)
	if len(cs) == 0 {
		t.Fatal("no recurring procedure in the real transcripts")
	}
	for _, c := range cs {
		t.Logf("%-28s %d sessions, %d times, %d failures", c.Key, len(c.Sessions), c.Times, len(c.Failures))
		if len(c.Sessions) < MinSessions {
			t.Errorf("%s: only %d sessions", c.Key, len(c.Sessions))
		}
	}
}
