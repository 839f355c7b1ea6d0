package curator

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	shareddata "github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
)

type storeLabels struct {
	Identical  [][2]string `json:"identical_dupes"`
	Near       [][2]string `json:"near_dupes"`
	Supersedes []struct {
		Newer, Older, Why string
	} `json:"supersedes"`
	Traps []struct {
		A, B, Why string
	} `json:"false_contradictions"`
	DeadPaths []DeadPath `json:"dead_paths"`
	LivePaths []DeadPath `json:"live_paths"`
}

// fixture loads ../shared/eval/store and its labels, or skips the test.
func fixture(t testing.TB) ([]Memory, storeLabels) {
	t.Helper()
	mems, l := loadStore(t, shareddata.Need(t, "eval", "store"), shareddata.Path("eval", "store-labels.json"))
	// The tests check each kind of label in turn; one that read nothing
	// would pass without checking anything.
	for what, n := range map[string]int{
		"memories": len(mems), "identical_dupes": len(l.Identical), "near_dupes": len(l.Near),
		"supersedes": len(l.Supersedes), "false_contradictions": len(l.Traps),
		"dead_paths": len(l.DeadPaths), "live_paths": len(l.LivePaths),
	} {
		if n == 0 {
			t.Fatalf("the evaluation store has no %s", what)
		}
	}
	return mems, l
}

// loadStore reads the memories of dir (MEMORY.md aside) and the labels of
// the file labels.
func loadStore(t testing.TB, dir, labels string) ([]Memory, storeLabels) {
	t.Helper()
	var mems []Memory
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "MEMORY.md" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := mdparse.Parse(p, b)
		if err != nil {
			return err
		}
		mems = append(mems, Memory{Slug: strings.TrimSuffix(d.Name(), ".md"), M: m})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var l storeLabels
	b, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return mems, l
}

// labelAsker answers like a model that knows store-labels.json: true
// supersessions confidently and fully, the false contradictions confidently
// but with partial coverage, everything else "unrelated".
type labelAsker struct {
	verdicts map[[2]string]Verdict
	mu       sync.Mutex
	asked    []string // "a|b" per call, in order
}

func newLabelAsker(l storeLabels) *labelAsker {
	a := &labelAsker{verdicts: map[[2]string]Verdict{}}
	for _, s := range l.Supersedes {
		a.verdicts[pairKey(s.Newer, s.Older)] = Verdict{
			Relation: RelSupersedes, Keep: s.Newer, Retire: s.Older, Confidence: 0.9,
			Coverage: CoverageFull, Reason: s.Why,
		}
	}
	for _, tr := range l.Traps {
		a.verdicts[pairKey(tr.A, tr.B)] = Verdict{
			Relation: RelSupersedes, Keep: tr.B, Retire: tr.A, Confidence: 0.9,
			Coverage: CoveragePartial, Reason: "looks like " + tr.B + " replaces " + tr.A,
		}
	}
	return a
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

var (
	promptSlug = regexp.MustCompile(`(?m)^=== memory "([^"]+)" ===$`)
	mergeBody  = regexp.MustCompile(`(?s)\nbody:\n(.*?)\n=== end of (?:kept|retired) memory`)
)

// Ask answers a pair prompt from the labels, and a merge prompt as the
// model it asks must: every word of both bodies kept, nothing outdated.
func (a *labelAsker) Ask(ctx context.Context, prompt string, out any) error {
	if b := mergeBody.FindAllStringSubmatch(prompt, -1); len(b) == 2 {
		return modeltest.Decode(Merge{Body: b[0][1] + "\n\n" + b[1][1], Outdated: []Replaced{}}, out)
	}
	m := promptSlug.FindAllStringSubmatch(prompt, -1)
	if len(m) != 2 {
		return fmt.Errorf("prompt names %d memories", len(m))
	}
	x, y := m[0][1], m[1][1]
	a.mu.Lock()
	a.asked = append(a.asked, x+"|"+y)
	a.mu.Unlock()
	v, ok := a.verdicts[pairKey(x, y)]
	if !ok {
		v = Verdict{Relation: RelUnrelated, Confidence: 0.9, Coverage: CoveragePartial, Reason: "different subjects"}
	}
	return modeltest.Decode(v, out)
}

// dirChecker answers from a directory that holds the repositories: a path
// exists at the root or under one of its first-level directories (a path may
// omit its repository). It is known to be missing when its first directory
// exists at one of those places; otherwise the checker cannot tell.
type dirChecker struct{ root string }

var _ PathChecker = dirChecker{}

func (c dirChecker) Exists(p string) (exists, known bool) {
	p = filepath.FromSlash(strings.TrimPrefix(p, "./"))
	bases := []string{c.root}
	ents, _ := os.ReadDir(c.root)
	for _, e := range ents {
		if e.IsDir() {
			bases = append(bases, filepath.Join(c.root, e.Name()))
		}
	}
	first := strings.SplitN(filepath.ToSlash(p), "/", 2)[0]
	for _, b := range bases {
		if _, err := os.Stat(filepath.Join(b, p)); err == nil {
			return true, true
		}
		if fi, err := os.Stat(filepath.Join(b, first)); err == nil && fi.IsDir() {
			known = true
		}
	}
	return false, known
}

func codebase(t *testing.T) dirChecker {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(shareddata.Need(t, "eval", "codebase"))); err != nil {
		t.Fatal(err)
	}
	return dirChecker{dst}
}

