package mem_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/capture"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

// askFunc is a model that runs a function: it answers with what the
// function returns, decoded as the runner decodes.
type askFunc func(prompt string) any

func (f askFunc) Ask(_ context.Context, prompt string, out any) error {
	return modeltest.Decode(f(prompt), out)
}

func captureRepo(t *testing.T) (string, *mem.Repo) {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	git(t, dir, "config", "user.name", "Ada Tester")
	git(t, dir, "config", "user.email", "ada@example.com")
	r, _, err := mem.Init(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Store(context.Background(), mem.Note{
		Name: "Release on Wednesdays", Description: "Releases go to production on Wednesday mornings",
		Class: "rule", Tags: []string{"release"}, Body: "We release on Wednesday mornings, never on Fridays.",
	}); err != nil {
		t.Fatal(err)
	}
	return dir, r
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func entry(typ, sessionID, text string) string {
	role := typ
	var content any = text
	if typ == "assistant" {
		content = []any{map[string]any{"type": "text", "text": text}}
	}
	b, _ := json.Marshal(map[string]any{"type": typ, "sessionId": sessionID,
		"timestamp": "2026-11-20T10:00:00Z", "message": map[string]any{"role": role, "content": content}})
	return string(b)
}

func appendLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		f.WriteString(l + "\n")
	}
}

// memories is a capture answer; with no proposals, {"memories":[]}.
func memories(ps ...capture.Proposal) map[string]any {
	return map[string]any{"memories": append([]capture.Proposal{}, ps...)}
}

