package curator

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/mdparse"
)

func mem(slug, class, name, desc string, tags []string, body string) Memory {
	return Memory{Slug: slug, M: mdparse.New(mdparse.Fields{
		Name: name, Description: desc, Class: class, Importance: 5, Tags: tags,
		Modified: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC),
	}, body)}
}

var (
	vatOld = mem("vat-rounding-total", "gotcha", "VAT rounded on the order total",
		"Spanish VAT is rounded once on the order total", []string{"checkout", "vat"},
		"Rounding happens in `shop/checkout/tax.py`, on the total.\n")
	vatNew = mem("vat-rounding-per-line", "gotcha", "VAT rounds per order line",
		"Spanish VAT is rounded per order line, never on the total", []string{"checkout", "vat"},
		"Since LRK-412 rounding is per line in `shop/checkout/tax.py`.\n")
	supersede = Verdict{Relation: RelSupersedes, Keep: "vat-rounding-per-line", Retire: "vat-rounding-total",
		Confidence: 0.86, Coverage: CoverageFull, Reason: "the rounding rule changed"}
)

func TestGuards(t *testing.T) {
	stripeHooks := mem("stripe-webhook-raw-body", "gotcha", "Stripe webhooks need the raw body",
		"Signature checks fail on parsed JSON", []string{"stripe"}, "Read the body before `json.loads`; see `stripe`.\n")
	stripeKeys := mem("stripe-keys-rotate", "gotcha", "Stripe keys rotate quarterly",
		"Rotation is on the first Monday of the quarter", []string{"stripe"}, "Ask Sam; `stripe` CLI.\n")
	vatRule := mem(vatOld.Slug, "rule", vatOld.M.Name, vatOld.M.Description, vatOld.M.Tags, string(vatOld.M.Body))
	retired := mem(vatOld.Slug, "gotcha", vatOld.M.Name, vatOld.M.Description, vatOld.M.Tags, string(vatOld.M.Body))
	retired.M.SupersededBy = "something-else"

	withPath := func(m Memory) Memory {
		return mem(m.Slug, m.M.Class, m.M.Name, m.M.Description, m.M.Tags, string(m.M.Body)+"Code: ledger/app/webhooks/stripe.py\n")
	}
	with := func(f func(v *Verdict)) Verdict { v := supersede; f(&v); return v }
	as := func(m Memory, class string) Memory {
		return mem(m.Slug, class, m.M.Name, m.M.Description, m.M.Tags, string(m.M.Body))
	}
	dupFull := with(func(v *Verdict) { v.Relation, v.Confidence = RelDuplicate, 0.9 })
	tests := []struct {
		name   string
		a, b   Memory
		v      Verdict
		ok     bool
		failed string // a phrase the failures must contain
	}{
		{"all hold", vatNew, vatOld, supersede, true, ""},
		{"pair in either order", vatOld, vatNew, supersede, true, ""},
		{"duplicate", vatNew, vatOld, with(func(v *Verdict) { v.Relation = RelDuplicate }), true, ""},
		{"confidence 0.59", vatNew, vatOld, with(func(v *Verdict) { v.Confidence = 0.59 }), false, "confidence 0.59<0.60"},
		{"confidence exactly 0.60", vatNew, vatOld, with(func(v *Verdict) { v.Confidence = 0.6 }), true, ""},
		{"confidence NaN", vatNew, vatOld, with(func(v *Verdict) { v.Confidence = math.NaN() }), false, "out of range"},
		{"confidence above 1", vatNew, vatOld, with(func(v *Verdict) { v.Confidence = 7 }), false, "out of range"},
		{"one shared technology only", stripeHooks, stripeKeys, Verdict{Relation: RelSupersedes,
			Keep: stripeHooks.Slug, Retire: stripeKeys.Slug, Confidence: 0.95, Coverage: CoverageFull}, false, "overlap: only topics stripe"},
		{"one topic and one entity", withPath(stripeHooks), withPath(stripeKeys), Verdict{Relation: RelSupersedes,
			Keep: stripeHooks.Slug, Retire: stripeKeys.Slug, Confidence: 0.95, Coverage: CoverageFull}, false, "overlap: only topics stripe; entities ledger/app/webhooks/stripe.py"},
		{"different class", vatNew, vatRule, supersede, false, "class gotcha≠rule"},
		// Classes that say the same thing in other words (package doc, "Classes").
		{"rule and fact, a full duplicate", as(vatNew, "rule"), as(vatOld, "fact"), dupFull, true, ""},
		{"rule and fact, a supersession", as(vatNew, "rule"), as(vatOld, "fact"), with(func(v *Verdict) { v.Confidence = 0.9 }), false, "class rule≠fact: only a duplicate across them"},
		{"rule and fact, a partial duplicate unmerged", as(vatNew, "rule"), as(vatOld, "fact"), with(func(v *Verdict) { v.Relation, v.Coverage = RelDuplicate, CoveragePartial }), false, "coverage partial"},
		{"rule and event, never", as(vatNew, "rule"), as(vatOld, "event"), with(func(v *Verdict) { v.Relation, v.Confidence = RelDuplicate, 1 }), false, "class rule≠event"},
		{"event and rule, never", as(vatNew, "event"), as(vatOld, "rule"), dupFull, false, "class event≠rule"},
		{"decision supersedes fact", as(vatNew, "decision"), as(vatOld, "fact"), supersede, true, ""},
		{"decision and fact, no bar of their own", as(vatNew, "decision"), as(vatOld, "fact"), with(func(v *Verdict) { v.Confidence = 0.65 }), true, ""},
		{"decision and fact, not sure enough", as(vatNew, "decision"), as(vatOld, "fact"), with(func(v *Verdict) { v.Confidence = 0.55 }), false, "confidence 0.55<0.60"},
		{"procedure and fact, a full duplicate", as(vatNew, "procedure"), as(vatOld, "fact"), dupFull, true, ""},
		{"coverage partial", vatNew, vatOld, with(func(v *Verdict) { v.Coverage = CoveragePartial }), false, "coverage partial"},
		{"coverage missing", vatNew, vatOld, with(func(v *Verdict) { v.Coverage = "" }), false, `coverage "" unknown`},
		{"relation partial", vatNew, vatOld, with(func(v *Verdict) { v.Relation = RelPartial }), false, "relation partial"},
		{"relation unknown", vatNew, vatOld, with(func(v *Verdict) { v.Relation = "merge" }), false, `relation "merge" unknown`},
		{"keep outside the pair", vatNew, vatOld, with(func(v *Verdict) { v.Keep = "ledger-owner-theo" }), false, "are not vat-rounding-per-line and vat-rounding-total"},
		{"keep and retire the same", vatNew, vatOld, with(func(v *Verdict) { v.Retire = v.Keep }), false, "are not"},
		{"retire already superseded", vatNew, retired, supersede, false, "superseded by something-else already"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ok, passed, failed := Guards(tc.a, tc.b, tc.v)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v; passed %q, failed %q", ok, tc.ok, passed, failed)
			}
			if ok != (len(failed) == 0) {
				t.Errorf("ok = %v with failed %q", ok, failed)
			}
			if tc.failed != "" && !strings.Contains(strings.Join(failed, "; "), tc.failed) {
				t.Errorf("failed %q, want %q among them", failed, tc.failed)
			}
			if ok && len(passed) < 5 {
				t.Errorf("passed %q: want the relation and the four guards", passed)
			}
		})
	}
}