func TestFixture(t *testing.T) {
	mems, l := fixture(t)
	asker := newLabelAsker(l)
	var progress [][2]int
	o := Options{Model: asker, Paths: codebase(t), Progress: func(d, n int) { progress = append(progress, [2]int{d, n}) }}
	r, err := Run(context.Background(), mems, o)
	if err != nil {
		t.Fatal(err)
	}

	// Duplicates: every labelled identical pair, kept memory first.
	dups := map[[2]string]bool{}
	for _, d := range r.Duplicates {
		dups[pairKey(d[0], d[1])] = true
	}
	for _, p := range l.Identical {
		if !dups[pairKey(p[0], p[1])] {
			t.Errorf("identical duplicates %s and %s not found", p[0], p[1])
		}
	}
	near := 0
	for _, p := range l.Near {
		if dups[pairKey(p[0], p[1])] {
			near++
		}
	}
	t.Logf("duplicates: %d reported; identical %d/%d; near-duplicate recall %d/%d (paraphrases: left to the model pass)",
		len(r.Duplicates), len(l.Identical), len(l.Identical), near, len(l.Near))

	// Dead paths: all labelled ones, no live one.
	dead := map[DeadPath]bool{}
	for _, d := range r.DeadPaths {
		dead[d] = true
	}
	for _, d := range l.DeadPaths {
		if !dead[d] {
			t.Errorf("dead path %s in %s not found", d.Path, d.Memory)
		}
	}
	for _, d := range l.LivePaths {
		if dead[d] {
			t.Errorf("live path %s in %s reported dead", d.Path, d.Memory)
		}
	}
	for _, d := range r.DeadPaths {
		if !slices.Contains(l.DeadPaths, d) {
			t.Errorf("unlabelled dead path %s in %s", d.Path, d.Memory)
		}
	}

	// Supersessions: every one surfaced, and applied unless a guard says no.
	idx := map[string]int{}
	for i, m := range mems {
		idx[m.Slug] = i
	}
	surfaced := map[[2]string]bool{}
	for _, p := range CandidatePairs(mems) {
		surfaced[pairKey(mems[p[0]].Slug, mems[p[1]].Slug)] = true
	}
	applied := map[[2]string]Decision{}
	for _, d := range r.Apply {
		applied[[2]string{d.Keep, d.Retire}] = d
	}
	queued := map[[2]string]ReviewItem{}
	for _, it := range r.Review {
		queued[pairKey(it.A, it.B)] = it
	}
	for _, s := range l.Supersedes {
		if !surfaced[pairKey(s.Newer, s.Older)] {
			t.Errorf("supersession %s → %s is not a candidate pair", s.Older, s.Newer)
			continue
		}
		if _, ok := applied[[2]string{s.Newer, s.Older}]; ok {
			continue
		}
		a, b := mems[idx[s.Newer]], mems[idx[s.Older]]
		if ca, cb := a.M.EffectiveClass(), b.M.EffectiveClass(); ca != cb {
			// The class guard holds even for a true supersession.
			it, ok := queued[pairKey(s.Newer, s.Older)]
			if !ok || !strings.Contains(it.Reason, "class "+ca+"≠"+cb) {
				t.Errorf("supersession %s → %s across classes %s/%s: want it queued for the class, got %+v", s.Older, s.Newer, ca, cb, it)
			} else {
				t.Logf("queued, not applied (class guard): %s → %s: %s", s.Older, s.Newer, it.Reason)
			}
			continue
		}
		t.Errorf("supersession %s → %s not applied; review: %+v", s.Older, s.Newer, queued[pairKey(s.Newer, s.Older)])
	}
	for _, tr := range l.Traps {
		for _, d := range r.Apply {
			if pairKey(d.Keep, d.Retire) == pairKey(tr.A, tr.B) {
				t.Errorf("trap applied: %+v", d)
			}
		}
		if it, ok := queued[pairKey(tr.A, tr.B)]; ok {
			t.Logf("trap queued: %s / %s: %s", tr.A, tr.B, it.Reason)
		} else if surfaced[pairKey(tr.A, tr.B)] {
			t.Errorf("trap %s / %s surfaced but neither applied nor queued", tr.A, tr.B)
		} else {
			t.Logf("trap not a candidate pair: %s / %s", tr.A, tr.B)
		}
	}
	for _, d := range r.Apply {
		if len(d.Guards) == 0 || d.Confidence < MinConfidence {
			t.Errorf("decision without guards: %+v", d)
		}
	}

	// Progress: once with 0, then once per pair.
	if n := len(progress); n == 0 {
		t.Error("progress never called")
	} else if progress[0][0] != 0 || progress[n-1][0] != progress[0][1] {
		t.Errorf("progress calls: first %v last %v of %d", progress[0], progress[n-1], n)
	}

	// Deterministic: the same answers give the same result, in the same order.
	r2, err := Run(context.Background(), mems, Options{Model: newLabelAsker(l), Paths: o.Paths})
	if err != nil {
		t.Fatal(err)
	}
	r.Unasked, r2.Unasked = 0, 0
	if a, b := mustJSON(t, r), mustJSON(t, r2); a != b {
		t.Errorf("second run differs:\n%s\n%s", a, b)
	}

	t.Logf("fixture: %d memories; found %d duplicates, %d dead paths; %d model calls; applied %d; queued %d",
		len(mems), len(r.Duplicates), len(r.DeadPaths), len(asker.asked), len(r.Apply), len(r.Review))
	for _, d := range r.Apply {
		t.Logf("applied: keep %s, retire %s (%s)", d.Keep, d.Retire, strings.Join(d.Guards, "; "))
	}
	for _, it := range r.Review {
		t.Logf("queued: %s / %s: %s", it.A, it.B, it.Reason)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNearDuplicateThreshold measures the shingle threshold against the
// labelled duplicates: every pair above it must be a labelled duplicate.
func TestNearDuplicateThreshold(t *testing.T) {
	mems, l := fixture(t)
	want := map[[2]string]string{}
	for _, p := range l.Identical {
		want[pairKey(p[0], p[1])] = "identical"
	}
	for _, p := range l.Near {
		want[pairKey(p[0], p[1])] = "near"
	}
	c := &run{mems: mems, fs: make([]*features, len(mems))}
	for i, m := range mems {
		c.fs[i] = featuresOf(m.M)
	}
	tp, fp := map[string]int{}, 0
	bestOther, bestOtherPair := 0.0, ""
	for i := range mems {
		for j := i + 1; j < len(mems); j++ {
			k := pairKey(mems[i].Slug, mems[j].Slug)
			jac, _ := resemblance(c.fs[i].shingles, c.fs[j].shingles)
			if c.isNear(i, j) {
				if kind, ok := want[k]; ok {
					tp[kind]++
				} else {
					fp++
					t.Errorf("near-duplicate not in the labels: %s / %s (%s)", k[0], k[1], c.resemblance(i, j))
				}
			} else if _, ok := want[k]; !ok && jac > bestOther {
				bestOther, bestOtherPair = jac, c.resemblance(i, j)+" "+k[0]+" / "+k[1]
			}
		}
	}
	if tp["identical"] != len(l.Identical) {
		t.Errorf("identical duplicates above the threshold: %d of %d", tp["identical"], len(l.Identical))
	}
	found := tp["identical"] + tp["near"]
	t.Logf("near-duplicate threshold jaccard>=%.2f or containment>=%.2f: precision %d/%d, recall %d/%d (identical %d/%d, near %d/%d); best unlabelled pair: %s",
		NearDuplicate, NearContainment, found, found+fp, found, len(want), tp["identical"], len(l.Identical), tp["near"], len(l.Near), bestOtherPair)
}
