package curator

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

var (
	portOld = mem("ledger-local-port-8000", "fact", "ledger runs on port 8000 locally",
		"uvicorn serves ledger on 8000", []string{"ledger", "port"},
		"Run `uvicorn app.main:app --reload` in ledger/; it serves on port 8000. The Stripe CLI forwards to it with `stripe listen --forward-to localhost:8000/webhooks`. Ask Maya about the reload flag; it needs Python 3.12.\n")
	portNew = mem("ledger-local-port-8700", "fact", "ledger runs on port 8700 locally",
		"ledger moved to 8700 (ledger#118)", []string{"ledger", "port"},
		"Since ledger#118 (merged 2026-09-14) the ledger dev server listens on 8700, because mkdocs serve took 8000.\n")
	portVerdict = Verdict{Relation: RelSupersedes, Keep: portNew.Slug, Retire: portOld.Slug, Confidence: 0.9,
		Coverage: CoveragePartial, Reason: "the port moved; the older note's commands are not restated"}
)

// A merge is applied only when it keeps every detail of the kept memory and
// every detail of the retired one that the kept one does not replace, and
// adds none; what it drops or adds is said.
func TestCheckMerge(t *testing.T) {
	const all = "Since ledger#118 (merged 2026-09-14) the ledger dev server listens on 8700, because mkdocs serve took 8000. " +
		"Run `uvicorn app.main:app --reload` in ledger/. The Stripe CLI forwarded to it with `stripe listen --forward-to localhost:8000/webhooks` before. Ask Maya about the reload flag; it needs Python 3.12."
	outdated := []Replaced{{Old: "stripe listen --forward-to localhost:8000/webhooks", New: "listens on 8700"}}
	port := []Replaced{{Old: "it serves on port 8000", New: "listens on 8700"}}
	stale := []Replaced{{Old: "localhost:8000/webhooks", New: "localhost:8700/webhooks"}}
	tests := []struct {
		name     string
		merged   Merge
		problems []string // each must be in the problems; none when empty
	}{
		{"keeps everything", Merge{Body: all, Outdated: port}, nil},
		{"a supersession that changes nothing", Merge{Body: all}, []string{"finds nothing outdated: both hold"}},
		{"leaves out a changed command", Merge{Body: strings.Replace(all, "8000/webhooks", "8700/webhooks", 1), Outdated: outdated},
			[]string{"adds `stripe listen --forward-to localhost:8700/webhooks`, name localhost:8700/webhooks, which neither memory says"}},
		{"leaves out a changed command, not said to be outdated", Merge{Body: strings.Replace(all, "The Stripe CLI forwarded to it with `stripe listen --forward-to localhost:8000/webhooks` before.", "", 1), Outdated: port},
			[]string{"drops `stripe listen --forward-to localhost:8000/webhooks`, name Stripe, name CLI, name localhost:8000/webhooks"}},
		{"leaves out a changed command, said to be outdated", Merge{Body: strings.Replace(all, "The Stripe CLI forwarded to it with `stripe listen --forward-to localhost:8000/webhooks` before.", "", 1),
			Outdated: []Replaced{{Old: "The Stripe CLI forwards to it with `stripe listen --forward-to localhost:8000/webhooks`", New: "listens on 8700"}}}, nil},
		{"drops a name", Merge{Body: strings.Replace(all, "Ask Maya about the reload flag; it needs Python 3.12.", "", 1), Outdated: outdated}, []string{"drops name Maya"}},
		{"drops a number of the kept memory", Merge{Body: strings.Replace(all, " (merged 2026-09-14)", "", 1), Outdated: port}, []string{"drops number 2026-09-14"}},
		{"drops a still-true number", Merge{Body: strings.Replace(all, "; it needs Python 3.12", "", 1), Outdated: port}, []string{"drops name Python, number 3.12"}},
		{"drops a still-true command", Merge{Body: strings.Replace(all, "Run `uvicorn app.main:app --reload` in ledger/.", "", 1)},
			[]string{"drops `uvicorn app.main:app --reload`, name app.main:app"}},
		{"an outdated entry whose new words the kept memory does not say", Merge{Body: strings.Replace(all, "`stripe listen --forward-to localhost:8000/webhooks`", "the Stripe CLI", 1), Outdated: stale},
			[]string{"drops `stripe listen --forward-to localhost:8000/webhooks`"}},
		{"an outdated entry that quotes nothing of the retired memory", Merge{Body: strings.Replace(all, "`stripe listen --forward-to localhost:8000/webhooks`", "the Stripe CLI", 1),
			Outdated: []Replaced{{Old: "port 9000", New: "listens on 8700"}}}, []string{"drops `stripe listen"}},
		{"an outdated entry that names nothing new", Merge{Body: strings.Replace(all, "Ask Maya about the reload flag; it needs Python 3.12.", "", 1),
			Outdated: []Replaced{{Old: "Ask Maya about the reload flag", New: "the ledger dev server"}}}, []string{"drops name Maya"}},
		{"adds a path", Merge{Body: all + " Logs go to ledger/logs/dev.log.", Outdated: port}, []string{"adds path ledger/logs/dev.log"}},
		{"adds a number", Merge{Body: all + " It starts in 15 seconds.", Outdated: port}, []string{"adds number 15"}},
		{"a secret", Merge{Body: all + " Use sk_live_51HxQnB2eZvKYlo2C8y4m0rWq9tFj3XbGd7Ph.", Outdated: port}, []string{"secret"}},
	}
	fk, fr := featuresOf(portNew.M), featuresOf(portOld.M)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			problems, changed, _ := checkMerge(fk, fr, portNew.M, portVerdict, tc.merged)
			got := strings.Join(problems, "; ")
			if len(tc.problems) == 0 && got != "" {
				t.Fatalf("problems %q, want none", got)
			}
			for _, want := range tc.problems {
				if !strings.Contains(got, want) {
					t.Errorf("problems %q, want %q among them", got, want)
				}
			}
			if len(tc.problems) == 0 && (len(changed) != 1 || !strings.HasPrefix(changed[0], tc.merged.Outdated[0].Old+" → ")) {
				t.Errorf("changed %q, want the outdated entry", changed)
			}
		})
	}
}