func TestOverlapCountsOneThingOnce(t *testing.T) {
	// "postgres" as a tag, "PostgreSQL" in the name and `postgres` in a code
	// span: one topic, however it is spelled.
	a := mem("pg-a", "fact", "PostgreSQL notes", "About postgres", []string{"postgres"}, "Run `postgres`.\n")
	b := mem("pg-b", "fact", "Postgres tuning", "postgresql settings", []string{"postgres", "postgresql"}, "Run `postgres`.\n")
	o := overlapOf(featuresOf(a.M), featuresOf(b.M))
	if o.ok() || len(o.topics) != 1 {
		t.Errorf("overlap %v (%d topics), want one topic", o, len(o.topics))
	}
	// A path and a code span that runs it are one entity; a ticket and
	// "Refs: ticket" too.
	c := mem("x", "fact", "x", "x", nil, "Run `infra/scripts/db-tunnel.sh staging`, see infra/scripts/db-tunnel.sh. Refs: LRK-9\n")
	d := mem("y", "fact", "y", "y", nil, "See infra/scripts/db-tunnel.sh and `infra/scripts/db-tunnel.sh staging`. Refs: LRK-9\n")
	o = overlapOf(featuresOf(c.M), featuresOf(d.M))
	if len(o.entities) != 2 {
		t.Errorf("entities %q, want the script and the ticket", o.entities)
	}
}

