package mem_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/modelcmd"
)

// gatedModel is a model executable that holds every call until the test
// releases it: it touches <dir>/started, waits for <dir>/release, then
// prints <dir>/answer. A real process, so the passes run through the real
// model runner.
type gatedModel struct{ dir string }

func newGatedModel(t *testing.T, answer any) (*gatedModel, *modelcmd.Runner) {
	t.Helper()
	g := &gatedModel{dir: t.TempDir()}
	b, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g.dir, "answer"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`#!/bin/sh
cat >/dev/null
touch %[1]q/started
while [ ! -e %[1]q/release ]; do sleep 0.02; done
cat %[1]q/answer
`, g.dir)
	exe := filepath.Join(g.dir, "model")
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return g, &modelcmd.Runner{Command: []string{exe}, Timeout: time.Minute}
}

// waitStarted waits until the model has been asked (or the pass ended
// without asking, which fails the test).
func (g *gatedModel) waitStarted(t *testing.T, done <-chan struct{}) {
	t.Helper()
	for {
		if _, err := os.Stat(filepath.Join(g.dir, "started")); err == nil {
			return
		}
		select {
		case <-done:
			t.Fatal("the pass ended without asking the model")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (g *gatedModel) release(t *testing.T) {
	if err := os.WriteFile(filepath.Join(g.dir, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func newRepo(t *testing.T) *mem.Repo {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.name", "Ada"}, {"config", "user.email", "ada@example.com"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	// The memories below cite shop/checkout/tax.py, which does not exist in
	// a tree that has shop/: a claim the verifier can refute.
	if err := os.MkdirAll(filepath.Join(dir, "shop", "checkout"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, _, err := mem.Init(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func store(t *testing.T, r *mem.Repo, n mem.Note) string {
	t.Helper()
	w, err := r.Store(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return w.Slug
}

var (
	vatTotal = mem.Note{Class: "gotcha", Name: "VAT rounded on the order total", Tags: []string{"checkout", "vat"},
		Description: "Spanish VAT is rounded once on the order total",
		Body:        "Rounding happens in `shop/checkout/tax.py`, on the total."}
	vatLine = mem.Note{Class: "gotcha", Name: "VAT rounds per order line", Tags: []string{"checkout", "vat"},
		Description: "Spanish VAT is rounded per order line, never on the total",
		Body:        "Since LRK-412 rounding is per line in `shop/checkout/tax.py`."}
)

// TestPassesNeverMakeWritersWait runs each offline pass against a model
// that does not answer until the test says so: while it waits, ten
// concurrent stores all commit (they would wait out the model if the pass
// held the store's lock: their context then runs out and the test fails),
// and a memory the pass is working on is edited by hand. Once the model
// answers, the pass leaves that memory as the person left it.
func TestPassesNeverMakeWritersWait(t *testing.T) {
	tests := []struct {
		name   string
		answer any
		// run runs the pass and returns what it says about the edited memory.
		run    func(ctx context.Context, r *mem.Repo, m modelcmd.Asker) (string, error)
		edited string // the memory edited mid-pass
	}{
		{
			name:   "enrich",
			answer: map[string]any{"aliases": map[string][]string{"vat-rounded-on-the-order-total": {"why is my basket a cent off", "invoice penny short"}}},
			run: func(ctx context.Context, r *mem.Repo, m modelcmd.Asker) (string, error) {
				res, err := r.Enrich(ctx, mem.EnrichOptions{Model: m, Slugs: []string{"vat-rounded-on-the-order-total"}})
				if len(res) != 1 {
					return "", fmt.Errorf("enriched %+v, want one", res)
				}
				return res[0].Skipped, err
			},
			edited: "vat-rounded-on-the-order-total",
		},
		{
			name: "curate",
			answer: curator.Verdict{Relation: curator.RelSupersedes, Keep: "vat-rounds-per-order-line", Retire: "vat-rounded-on-the-order-total",
				Confidence: 0.9, Coverage: curator.CoverageFull, Reason: "the rounding rule changed"},
			run: func(ctx context.Context, r *mem.Repo, m modelcmd.Asker) (string, error) {
				res, err := r.Curate(ctx, mem.CurateOptions{Model: m})
				if len(res.Apply) != 0 || len(res.Changed) != 1 {
					return "", fmt.Errorf("applied %+v, changed %+v: want the one decision left for a change", res.Apply, res.Changed)
				}
				return mem.ReasonChanged, err
			},
			edited: "vat-rounded-on-the-order-total",
		},
		{
			name:   "verify",
			answer: map[string]any{"claims": []any{}},
			run: func(ctx context.Context, r *mem.Repo, m modelcmd.Asker) (string, error) {
				res, err := r.Verify(ctx, mem.VerifyOptions{Model: m, Slugs: []string{"vat-rounded-on-the-order-total"}})
				if len(res.Labelled) != 0 || len(res.Changed) != 1 {
					return "", fmt.Errorf("labelled %v, changed %v: want the memory left for its change", res.Labelled, res.Changed)
				}
				return mem.ReasonChanged, err
			},
			edited: "vat-rounded-on-the-order-total",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			store(t, r, vatTotal)
			store(t, r, vatLine)
			g, m := newGatedModel(t, tt.answer)

			type outcome struct {
				skipped string
				err     error
			}
			passDone := make(chan struct{})
			var got outcome
			go func() {
				defer close(passDone)
				got.skipped, got.err = tt.run(context.Background(), r, m)
			}()
			g.waitStarted(t, passDone)

			// Ten writers at once, each from a Repo of its own as ten
			// processes would be.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var wg sync.WaitGroup
			errs := make([]error, 10)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w, err := mem.Open(r.Place.WorkTree, "")
					if err == nil {
						_, err = w.Store(ctx, mem.Note{Name: fmt.Sprintf("writer %02d", i), Body: "stored while a pass waited on its model"})
					}
					errs[i] = err
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("store %d while the model was asked: %v", i, err)
				}
			}
			select {
			case <-passDone:
				t.Fatal("the pass ended before its model answered")
			default:
			}

			// A person edits the memory the pass is working on.
			path := filepath.Join(r.Place.Store, tt.edited+".md")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := string(data) + "\nEdited by hand while the pass ran.\n"
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}

			g.release(t)
			<-passDone
			if got.err != nil {
				t.Fatal(got.err)
			}
			if got.skipped != mem.ReasonChanged {
				t.Errorf("the pass says %q about the edited memory, want %q", got.skipped, mem.ReasonChanged)
			}
			if now, _ := os.ReadFile(path); string(now) != edited {
				t.Errorf("the edited memory was overwritten:\n%s", now)
			}
			list, _, err := r.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 12 {
				t.Errorf("%d memories listed, want 12", len(list))
			}
		})
	}
}

// TestEnrichAppliesWhatDidNotChange: memories no one touched during the
// pass get the model's aliases, in one commit for the pass, and say why
// they needed them.
func TestEnrichAppliesWhatDidNotChange(t *testing.T) {
	r := newRepo(t)
	store(t, r, vatTotal)
	store(t, r, vatLine)
	g, m := newGatedModel(t, map[string]any{"aliases": map[string][]string{
		"vat-rounded-on-the-order-total": {"why is my basket a cent off"},
		"vat-rounds-per-order-line":      {"why is my basket a cent off"},
	}})
	g.release(t)
	res, err := r.Enrich(context.Background(), mem.EnrichOptions{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Fatalf("enriched %+v, want both memories", res)
	}
	for _, e := range res {
		if e.Commit == "" || e.Skipped != "" || strings.Join(e.Aliases, ";") != "why is my basket a cent off" || e.Need != "missing" {
			t.Errorf("%+v", e)
		}
	}
	if res[0].Commit != res[1].Commit {
		t.Errorf("commits %.12s and %.12s, want one for the pass", res[0].Commit, res[1].Commit)
	}
}

// TestLearnAlias: a learned alias is one commit (Mem-Action: learn-alias)
// that mem undo takes back; the filter's refusals and a retired memory
// write nothing.
func TestLearnAlias(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	total := store(t, r, vatTotal)
	line := store(t, r, vatLine)
	w, refused, err := r.LearnAlias(ctx, total, "my basket is a penny short", "used")
	if err != nil || refused != "" || w.Commit == "" {
		t.Fatalf("LearnAlias: %+v, %q, %v", w, refused, err)
	}
	log, err := r.Log(context.Background(), 1)
	if err != nil || len(log) != 1 || log[0].Action != "learn-alias" || log[0].Slug != total {
		t.Fatalf("log %+v, %v", log, err)
	}
	if !slices.Contains(log[0].Trailers, gitstore.Trailer{Key: "Mem-Alias", Value: "my basket is a penny short"}) {
		t.Errorf("trailers %+v", log[0].Trailers)
	}
	if _, err := r.Undo(ctx, w.Commit); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(r.Place.Store, total+".md")); strings.Contains(string(data), "aliases") {
		t.Errorf("undo left the alias:\n%s", data)
	}

	head := func() string {
		out, err := exec.Command("git", "-C", r.Place.WorkTree, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	before := head()
	for _, tt := range []struct{ slug, alias, want string }{
		{total, "order total vat", "copies the memory's own terms"},
		{total, "token ghp_gLKOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtH", "looks like a secret"},
	} {
		if _, refused, err := r.LearnAlias(ctx, tt.slug, tt.alias, "used"); err != nil || refused != tt.want {
			t.Errorf("LearnAlias(%q) refused %q, %v; want %q", tt.alias, refused, err, tt.want)
		}
	}
	if head() != before {
		t.Error("a refused alias made a commit")
	}
	if _, err := r.Store(ctx, mem.Note{Name: "VAT rounds per line, Portugal too", Body: "Per line in Spain and Portugal.", Supersedes: line}); err != nil {
		t.Fatal(err)
	}
	before = head()
	if _, refused, err := r.LearnAlias(ctx, line, "lisbon cent off", "used"); err != nil || !strings.Contains(refused, "superseded") {
		t.Errorf("a superseded memory: refused %q, %v", refused, err)
	}
	if head() != before {
		t.Error("a refused alias made a commit")
	}
}

// TestCaptureLeavesWhatWasStoredMeanwhile: capture asks its model without
// the store's lock, so writers go on; a memory a person stored meanwhile
// under the name the model proposes is left as the person wrote it, and
// the proposal is reported skipped.
func TestCaptureLeavesWhatWasStoredMeanwhile(t *testing.T) {
	r := newRepo(t)
	store(t, r, vatLine)
	session := filepath.Join(t.TempDir(), "session.jsonl")
	err := os.WriteFile(session, []byte(`{"type":"user","message":{"role":"user","content":"why did studios get billed twice?"},"uuid":"u1","sessionId":"s"}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"The invoice job was run by hand at 14:00 after the nightly run at 02:00 UTC."}]},"uuid":"a1","sessionId":"s"}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	g, m := newGatedModel(t, map[string]any{"memories": []map[string]any{{
		"name": "Invoices are generated nightly at 02:00 UTC", "description": "The invoice job runs at 02:00 UTC; manual runs double-bill",
		"class": "gotcha", "importance": 6, "tags": []string{"invoices"},
		"body": "Do not run the invoice job by hand during the day.", "why": "A manual run billed 40 studios twice.",
	}}})
	done := make(chan struct{})
	var res mem.Captured
	var capErr error
	go func() {
		defer close(done)
		res, capErr = r.Capture(context.Background(), m, session, 5)
	}()
	g.waitStarted(t, done)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := r.Store(ctx, mem.Note{Name: "Invoices are generated nightly at 02:00 UTC", Body: "Written by hand while capture ran."})
	if err != nil {
		t.Fatalf("store while capture asked its model: %v", err)
	}
	g.release(t)
	<-done
	if capErr != nil {
		t.Fatal(capErr)
	}
	if len(res.Written) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "already exists") {
		t.Fatalf("written %+v, skipped %+v", res.Written, res.Skipped)
	}
	data, err := os.ReadFile(filepath.Join(r.Place.Store, w.Slug+".md"))
	if err != nil || !strings.Contains(string(data), "Written by hand while capture ran.") || strings.Contains(string(data), "double-bill") {
		t.Errorf("the person's memory was overwritten (%v):\n%s", err, data)
	}
}