func TestMergeValidate(t *testing.T) {
	for answer, want := range map[string]string{
		`{}`:                               `no "body"`,
		`{"body": "  "}`:                   `no "body"`,
		`{"body": "---\nname: x\n---\nx"}`: "frontmatter",
		`{"body": "x", "outdated": [{"old": "8000"}]}`: `both "old" and "new"`,
		`{"body": "x", "verdict": "ok"}`:               "unknown field",
		`{"body": "a\u0007b"}`:                         "control character",
	} {
		var m Merge
		if err := (&modeltest.Asker{Answer: answer}).Ask(context.Background(), "", &m); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", answer, err, want)
		}
	}
}

// pairThenMerge answers a pair prompt with verdict and a merge prompt with
// merge, and counts the merge prompts.
type pairThenMerge struct {
	verdict Verdict
	merge   string // the JSON answer
	again   string // the answer when asked again (MergeAgainPrompt); merge when ""
	merges  int
}

func (a *pairThenMerge) Ask(_ context.Context, prompt string, out any) error {
	if strings.Contains(prompt, "=== kept memory ") {
		a.merges++
		answer := a.merge
		if a.again != "" && strings.Contains(prompt, "=== first answer ===") {
			answer = a.again
		}
		return (&modeltest.Asker{Answer: answer}).Ask(context.Background(), prompt, out)
	}
	return modeltest.Decode(a.verdict, out)
}

