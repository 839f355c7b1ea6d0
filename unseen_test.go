package mem_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/enrich/enrichtest"
	"github.com/mem-dev/mem/internal/eval"
	"github.com/mem-dev/mem/internal/gittest"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/search"
)

func TestMain(m *testing.M) { gittest.Main(m, "[init]\n\tdefaultBranch = main\n") }

// TestUnseenStores runs our own prompts (eval/testdata) against real memory
// stores written by others, which the method was not tuned on, and against
// the dev battery's store with prompts written apart from that battery,
// through the product's whole path: the store copied into a git repository,
// indexed as `mem index` does (subdirectories, MEMORY.md sections) and
// searched as the hook does. The floors are what the method measured when it last changed.
//
// Each store is measured as found and enriched: with the aliases a real
// model wrote for it (enrichtest), since a user's store gets them without
// asking.
func TestUnseenStores(t *testing.T) {
	const larkspur = "eval/store" // the dev battery's store
	for _, c := range []struct {
		battery, src, store string // src: the store's folder in the shared data, or in eval/testdata
		recording           int    // 0: as found; 1, 2: enriched from the first or the second recording of a model's answers
		hit2, silence, prec float64
	}{
		// Stores of other domains with their labels (eval/testdata/STORES.md):
		// fernhill is tuned on, quarry is the test store, never tuned on.
		{"fernhill/battery.jsonl", "fernhill/store", ".claude/agent-memory", 0, 0.57, 0.88, 0.57},
		{"fernhill/battery.jsonl", "fernhill/store", ".claude/agent-memory", 1, 0.76, 0.90, 0.71},
		{"quarry/battery.jsonl", "quarry/store", ".claude/agent-memory", 0, 0.63, 0.88, 0.59},
		{"quarry/battery.jsonl", "quarry/store", ".claude/agent-memory", 1, 0.77, 0.83, 0.69},
		// A second draw of the model's aliases: how much of a figure is the draw.
		{"fernhill/battery.jsonl", "fernhill/store", ".claude/agent-memory", 2, 0.72, 0.87, 0.67},
		{"quarry/battery.jsonl", "quarry/store", ".claude/agent-memory", 2, 0.73, 0.82, 0.67},
		{"application-pipeline.jsonl", external + "4444J99__application-pipeline/.claude/memory", ".claude/memory", 0, 0.90, 1, 0.75},
		{"bga-assistant.jsonl", external + "AnotherSava__bga-assistant/.claude/memory", ".claude/memory", 0, 0.80, 1, 0.75},
		{"niotebook.jsonl", external + "Akram012388__niotebook_v0.2/.claude/agent-memory", ".claude/agent-memory", 0, 0.75, 1, 0.85},
		{"compose-envkit.jsonl", external + "InfernalRabbit__compose-envkit/.claude/agent-memory", ".claude/agent-memory", 0, 0.90, 1, 0.70},
		// Written by someone who saw the memories, not the battery or the code.
		{"larkspur.jsonl", larkspur, ".claude/agent-memory", 0, 0.74, 0.94, 0.52},
		{"application-pipeline.jsonl", external + "4444J99__application-pipeline/.claude/memory", ".claude/memory", 1, 1, 1, 0.90},
		// "run the tests again please and tell me what fails" meets the
		// memory about tests and gitignored data through an alias.
		{"bga-assistant.jsonl", external + "AnotherSava__bga-assistant/.claude/memory", ".claude/memory", 1, 0.90, 0.75, 0.81},
		{"niotebook.jsonl", external + "Akram012388__niotebook_v0.2/.claude/agent-memory", ".claude/agent-memory", 1, 0.75, 1, 0.85},
		{"compose-envkit.jsonl", external + "InfernalRabbit__compose-envkit/.claude/agent-memory", ".claude/agent-memory", 1, 0.90, 1, 0.89},
		{"larkspur.jsonl", larkspur, ".claude/agent-memory", 1, 0.72, 0.88, 0.62},
	} {
		name := c.battery
		if c.recording > 0 {
			name += "/enriched"
		}
		if c.recording == 2 {
			name += "/recording-2"
		}
		t.Run(name, func(t *testing.T) {
			src, labels := "", eval.Labels{}
			if local := filepath.Dir(c.battery); local != "." { // a store of our own, beside its battery
				src = filepath.Join("internal", "eval", "testdata", local, "store")
				labels = readLabels(t, filepath.Join("internal", "eval", "testdata", local, "labels.json"))
			} else {
				src = shareddata.Need(t, strings.Split(c.src, "/")...)
			}
			var answers *modeltest.Cassette
			switch c.recording {
			case 1:
				answers = enrichtest.Cassette(t)
			case 2:
				answers = enrichtest.SecondCassette(t)
			}
			ix := indexStoreFrom(t, src, c.store, answers)
			defer ix.Close()
			f, err := os.Open(filepath.Join("internal", "eval", "testdata", c.battery))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cases, err := eval.ReadBattery(f)
			if err != nil {
				t.Fatal(err)
			}
			cases = eval.WithDuplicates(cases, labels)
			// eval.Run scores a ratio with nothing to count as 1: without
			// topical and silent cases the floors would hold whatever.
			topical := slices.IndexFunc(cases, func(c eval.Case) bool { return len(c.Expect) > 0 }) >= 0
			silent := slices.IndexFunc(cases, func(c eval.Case) bool { return len(c.Expect) == 0 }) >= 0
			if !topical || !silent {
				t.Fatalf("%s needs topical and silent cases", c.battery)
			}
			rep := eval.Run(ix, cases, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			t.Log(rep.Figures())
			if rep.HitAt2 < c.hit2 || rep.Silence < c.silence || rep.Precision < c.prec {
				t.Errorf("hit@2 %.2f, silence %.2f, precision %.2f; floors %.2f, %.2f, %.2f", rep.HitAt2, rep.Silence, rep.Precision, c.hit2, c.silence, c.prec)
			}
		})
	}
}

// indexStore copies the store at src to rel in a fresh git repository,
// enriches it from the recorded cassette when enriched is set, and indexes
// it as `mem index` does (subdirectories, MEMORY.md sections).
func indexStore(t *testing.T, src, rel string, enriched bool) *search.Index {
	t.Helper()
	var c *modeltest.Cassette
	if enriched {
		c = enrichtest.Cassette(t)
	}
	return indexStoreFrom(t, src, rel, c)
}

// indexStoreFrom is indexStore enriching from c, as found when c is nil.
func indexStoreFrom(t *testing.T, src, rel string, c *modeltest.Cassette) *search.Index {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	store := filepath.Join(dir, rel)
	if err := os.CopyFS(store, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if c != nil {
		enrichtest.Enrich(t, c, store)
	}
	r, err := mem.Open(dir, store)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := r.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// readLabels reads a store's labels file.
func readLabels(t *testing.T, path string) eval.Labels {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels, err := eval.ReadLabels(f)
	if err != nil {
		t.Fatal(err)
	}
	return labels
}
