package mem_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/capture"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/secrets"
)

// longSets are the directories of long sessions capture was not tuned on,
// internal/capture/testdata/long*: each holds sessions (sN.jsonl), the store
// they are captured into (store/), their labels (labels.json, the dev
// labels' shape with "stale", the store memories a session shows out of
// date, and "arcs", see internal/capture's marks test) and the recorded
// answers to their prompts (cassette.jsonl, when recorded).
func longSets(t *testing.T) []string {
	t.Helper()
	sets, err := filepath.Glob(filepath.Join("internal", "capture", "testdata", "long*", "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range sets {
		sets[i] = filepath.Dir(l)
	}
	return sets
}

// LongCassetteEnv names a cassette of answers to the long sessions'
// prompts in place of each set's cassette.jsonl.
const LongCassetteEnv = "MEM_CAPTURE_LONG_CASSETTE"

type longLabels struct {
	sessionLabels
	// Stale are the store's memories the session showed out of date, each
	// with what is true now.
	Stale []struct {
		Slug string `json:"slug"`
		New  string `json:"new"`
	} `json:"stale"`
}

// promptsSeen is an Asker that keeps every prompt it passes on.
type promptsSeen struct {
	modelcmd.Asker
	mu      sync.Mutex
	prompts []string
}

func (p *promptsSeen) Ask(ctx context.Context, prompt string, out any) error {
	p.mu.Lock()
	p.prompts = append(p.prompts, prompt)
	p.mu.Unlock()
	return p.Asker.Ask(ctx, prompt, out)
}

// TestCaptureLongSessions captures each long session into a repository
// holding longDir's store, replaying a real model's recorded answers to the
// exact prompts mem capture sends, and judges what it wrote as the dev
// sessions are judged: every truth kept, no refuted or unconfirmed belief
// stated as true, no repeat of the store; and besides, each stale memory
// superseded, and no secret in a prompt or a memory. A session whose prompt
// the cassette does not hold is skipped: its prompt is not recorded.
func TestCaptureLongSessions(t *testing.T) {
	sets := longSets(t)
	if len(sets) == 0 {
		t.Skip("skipping: no long sessions under internal/capture/testdata")
	}
	var table []string
	var total struct{ truths, labelled, stored int }
	defer func() {
		t.Logf("capture on the long sessions:\n%s\ntruths kept %d of %d; refuted or unconfirmed stored %d", strings.Join(table, "\n"), total.truths, total.labelled, total.stored)
	}()
	for _, set := range sets {
		t.Run(filepath.Base(set), func(t *testing.T) {
			captureLongSet(t, set, &table, &total.truths, &total.labelled, &total.stored)
		})
	}
	// The recorded answers (committed beside the sessions) propose 26 of the
	// 27 truths; capture kept every one proposed. The one not proposed (long/
	// s1, how GPU jobs are billed) is what the session read in the rates
	// code, which the prompt says not to propose.
	if floor := 26; total.truths < floor {
		t.Errorf("kept %d truths of %d; the floor is %d", total.truths, total.labelled, floor)
	}
	// The judge finds two refuted beliefs stated as true, each a sentence
	// that names the refuted cause in a memory that says it was not the
	// cause: long-newsroom quotes the purger's log line ("ignored event
	// event=entry.update"), long-genomics says the withName blocks override
	// any process_high setting. Read, both are sound; any more is a
	// regression.
	if ceiling := 2; total.stored > ceiling {
		t.Errorf("%d refuted or unconfirmed beliefs stored as true; the recorded answers store %d, read as sound", total.stored, ceiling)
	}
}

// captureLongSet captures and judges each session of the set in dir,
// adding a row to table and its truths to kept and labelled.
func captureLongSet(t *testing.T, dir string, table *[]string, kept, labelled, stored *int) {
	raw, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels map[string]longLabels
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatalf("%s: %v", filepath.Join(dir, "labels.json"), err)
	}
	cassette := os.Getenv(LongCassetteEnv)
	if cassette == "" {
		cassette = filepath.Join(dir, "cassette.jsonl")
	}
	if _, err := os.Stat(cassette); err != nil {
		t.Skipf("skipping: prompt not recorded: no answers to the prompts of %s at %s (set %s to a cassette of {\"sha256\",\"answer\"} lines, or commit one there)", dir, cassette, LongCassetteEnv)
	}
	c, err := modeltest.LoadCassette(cassette)
	if err != nil {
		t.Fatal(err)
	}
	store, err := filepath.Abs(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(labels))
	for name := range labels {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		lab := labels[name]
		t.Run(name, func(t *testing.T) {
			repo, r := evalRepo(t, store)
			seen := &promptsSeen{Asker: c}
			res, texts := captureOnce(t, repo, r, seen, filepath.Join(dir, name))
			for _, p := range seen.prompts {
				if fs := secrets.Scan(p); len(fs) > 0 {
					t.Errorf("the prompt shows the model %s", fs[0].Pattern)
				}
			}
			entries, _, err := r.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			updated := 0
			for _, st := range lab.Stale {
				slug := st.Slug
				i := slices.IndexFunc(entries, func(e mem.Entry) bool { return e.Slug == slug })
				switch {
				case i < 0:
					t.Errorf("labels: the stale memory %s is not in the store", slug)
				case entries[i].SupersededBy == "":
					t.Errorf("the stale memory %s is not superseded", slug)
				default:
					updated++
				}
			}
			// A truth the model did not propose is the model's miss, counted
			// against the floor; one it proposed and capture dropped is
			// capture's loss, an error.
			truths := 0
			for _, c := range lab.MustCapture {
				switch {
				case holdsClaim(texts, c):
					truths++
				case slices.ContainsFunc(res.Skipped, func(s capture.Skipped) bool { return holdsClaim([]string{proposalText(s.Proposal)}, c) }):
					t.Errorf("truth proposed and dropped: %s", c.Claim)
				default:
					t.Logf("truth the model did not propose: %s", c.Claim)
				}
			}
			*kept += truths
			*labelled += len(lab.MustCapture)
			wrong, dups := judgeWrong(t, r, lab.sessionLabels, res.Written, texts)
			*stored += wrong
			*table = append(*table, fmt.Sprintf("%s  %v  truths %d/%d  refuted or unconfirmed stored %d/%d  stale superseded %d/%d  repeats of the store %d  masked %d",
				filepath.Join(filepath.Base(dir), name), outcomeOf(res), truths, len(lab.MustCapture), wrong, len(lab.MustNotCapture), updated, len(lab.Stale), dups, res.Masked))
		})
	}
}

// proposalText is what a proposal says, as a written memory would.
func proposalText(p capture.Proposal) string {
	return strings.Join([]string{p.Name, p.Description, p.Body, p.Why}, "\n")
}