func mergeAnswer(t *testing.T, m Merge) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A supersession with partial coverage is merged, or queued saying why it
// was not: never applied as a plain supersession, and a rule beside a
// one-off event that looks like its exception is never merged at all.
func TestRunMerges(t *testing.T) {
	good := Merge{Body: "Since ledger#118 (merged 2026-09-14) the ledger dev server listens on 8700, because mkdocs serve took 8000. " +
		"Run `uvicorn app.main:app --reload` in ledger/. Ask Maya about the reload flag; it needs Python 3.12.",
		Outdated: []Replaced{{Old: "The Stripe CLI forwards to it with `stripe listen --forward-to localhost:8000/webhooks`", New: "listens on 8700"}}}
	dropsNumber := good
	dropsNumber.Body = strings.Replace(good.Body, "Python 3.12", "a recent Python", 1)

	rule := mem("never-deploy-fridays", "rule", "Never deploy on Fridays", "no prod deploys on Friday",
		[]string{"deploy", "friday", "prod", "hotfix", "security"}, "No production deploys on Fridays; an emergency needs Sam's go in #deploys.\n")
	event := mem("friday-security-hotfix-2026-10-02", "event", "Friday security hotfix deployed", "prod deploy on Friday 2026-10-02",
		[]string{"deploy", "friday", "prod", "hotfix", "security"}, "On Friday 2026-10-02 we deployed a security hotfix to prod; Sam declared it in #deploys.\n")
	lookAlike := Verdict{Relation: RelSupersedes, Keep: event.Slug, Retire: rule.Slug, Confidence: 0.95, Coverage: CoveragePartial, Reason: "a Friday deploy happened"}
	tests := []struct {
		name   string
		a, b   Memory
		v      Verdict
		merge  string
		again  string // the answer when asked again; merge when ""
		merges int    // merge prompts asked
		review string // the review reason holds it; "" when applied
	}{
		{"merged", portOld, portNew, portVerdict, mergeAnswer(t, good), "", 1, ""},
		{"a duplicate with partial coverage, merged", portOld, portNew, func() Verdict { v := portVerdict; v.Relation = RelDuplicate; return v }(),
			mergeAnswer(t, Merge{Body: good.Body + " The Stripe CLI forwards to it with `stripe listen --forward-to localhost:8000/webhooks`."}), "", 1, ""},
		{"a duplicate with something outdated", portOld, portNew, func() Verdict { v := portVerdict; v.Relation = RelDuplicate; return v }(),
			mergeAnswer(t, good), "", 1, "a duplicate, yet the merge finds"},
		{"the merge drops a number, twice", portOld, portNew, portVerdict, mergeAnswer(t, dropsNumber), "", 2, "coverage partial; the merge drops number 3.12"},
		{"the merge drops a number, then keeps it", portOld, portNew, portVerdict, mergeAnswer(t, dropsNumber), mergeAnswer(t, good), 2, ""},
		{"the merge is refused", portOld, portNew, portVerdict, `{}`, "", 1, `no merge: the merge has no "body"`},
		{"another guard fails: no merge asked", portOld, portNew, func() Verdict { v := portVerdict; v.Confidence = 0.5; return v }(), mergeAnswer(t, good), "", 0, "confidence 0.50<0.60; coverage partial"},
		{"rule and look-alike event: never merged", rule, event, lookAlike,
			mergeAnswer(t, Merge{Body: string(event.M.Body) + string(rule.M.Body)}), "", 0, "class event≠rule"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &pairThenMerge{verdict: tc.v, merge: tc.merge, again: tc.again}
			r, err := Run(context.Background(), []Memory{tc.a, tc.b}, Options{Model: a})
			if err != nil {
				t.Fatal(err)
			}
			if a.merges != tc.merges {
				t.Errorf("%d merge prompts, want %d", a.merges, tc.merges)
			}
			if tc.review == "" {
				if len(r.Apply) != 1 || len(r.Review) != 0 {
					t.Fatalf("apply %+v review %+v, want one merge applied", r.Apply, r.Review)
				}
				d := r.Apply[0]
				if d.Keep != tc.v.Keep || !strings.HasPrefix(d.Merged, good.Body) || !strings.Contains(strings.Join(d.Guards, "; "), "coverage partial, merged") {
					t.Errorf("decision %+v", d)
				}
				return
			}
			if len(r.Apply) != 0 || len(r.Review) != 1 || !strings.Contains(r.Review[0].Reason, tc.review) {
				t.Errorf("apply %+v review %+v, want it queued for %q", r.Apply, r.Review, tc.review)
			}
		})
	}
}