// One capture is one commit with the session's id; a second capture of the
// same session sends only what is new, the earlier part as context and the
// memories it wrote listed for correction; with nothing new, no model call.
func TestCaptureIsOneCommitAndIncremental(t *testing.T) {
	dir, r := captureRepo(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s1.jsonl")
	appendLines(t, tr,
		entry("user", "sess-1", "why do invoices go out twice?"),
		entry("assistant", "sess-1", "The invoice job runs at 02:00 UTC and was also run by hand at 14:00."),
	)
	var prompts []string
	a := askFunc(func(p string) any {
		prompts = append(prompts, p)
		if len(prompts) == 1 {
			return memories(
				capture.Proposal{Name: "Invoice job runs nightly at 02:00 UTC", Description: "A manual run double-bills", Class: "gotcha", Body: "Never run the invoice job by hand.", Basis: "shown", Lines: capture.LineRefs{2}},
				capture.Proposal{Name: "Invoices are emailed by the mailer worker", Description: "The mailer worker sends each invoice", Class: "fact", Body: "The mailer worker sends invoices.", Basis: "shown"},
			)
		}
		return memories()
	})
	res, err := r.Capture(ctx, a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 2 || res.Session != "sess-1" {
		t.Fatalf("written %+v, session %q", res.Written, res.Session)
	}
	if res.Written[0].Commit == "" || res.Written[0].Commit != res.Written[1].Commit {
		t.Errorf("want one commit for both: %q, %q", res.Written[0].Commit, res.Written[1].Commit)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	for _, want := range []string{"mem: capture 2 memories", "Mem-Action: capture", "Mem-Session: sess-1", "Mem-Slug: invoice-job-runs-nightly-at-02-00-utc"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(git(t, dir, "log", "--format=%s"), "mem: capture"); n != 1 {
		t.Errorf("%d capture commits, want 1", n)
	}

	// Nothing new: the model is not asked.
	if res, err := r.Capture(ctx, a, tr, 5); err != nil || res.New || len(prompts) != 1 {
		t.Fatalf("a capture with nothing new: %+v, %v, %d calls", res, err, len(prompts))
	}

	appendLines(t, tr,
		entry("user", "sess-1", "no, that's not it: the 14:00 run was a retry of a failed 02:00 run"),
		entry("assistant", "sess-1", "Then the retry re-sends invoices the failed run had already emailed."),
	)
	if _, err := r.Capture(ctx, a, tr, 5); err != nil {
		t.Fatal(err)
	}
	if len(prompts) != 2 {
		t.Fatalf("%d model calls, want 2", len(prompts))
	}
	p := prompts[1]
	for _, want := range []string{
		"[captured before; context only]\nL1 user: why do invoices go out twice?",
		"L2 assistant [overturned by L3: the developer rejected it]: The invoice job runs at 02:00 UTC",
		"[new since the last capture]\nL3 user [overturns L2]: no, that's not it",
		"invoice-job-runs-nightly-at-02-00-utc (gotcha): Invoice job runs nightly at 02:00 UTC — A manual run double-bills [written from the earlier part of this session]",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("second prompt lacks %q:\n%s", want, p)
		}
	}
}

// A captured memory is named as mem store names it: one whose name would
// be one of the store's own files ("Memory") gets a suffix, not a skip.
func TestCaptureNamesAsStoreDoes(t *testing.T) {
	_, r := captureRepo(t)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr,
		entry("user", "sess-2", "where do the agent's notes go?"),
		entry("assistant", "sess-2", "Memory lives in .claude/agent-memory, one markdown file per note."),
	)
	a := askFunc(func(string) any {
		return memories(capture.Proposal{Name: "Memory", Description: "Where the agent's notes live", Class: "fact", Body: "One markdown file per note in .claude/agent-memory.", Basis: "shown"})
	})
	res, err := r.Capture(context.Background(), a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := r.Store(context.Background(), mem.Note{Name: "Memory", Body: "stored by hand"})
	if !errors.Is(err, mem.ErrExists) {
		t.Fatalf("mem store of the same name: %+v, %v; want it to find the captured memory (ErrExists)", stored, err)
	}
	if len(res.Written) != 1 || res.Written[0].Slug != stored.Slug || !strings.HasPrefix(stored.Slug, "memory-") {
		t.Errorf("captured %+v, skipped %v; mem store names it %q; want one memory named as mem store names it (memory-<hash>)", res.Written, res.Skipped, stored.Slug)
	}
}

// An update supersedes the memory it corrects, in the same commit; one
// whose target changed while the model thought is skipped; and a writer
// never waits on the model.
func TestCaptureUpdatesAndSnapshot(t *testing.T) {
	dir, r := captureRepo(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s2.jsonl")
	appendLines(t, tr,
		entry("user", "sess-2", "we release on thursdays now, wednesday clashes with the client demos. when is the next release?"),
		entry("assistant", "sess-2", "Noted: releases move to Thursday mornings. The next release is Thursday."),
	)
	update := capture.Proposal{
		Name: "Release on Thursdays", Description: "Releases go to production on Thursday mornings", Class: "rule",
		Body: "We release on Thursday mornings, never on Fridays.", Why: "Wednesday clashed with client demos.",
		Basis: "stated", Updates: "release-on-wednesdays",
	}
	var sawHeld bool
	a := askFunc(func(p string) any {
		sawHeld = strings.Contains(p, "- release-on-wednesdays (rule): Release on Wednesdays")
		// A writer while the model thinks: it must not wait on the capture.
		other, err := mem.Open(dir, "")
		if err != nil {
			t.Error(err)
			return memories()
		}
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if _, err := other.Store(wctx, mem.Note{Name: "Staging resets on Sundays", Class: "fact", Body: "Staging data resets every Sunday."}); err != nil {
			t.Errorf("a store during the capture's model call: %v", err)
		}
		return memories(update)
	})
	res, err := r.Capture(ctx, a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !sawHeld {
		t.Error("the related memory was not shown to the model")
	}
	if len(res.Written) != 1 || res.Written[0].Slug != "release-on-thursdays" {
		t.Fatalf("written %+v, skipped %+v", res.Written, res.Skipped)
	}
	old, _, err := r.Show(ctx, "release-on-wednesdays")
	if err != nil || !strings.Contains(string(old), "superseded_by: release-on-thursdays") {
		t.Errorf("the updated memory is not superseded:\n%s", old)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Mem-Supersedes: release-on-wednesdays") || !strings.Contains(msg, "Mem-Session: sess-2") {
		t.Errorf("commit message:\n%s", msg)
	}
	if files := git(t, dir, "show", "--name-only", "--format=", "HEAD"); strings.Count(files, ".md") != 2 {
		t.Errorf("the update commit holds %q; want the new memory and the superseded one", files)
	}

	// The memory to update changes while the model thinks: not updated.
	appendLines(t, tr, entry("user", "sess-2", "also: staging resets on saturdays now, not sundays"))
	a = askFunc(func(string) any {
		path := filepath.Join(dir, ".claude", "agent-memory", "staging-resets-on-sundays.md")
		data, _ := os.ReadFile(path)
		os.WriteFile(path, append(data, []byte("\nEdited by hand.\n")...), 0o644)
		return memories(capture.Proposal{Name: "Staging resets on Saturdays", Class: "fact", Body: "Staging data resets every Saturday.", Basis: "stated", Updates: "staging-resets-on-sundays"})
	})
	res, err = r.Capture(ctx, a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, mem.ReasonChanged) {
		t.Errorf("written %+v, skipped %+v", res.Written, res.Skipped)
	}
}

// A secret a tool printed reaches neither the model nor a memory.
func TestCaptureNeverSendsASecret(t *testing.T) {
	_, r := captureRepo(t)
	key := "ghp_8fK2mQ9xL3vR7tY1wZ5nB6cD4eG0hJ2kP9sA"
	tr := filepath.Join(t.TempDir(), "s3.jsonl")
	appendLines(t, tr,
		entry("user", "sess-3", "the deploy token is "+key+", why does the deploy fail?"),
		entry("assistant", "sess-3", "The deploy fails because the token lacks the packages scope."),
	)
	var prompt string
	a := askFunc(func(p string) any {
		prompt = p
		return memories(capture.Proposal{Name: "Deploy token needs packages scope", Class: "gotcha", Basis: "shown",
			Body: "The deploy token " + key + " lacks the packages scope."})
	})
	res, err := r.Capture(context.Background(), a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prompt, key) || res.Masked != 1 {
		t.Errorf("masked %d lines; the prompt holds the key: %v", res.Masked, strings.Contains(prompt, key))
	}
	if len(res.Written) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "GitHub token") {
		t.Errorf("written %+v, skipped %+v", res.Written, res.Skipped)
	}
}

// A memory kept against a mark says so in the commit: the developer's
// decision, which the assistant's hedged summary of it got marked a
// hypothesis, is kept, with a Mem-Note naming the mark.
func TestCaptureNotesAMarkItKeptAgainst(t *testing.T) {
	dir, r := captureRepo(t)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr,
		entry("user", "sess-n", "for the monthly refunds report, count refunds in the month of the original charge"),
		entry("user", "sess-n", "no wait, count refunds in the month they were issued. finance closes each month on what was paid back in it"),
		entry("assistant", "sess-n", "So refunds probably count in the month they were issued, because finance closes each month on what was paid back in it."),
	)
	a := askFunc(func(string) any {
		return memories(capture.Proposal{Name: "Refunds count in the month they were issued", Class: "decision", Basis: "stated",
			Description: "The refunds report counts a refund in the month it was issued",
			Body:        "The refunds report counts refunds in the month they were issued, not the month of the original charge.",
			Why:         "Finance closes each month on what was paid back in it.", Lines: capture.LineRefs{2, 3}})
	})
	res, err := r.Capture(context.Background(), a, tr, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written) != 1 {
		t.Fatalf("written %+v, skipped %+v", res.Written, res.Skipped)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	want := "Mem-Note: " + res.Written[0].Slug + `: "Refunds count in the month they were issued" kept though L3 is marked a hypothesis never confirmed: it says again the developer's L2`
	if !strings.Contains(msg, want) {
		t.Errorf("commit message lacks %q:\n%s", want, msg)
	}
}
