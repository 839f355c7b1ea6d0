package eval

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/enrich/enrichtest"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

func TestReadBattery(t *testing.T) {
	in := `{"id": "a", "prompt": "how do we release", "expect": ["release"]}

{"id": "b", "prompt": "thanks", "previous": "done", "expect": []}
`
	cases, err := ReadBattery(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[1].Previous != "done" || cases[1].Expect == nil || len(cases[1].Expect) != 0 {
		t.Fatalf("cases = %+v", cases)
	}
	for _, c := range []struct{ in, want string }{
		{`{"id": "a", "prompt": "x", "expect": []}` + "\n{oops", "battery line 2: "},
		{`{"id": "a", "prompt": "x"}`, "battery line 1: missing expect"},
		{`{"prompt": "x", "expect": []}`, "battery line 1: missing id"},
		{`{"id": "a", "prompt": "x", "expect": [], "extra": 1}`, "battery line 1: "},
		{`{"id": "a", "prompt": "x", "expect": []}` + "\n" + `{"id": "a", "prompt": "y", "expect": []}`, `battery line 2: id "a" already used on line 1`},
	} {
		_, err := ReadBattery(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ReadBattery(%q) err = %v, want prefix %q", c.in, err, c.want)
		}
	}
}

func TestRun(t *testing.T) {
	docs := []search.Doc{
		{Slug: "vat-rounding", Name: "Spanish VAT rounds per line", Description: "VAT is rounded per order line, never on the order total", Class: "gotcha", Body: "See shop/checkout/tax.py."},
		{Slug: "release", Name: "Weekly release steps", Description: "Tag, changelog, approval, watch the dashboards", Class: "procedure"},
		{Slug: "branches", Name: "Branch naming", Description: "initials slash ticket dash slug", Class: "preference"},
		{Slug: "pii", Name: "Never log personal data", Description: "emails and phone numbers stay out of logs", Class: "rule"},
	}
	ix := search.Build(docs)
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	cases := []Case{
		{ID: "hit", Prompt: "spanish vat rounding in tax.py is off", Expect: []string{"vat-rounding"}},
		{ID: "wrong", Prompt: "weekly release changelog", Expect: []string{"branches"}},
		{ID: "quiet", Prompt: "ok go ahead", Expect: []string{}},
		{ID: "noisy", Prompt: "never log phone numbers or emails", Expect: []string{}},
	}
	r := Run(ix, cases, now)
	if r.Cases != 4 || r.HitAt2 != 0.5 || r.HitAt1 != 0.5 || r.Silence != 0.5 || r.Score != -1+1-1+1 {
		t.Errorf("report = %+v", r)
	}
	if len(r.Misses) != 2 || r.Misses[0].ID != "wrong" || r.Misses[1].ID != "noisy" {
		t.Errorf("misses = %+v", r.Misses)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if r.Misses[0].Rank != 0 {
		t.Errorf("rank of the wrong miss = %d; want 0 (branches shares no word with its prompt)", r.Misses[0].Rank)
	}
	if !strings.Contains(buf.String(), "hit@2 0.50") || !strings.Contains(buf.String(), "miss noisy: expect (silence); got pii") ||
		!strings.Contains(buf.String(), "miss wrong: expect branches (not in the top 50 with the threshold off); got release") {
		t.Errorf("text:\n%s", buf.String())
	}
	js, _ := json.Marshal(r)
	for _, k := range []string{`"hit_at_1"`, `"hit_at_2"`, `"silence"`, `"precision"`, `"score"`, `"cases"`, `"misses"`, `"got"`} {
		if !bytes.Contains(js, []byte(k)) {
			t.Errorf("json lacks %s: %s", k, js)
		}
	}
}

// TestScore: what another hook injected is scored as mem's results are; a
// right memory third of three scores 0, not -1 (some of what was injected
// was right), and a prompt given nothing is a miss with "got": [].
func TestScore(t *testing.T) {
	topical := []string{"right"}
	for _, c := range []struct {
		name   string
		expect []string
		got    []string
		score  int
		rate   float64 // hit@2 of a topical case, silence of a silent one
		ok     []string
	}{
		{"on topic", []string{}, []string{"near"}, 1, 1, []string{"near"}},
		{"on topic and noise", []string{}, []string{"near", "x"}, -1, 0, []string{"near"}},
		{"first", topical, []string{"right", "x", "y"}, 1, 1, nil},
		{"second", topical, []string{"x", "right", "y"}, 1, 1, nil},
		{"third", topical, []string{"x", "y", "right"}, 0, 0, nil},
		{"only wrong", topical, []string{"x"}, -1, 0, nil},
		{"nothing", topical, []string{}, 0, 0, nil},
		{"silent", []string{}, []string{}, 1, 1, nil},
		{"noisy", []string{}, []string{"x"}, -1, 0, nil},
	} {
		r := Score([]Case{{ID: c.name, Expect: c.expect, OK: c.ok}}, [][]string{c.got})
		rate := r.HitAt2
		if len(c.expect) == 0 {
			rate = r.Silence
		}
		if r.Score != c.score || rate != c.rate {
			t.Errorf("%s: score %d, rate %.2f; want %d, %.2f", c.name, r.Score, rate, c.score, c.rate)
		}
	}
	ix := search.Build([]search.Doc{{Slug: "release", Name: "Weekly release steps", Class: "procedure"}})
	js, _ := json.Marshal(Run(ix, []Case{{ID: "blank", Prompt: "the mutex question", Expect: []string{"release"}}}, time.Now()))
	if !bytes.Contains(js, []byte(`"got":[]`)) {
		t.Errorf("a prompt given nothing: %s", js)
	}
}

// A battery line's ok is read, and a labelled duplicate of an expected
// memory is as right as the memory named (DESIGN.md's scorer).
func TestOKAndDuplicates(t *testing.T) {
	cases, err := ReadBattery(strings.NewReader(`{"id":"a","prompt":"p","expect":["alpha"]}
{"id":"b","prompt":"q","expect":[],"ok":["beta"]}`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := ReadLabels(strings.NewReader(`{"identical_dupes":[["alpha","alpha-again"]],"near_dupes":[["beta","beta-too"]],"supersedes":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := Score(WithDuplicates(cases, l), [][]string{{"alpha-again"}, {"beta"}})
	if r.HitAt2 != 1 || r.Silence != 1 || r.Precision != 1 || r.Score != 2 {
		t.Errorf("%s; want every figure 1 and score +2", r.Figures())
	}
	if r := Score(cases, [][]string{{"alpha-again"}, {"beta"}}); r.HitAt2 != 0 {
		t.Errorf("without the labels a duplicate is a hit: %s", r.Figures())
	}
	if _, err := ReadLabels(strings.NewReader(`{"identical_dupes":[["alone"]]}`)); err == nil {
		t.Error("a pair of one slug was read")
	}
}

// A miss says where its memory stood with the threshold off: here tied
// second, below the threshold, so the prompt got silence.
func TestMissRank(t *testing.T) {
	ix := search.Build([]search.Doc{
		{Slug: "release", Name: "Weekly release steps", Description: "Tag, changelog, approval, watch the dashboards", Class: "procedure"},
		{Slug: "branches", Name: "Branch naming", Description: "initials slash ticket dash slug", Class: "preference"},
	})
	r := Run(ix, []Case{{ID: "faint", Prompt: "tag the ticket", Expect: []string{"branches"}}}, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
	if len(r.Misses) != 1 || r.Misses[0].Rank != 2 || r.Misses[0].Score <= 0 || r.Misses[0].Score >= search.DefaultThreshold {
		t.Fatalf("misses = %+v, want faint ranked 2nd below the threshold", r.Misses)
	}
	var buf bytes.Buffer
	r.WriteText(&buf)
	if want := "miss faint: expect branches (rank 2, score 0.13, with the threshold off); got (silence)"; !strings.Contains(buf.String(), want) {
		t.Errorf("text:\n%s\nwant %q", buf.String(), want)
	}
}

// Targets of the dev battery (DESIGN.md and issue 17) and the floors the
// method holds on it, as found and enriched with each of two recordings of
// the aliases a real model wrote for the store (enrichtest), so that a
// change that loses ground on any of them fails, and a change that gains on
// one draw of the model's answers only is seen for what it is.
var targets = Report{HitAt2: 0.80, Silence: 0.96, Precision: 0.65}

func TestDevBattery(t *testing.T) {
	rows := []struct {
		name     string
		cassette func(testing.TB) *modeltest.Cassette // nil: the store as found
		floor    Report
	}{
		{"as found", nil, Report{HitAt1: 0.56, HitAt2: 0.72, Silence: 0.97, Precision: 0.55}},
		{"enriched", enrichtest.Cassette, Report{HitAt1: 0.66, HitAt2: 0.80, Silence: 0.96, Precision: 0.72}},
		{"enriched, recording 2", enrichtest.SecondCassette, Report{HitAt1: 0.72, HitAt2: 0.80, Silence: 0.96, Precision: 0.68}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			dir := shareddata.Need(t, "eval", "store")
			if row.cassette != nil {
				tmp := t.TempDir()
				if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
					t.Fatal(err)
				}
				enrichtest.Enrich(t, row.cassette(t), tmp)
				dir = tmp
			}
			docs := loadStore(t, dir)
			f, err := os.Open(shareddata.Need(t, "eval", "battery-dev.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cases, err := ReadBattery(f)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) == 0 || len(cases) == 0 {
				// Run scores an empty battery 1 on every ratio: the floors would hold.
				t.Fatalf("%d memories, %d cases: nothing to measure", len(docs), len(cases))
			}
			r := Run(search.Build(docs), cases, time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC))
			var buf bytes.Buffer
			r.WriteText(&buf)
			t.Log("\n" + buf.String())
			if r.HitAt2 < targets.HitAt2 || r.Silence < targets.Silence || r.Precision < targets.Precision {
				t.Logf("below target: hit@2 %.2f (target %.2f), silence %.2f (%.2f), precision %.2f (%.2f)",
					r.HitAt2, targets.HitAt2, r.Silence, targets.Silence, r.Precision, targets.Precision)
			}
			if fl := row.floor; r.HitAt1 < fl.HitAt1 || r.HitAt2 < fl.HitAt2 || r.Silence < fl.Silence || r.Precision < fl.Precision {
				t.Errorf("regressed: hit@1 %.2f (floor %.2f), hit@2 %.2f (%.2f), silence %.2f (%.2f), precision %.2f (%.2f)",
					r.HitAt1, fl.HitAt1, r.HitAt2, fl.HitAt2, r.Silence, fl.Silence, r.Precision, fl.Precision)
			}
		})
	}
}

// loadStore reads a memory store into search.Docs as the product's indexer
// does (indexer.Doc).
func loadStore(t *testing.T, dir string) []search.Doc {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var docs []search.Doc
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".md") || name == "MEMORY.md" {
			continue
		}
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mdparse.Parse(path, data)
		if err != nil || m.Status == "forgotten" {
			continue
		}
		docs = append(docs, m.Document(strings.TrimSuffix(name, ".md"), ".claude/agent-memory/"+name, "project"))
	}
	return docs
}

// After curation a superseded memory's successor answers a prompt that
// expected it, through a chain of supersessions too.
func TestSuccessorsAnswerForTheirSources(t *testing.T) {
	ix := search.Build([]search.Doc{
		{Slug: "cadence-biweekly", Name: "Patch cadence every other Tuesday", Class: "fact", SupersededBy: "cadence-three-weekly"},
		{Slug: "cadence-three-weekly", Name: "Patch cadence every third Thursday", Class: "fact", SupersededBy: "cadence-monthly"},
		{Slug: "cadence-monthly", Name: "Patch cadence once a month", Class: "fact"},
		{Slug: "other", Name: "Unrelated note", Class: "fact"},
	})
	cases := []Case{{ID: "a", Prompt: "p", Expect: []string{"cadence-biweekly"}}, {ID: "b", Prompt: "q", Expect: []string{"other"}}}
	got := WithSuccessors(cases, ix.Docs())
	if want := []string{"cadence-biweekly", "cadence-three-weekly", "cadence-monthly"}; !slices.Equal(got[0].Expect, want) {
		t.Errorf("expected %v, want %v", got[0].Expect, want)
	}
	if !slices.Equal(got[1].Expect, []string{"other"}) || !slices.Equal(cases[0].Expect, []string{"cadence-biweekly"}) {
		t.Errorf("a memory nobody superseded gained successors, or the cases were changed in place: %v, %v", got[1].Expect, cases[0].Expect)
	}
	r := Run(ix, []Case{{ID: "c", Prompt: "patch cadence once a month", Expect: []string{"cadence-biweekly"}}}, time.Now())
	if r.HitAt2 != 1 {
		t.Errorf("the successor found did not answer for its source: %s", r.Figures())
	}
}