// A review item says what accepting it does, what that loses, and the
// command that accepts it.
func TestReviewSaysWhatAcceptingDoes(t *testing.T) {
	a := &pairThenMerge{verdict: portVerdict, merge: `{}`}
	r, err := Run(context.Background(), []Memory{portOld, portNew}, Options{Model: a})
	if err != nil || len(r.Review) != 1 {
		t.Fatalf("review %+v, err %v", r.Review, err)
	}
	it := r.Review[0]
	if it.Would != "supersede ledger-local-port-8000 by ledger-local-port-8700 as they stand" {
		t.Errorf("would %q", it.Would)
	}
	for _, want := range []string{"ledger-local-port-8000's ", "`uvicorn app.main:app --reload`", "name Maya", "number 3.12"} {
		if !strings.Contains(it.Loses, want) {
			t.Errorf("loses %q, want %q in it", it.Loses, want)
		}
	}
	if strings.Contains(it.Loses, "ledger#118") || strings.Contains(it.Loses, "8700") {
		t.Errorf("loses %q: names what the kept memory says", it.Loses)
	}
	queue, _ := Enqueue(nil, r.Review, time.Now())
	if q := queue[0]; q.Would != it.Would || q.Loses != it.Loses || q.Command() != "mem review accept "+q.ID {
		t.Errorf("queued %+v, command %q", q, q.Command())
	}

	// Without a verdict to say which to keep, both ways are told, and the
	// command names one.
	it = ReviewOf(portNew, portOld, "no model", nil)
	if !strings.Contains(it.Would, "--keep") || !strings.Contains(it.Loses, "kept ledger-local-port-8700: ledger-local-port-8000's") ||
		!strings.Contains(it.Loses, "kept ledger-local-port-8000: ledger-local-port-8700's") {
		t.Errorf("no verdict: %+v", it)
	}
	queue, _ = Enqueue(nil, []ReviewItem{it}, time.Now())
	if c := queue[0].Command(); c != "mem review accept "+queue[0].ID+" --keep ledger-local-port-8700" {
		t.Errorf("command %q", c)
	}
}

// keepNewest answers every pair prompt with portNew "portNew supersedes
// the other, in part" (any other "unrelated"), and every merge prompt with both bodies whole and the port as
// what changed.
type keepNewest struct{ merges []string }

func (a *keepNewest) Ask(_ context.Context, prompt string, out any) error {
	if b := mergeBody.FindAllStringSubmatch(prompt, -1); len(b) == 2 {
		a.merges = append(a.merges, b[1][1])
		return modeltest.Decode(Merge{Body: b[0][1] + "\n\n" + b[1][1], Outdated: []Replaced{{Old: "8000", New: "8700"}}}, out)
	}
	m := promptSlug.FindAllStringSubmatch(prompt, -1)
	other := m[0][1]
	switch portNew.Slug {
	case other:
		other = m[1][1]
	case m[1][1]:
	default:
		return modeltest.Decode(Verdict{Relation: RelUnrelated, Confidence: 0.9}, out)
	}
	v := portVerdict
	v.Retire = other
	return modeltest.Decode(v, out)
}

// A memory a merge rewrote is not merged again in the same run: the second
// merge would start from the text the first one replaced.
func TestRunMergesOnceAMemory(t *testing.T) {
	docs := mem("ledger-port-8000-clash", "fact", "ledger's local port 8000 clashes with mkdocs",
		"mkdocs serve takes port 8000 locally", []string{"ledger", "port"},
		"`mkdocs serve` for the ledger docs listens on 8000 by default, so the ledger dev server cannot use 8000 while the docs run.\n")
	a := &keepNewest{}
	r, err := Run(context.Background(), []Memory{portOld, portNew, docs}, Options{Model: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.merges) != 1 || len(r.Apply) != 1 || len(r.Review) != 1 ||
		!strings.Contains(r.Review[0].Reason, "ledger-local-port-8700 was rewritten in this run to retire") {
		t.Errorf("merges of %d, apply %+v, review %+v", len(a.merges), r.Apply, r.Review)
	}
}