func TestSubjects(t *testing.T) {
	m := mem("s", "gotcha", "GitHub force-push to main",
		"Don't force-push; see LRK-412 and ledger#118 or atlas-staging-pg16, formatMoney() and and/or staging/prod",
		[]string{"git", "atlas-web"},
		"Secret `STRIPE_SECRET_KEY`, route `/v1/checkout`, file ~/.pgpass, URL https://example.com/x/.\n")
	topics, entities := subjectsOf(m.M, mdparse.ExtractBody(m.M.Body))
	for _, k := range []string{"github", "forc-push", "git", "atlas-web", "main", "stage", "prod"} {
		if !topics[k] {
			t.Errorf("topic %q missing: %v", k, topics)
		}
	}
	for _, k := range []string{"lrk-412", "ledger#118", "atlas-staging-pg16", "formatmoney", "stripe_secret_key", "/v1/checkout", "example.com/x"} {
		if !entities[k] {
			t.Errorf("entity %q missing: %v", k, entities)
		}
	}
	for _, k := range []string{"github", "and/or", "staging/prod", "gotcha"} {
		if entities[k] || topics[k] && k == "gotcha" {
			t.Errorf("%q should not be an entity (or a topic): %v %v", k, topics, entities)
		}
	}
}

// A verdict that keeps a memory outside the pair is not applied: it goes
// to review.
func TestRunForeignSlugGoesToReview(t *testing.T) {
	v := supersede
	v.Keep = "ledger-owner-theo" // neither of the pair
	r, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{Model: modeltest.Answering(v)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Apply) != 0 || len(r.Review) != 1 {
		t.Fatalf("apply %+v review %+v, want one review item", r.Apply, r.Review)
	}
	if it := r.Review[0]; !strings.Contains(it.Reason, `keep "ledger-owner-theo"`) || it.Verdict == nil {
		t.Errorf("review item %+v", it)
	}
}

func TestRunAppliesWhenGuardsHold(t *testing.T) {
	var calls [][2]int
	r, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{
		Model:    modeltest.Answering(supersede),
		Progress: func(d, n int) { calls = append(calls, [2]int{d, n}) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Apply) != 1 || r.Apply[0].Keep != vatNew.Slug || r.Apply[0].Retire != vatOld.Slug {
		t.Fatalf("apply %+v, review %+v", r.Apply, r.Review)
	}
	if fmt.Sprint(calls) != "[[0 1] [1 1]]" {
		t.Errorf("progress %v", calls)
	}
}

// A verdict of partial or unrelated proposes nothing. Partial is asked
// about once more (FoldPrompt), which this model, answering every prompt
// with a verdict, leaves unanswered: still nothing.
func TestRunPartialProposesNothing(t *testing.T) {
	for rel, calls := range map[string]int{RelPartial: 2, RelUnrelated: 1} {
		a := modeltest.Answering(Verdict{Relation: rel, Confidence: 0.9, Coverage: CoveragePartial})
		r, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{Model: a})
		if err != nil {
			t.Fatal(err)
		}
		if a.Calls() != calls || len(r.Apply)+len(r.Review) != 0 {
			t.Errorf("%s: %d model calls (want %d), apply %+v review %+v", rel, a.Calls(), calls, r.Apply, r.Review)
		}
	}
}

func TestRunModelErrorStops(t *testing.T) {
	boom := errors.New("model timed out")
	_, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{Model: &modeltest.Asker{Err: boom}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "vat-rounding") {
		t.Errorf("err = %v", err)
	}
	// An empty verdict is no answer: it stops the run, nothing is queued.
	res, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{Model: &modeltest.Asker{Answer: `{}`}})
	if err == nil || !strings.Contains(err.Error(), `no "relation"`) || len(res.Review)+len(res.Apply) != 0 {
		t.Errorf("empty verdict: %+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, []Memory{vatOld, vatNew}, Options{Model: modeltest.Answering(supersede)}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestRunMaxPairs(t *testing.T) {
	a := modeltest.Answering(Verdict{Relation: RelUnrelated})
	r, err := Run(context.Background(), []Memory{vatOld, vatNew}, Options{Model: a, MaxPairs: -1})
	if err != nil || a.Calls() != 1 || r.Unasked != 0 {
		t.Errorf("MaxPairs -1: %d calls, unasked %d, err %v", a.Calls(), r.Unasked, err)
	}
}

func TestRunIdenticalWithoutModel(t *testing.T) {
	body := "Never force-push `main` in any repo, not even with `--force-with-lease`; open a revert PR (`git revert <sha>`).\n"
	older := mem("never-force-push-main", "rule", "Never force-push main", "no force-push", []string{"git", "safety"}, body)
	older.M.Importance = 9
	newer := mem("no-force-push-to-main", "rule", "No force pushes to main", "don't rewrite main", []string{"git"}, "\n"+body+"\n\n")
	newer.M.Modified = newer.M.Modified.AddDate(0, 1, 0)
	other := mem("other-class", "event", "Force pushes", "x", nil, body)
	forgotten := mem("forgotten-copy", "rule", "x", "x", nil, body)
	forgotten.M.Status = mdparse.StatusForgotten

	r, err := Run(context.Background(), []Memory{newer, other, older, forgotten}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Duplicates); got != "[[never-force-push-main no-force-push-to-main] [never-force-push-main other-class]]" {
		t.Errorf("duplicates %s", got)
	}
	if len(r.Apply) != 1 || r.Apply[0].Keep != older.Slug || r.Apply[0].Retire != newer.Slug ||
		!strings.Contains(r.Apply[0].Reason, "importance 9 > 5") {
		t.Errorf("apply %+v", r.Apply)
	}
	if len(r.Review) != 1 || r.Review[0].B != other.Slug || !strings.Contains(r.Review[0].Reason, "class rule≠event") {
		t.Errorf("review %+v", r.Review)
	}
}

func TestRunNearDuplicateWithoutModel(t *testing.T) {
	body := "Local Postgres from docker compose listens on port 5433, not 5432, because Theo and Maya both run Homebrew Postgres on 5432. Redis is on 6380 for the same reason and the Mailpit web interface is on 8025."
	a := mem("local-postgres-port", "fact", "Local Postgres runs on 5433", "docker compose maps Postgres to 5433", []string{"postgres"}, body+"\n")
	b := mem("compose-postgres-port", "fact", "Local Postgres runs on 5433", "docker compose maps Postgres to 5433", []string{"postgres"}, body+" The test database is atlas_test.\n")
	r, err := Run(context.Background(), []Memory{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Duplicates) != 1 || len(r.Apply) != 0 || len(r.Review) != 1 || !strings.Contains(r.Review[0].Reason, "no model") {
		t.Errorf("duplicates %v apply %+v review %+v", r.Duplicates, r.Apply, r.Review)
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	if _, err := Run(context.Background(), []Memory{vatOld, vatOld}, Options{}); err == nil {
		t.Error("two memories with one slug: no error")
	}
	if _, err := Run(context.Background(), []Memory{{Slug: "x"}}, Options{}); err == nil {
		t.Error("memory without content: no error")
	}
}

func TestPairPrompt(t *testing.T) {
	p := PairPrompt(vatOld, vatNew)
	for _, want := range []string{`=== memory "vat-rounding-total" ===`, `=== memory "vat-rounding-per-line" ===`,
		"When in doubt, say partial.", `"relation"`, "class: gotcha", "shop/checkout/tax.py", "nothing else"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestCandidatePairsSkipRetired(t *testing.T) {
	gone := mem("vat-gone", "gotcha", vatOld.M.Name, vatOld.M.Description, vatOld.M.Tags, string(vatOld.M.Body))
	gone.M.SupersededBy = vatNew.Slug
	// The two live memories are a pair; the retired one is in none.
	if got := fmt.Sprint(CandidatePairs([]Memory{vatOld, vatNew, gone})); got != "[[0 1]]" {
		t.Errorf("pairs %s, want [[0 1]]", got)
	}
}

func ExampleGuards() {
	ok, passed, failed := Guards(vatNew, vatOld, Verdict{
		Relation: "supersedes", Keep: "vat-rounding-per-line", Retire: "vat-rounding-total",
		Confidence: 0.86, Coverage: "full",
	})
	fmt.Println(ok)
	fmt.Println(strings.Join(passed, "\n"))
	fmt.Println(failed)
	// Output:
	// true
	// relation supersedes
	// confidence 0.86>=0.60
	// overlap: topics checkout,order,round,spanish,total,vat; entities shop/checkout/tax.py
	// class gotcha
	// coverage full
	// []
}
