package enrich

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/mdparse"
)

func vatMemory() *mdparse.Memory {
	return mdparse.New(mdparse.Fields{
		Name:        "Spanish VAT rounds per line",
		Description: "VAT is rounded per order line, never on the order total",
		Class:       "gotcha",
		Tags:        []string{"checkout", "vat"},
	}, "Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py.")
}

func deployMemory() *mdparse.Memory {
	return mdparse.New(mdparse.Fields{Name: "Production deploy incident", Class: "event"},
		"On 2026-03-02 a deploy without the migration flag took the API down for 20 minutes.")
}

func TestFilter(t *testing.T) {
	tests := []struct {
		name    string
		m       *mdparse.Memory
		aliases []string
		kept    []string
		dropped map[string]string
	}{
		{
			name:    "paraphrases kept",
			m:       deployMemory(),
			aliases: []string{"I'm about to wreck prod", "deploy broke the api", "site down after release"},
			kept:    []string{"I'm about to wreck prod", "deploy broke the api", "site down after release"},
		},
		{
			name:    "copies dropped, stemmed and in any order",
			m:       deployMemory(),
			aliases: []string{"production deploy", "Deploying to PRODUCTION", "the incident", "production deploy incidents"},
			dropped: map[string]string{
				"production deploy":           ReasonCopy,
				"Deploying to PRODUCTION":     ReasonCopy,
				"the incident":                ReasonCopy,
				"production deploy incidents": ReasonCopy,
			},
		},
		{
			name: "80% of the words copied is a copy, 75% is not",
			m:    vatMemory(),
			aliases: []string{
				"spanish vat order line rounding total", // 6/6
				"vat order line round total cents",      // 5/6 = 83%
				"spanish vat order total refunds",       // 4/5 = 80%
				"rounding error on spanish orders",      // 3/4 = 75%
				"one cent off",                          // new
			},
			kept: []string{"rounding error on spanish orders", "one cent off"},
			dropped: map[string]string{
				"spanish vat order line rounding total": ReasonCopy,
				"vat order line round total cents":      ReasonCopy,
				"spanish vat order total refunds":       ReasonCopy,
			},
		},
		{
			name:    "the memory's terms count as written and lower-cased",
			m:       mdparse.New(mdparse.Fields{Name: "TestScheduler_NextRun fails on ULIDs", Class: "gotcha"}, "x"),
			aliases: []string{"test scheduler run", "ULIDS", "flaky nightly job"},
			kept:    []string{"flaky nightly job"},
			dropped: map[string]string{"test scheduler run": ReasonCopy, "ULIDS": ReasonCopy},
		},
		{
			name: "tags count as the memory's own terms; the body does not",
			m:    vatMemory(),
			aliases: []string{
				"checkout vat",               // tags
				"multi-item orders one cent", // body words: worth lifting into a field
			},
			kept:    []string{"multi-item orders one cent"},
			dropped: map[string]string{"checkout vat": ReasonCopy},
		},
		{
			name:    "empty, blank and wordless dropped",
			m:       vatMemory(),
			aliases: []string{"", "   ", "\t\n", "how do I do this?", "ok go ahead", "?!"},
			dropped: map[string]string{"": ReasonEmpty, "   ": ReasonEmpty, "\t\n": ReasonEmpty, "how do I do this?": ReasonNoWords, "ok go ahead": ReasonNoWords, "?!": ReasonNoWords},
		},
		{
			name:    "long dropped, 80 runes kept",
			m:       vatMemory(),
			aliases: []string{strings.Repeat("café refunds ", 6) + "ok", "why " + strings.Repeat("refund ", 12)},
			kept:    []string{strings.Repeat("café refunds ", 6) + "ok"}, // 80 runes, 86 bytes
			dropped: map[string]string{"why " + strings.Repeat("refund ", 12): ReasonTooLong},
		},
		{
			name:    "whitespace collapsed, repeats dropped by their words",
			m:       vatMemory(),
			aliases: []string{"  one   cent\noff ", "One cent off!", "off by one cent", "cent off, one"},
			kept:    []string{"one cent off"},
			dropped: map[string]string{"One cent off!": ReasonRepeat, "off by one cent": ReasonRepeat, "cent off, one": ReasonRepeat},
		},
		{
			name: "at most 8",
			m:    vatMemory(),
			aliases: []string{"alpha refunds", "bravo invoices", "charlie receipts", "delta cents", "echo penny",
				"foxtrot mismatch", "golf accounting", "hotel ledger", "india extra", "juliet more"},
			kept: []string{"alpha refunds", "bravo invoices", "charlie receipts", "delta cents", "echo penny",
				"foxtrot mismatch", "golf accounting", "hotel ledger"},
			dropped: map[string]string{"india extra": ReasonOverLimit, "juliet more": ReasonOverLimit},
		},
		{
			name:    "dropped ones do not count toward the limit",
			m:       vatMemory(),
			aliases: []string{"vat", "", "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p", "one cent off"},
			kept:    []string{"one cent off"},
			dropped: map[string]string{"vat": ReasonCopy, "": ReasonEmpty, "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p": ReasonTooLong},
		},
		{
			name:    "no memory: nothing is a copy",
			m:       nil,
			aliases: []string{"spanish vat"},
			kept:    []string{"spanish vat"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, dropped := Filter(tt.m, tt.aliases)
			if !slices.Equal(kept, tt.kept) {
				t.Errorf("kept %q, want %q", kept, tt.kept)
			}
			want := tt.dropped
			if want == nil {
				want = map[string]string{}
			}
			if !maps.Equal(dropped, want) {
				t.Errorf("dropped %q, want %q", dropped, want)
			}
		})
	}
}

func TestAsk(t *testing.T) {
	b := Batch{Targets: []Note{{"production-deploy-incident", deployMemory()}, {"spanish-vat-rounds-per-line", vatMemory()}}}
	a := &modeltest.Asker{Answer: `{"aliases":{"production-deploy-incident":["I'm about to wreck prod","production deploy","api went down after release","","I'm about to wreck prod"],"a-neighbour":["not asked about"]}}`}
	got, err := Ask(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	res := got["production-deploy-incident"]
	if want := []string{"I'm about to wreck prod", "api went down after release"}; !slices.Equal(res.Kept, want) {
		t.Errorf("kept %q, want %q", res.Kept, want)
	}
	if res.Dropped["production deploy"] != ReasonCopy || res.Dropped[""] != ReasonEmpty || res.Dropped["I'm about to wreck prod"] != ReasonRepeat {
		t.Errorf("dropped %q", res.Dropped)
	}
	if r, ok := got["spanish-vat-rounds-per-line"]; ok {
		t.Errorf("a target the model left out: %+v; want no result, so that it is left as it is", r)
	}
	if _, ok := got["a-neighbour"]; ok || len(got) != 1 {
		t.Errorf("results %v: want the answered target only", got)
	}
	for _, want := range []string{"Production deploy incident", "production-deploy-incident", "Spanish VAT rounds per line"} {
		if !strings.Contains(a.Prompt(), want) {
			t.Errorf("the prompt does not name %q", want)
		}
	}

	down := errors.New("model down")
	if _, err := Ask(context.Background(), &modeltest.Asker{Err: down}, b); !errors.Is(err, down) {
		t.Errorf("model failure: got %v", err)
	}
	// No alias for any memory asked about is no answer, whatever its shape.
	for _, answer := range []string{
		`{"aliases":["a list, not a map"]}`,
		`{"aliases":{},"why":"x"}`,
		`{}`,
		`{"aliases":{}}`,
		`{"aliases":null}`,
		`{"aliases":{"production-deploy-incident":[],"spanish-vat-rounds-per-line":["  "]}}`,
		`{"aliases":{"a-neighbour":["not asked about"]}}`,
	} {
		if _, err := Ask(context.Background(), &modeltest.Asker{Answer: answer}, b); err == nil {
			t.Errorf("answer %s: want an error", answer)
		}
	}
	if _, err := Ask(context.Background(), nil, b); err == nil {
		t.Error("nil modelcmd.Asker: want an error")
	}
	if _, err := Ask(context.Background(), a, Batch{}); err == nil {
		t.Error("no memory: want an error")
	}
}

func TestPrompt(t *testing.T) {
	b := Batch{
		Targets:  []Note{{"spanish-vat-rounds-per-line", vatMemory()}},
		Contrast: []Note{{"production-deploy-incident", deployMemory()}},
	}
	p := Prompt(b)
	for _, want := range []string{
		"spanish-vat-rounds-per-line",
		"Spanish VAT rounds per line",
		"VAT is rounded per order line, never on the order total",
		"checkout, vat",
		"off by one cent", // the body
		"5 to 8 aliases",
		"- production-deploy-incident: Production deploy incident", // a neighbour, by name only
		"only repeats the note's name",
		`{"aliases":{"<slug>":[`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(p, "took the API down") {
		t.Error("a neighbour's body is in the prompt")
	}
	long := mdparse.New(mdparse.Fields{Name: "Long"}, strings.Repeat("ü", bodyCap))
	if p := Prompt(Batch{Targets: []Note{{"long", long}}}); len(p) > bodyCap+3000 || !strings.Contains(p, "…") {
		t.Errorf("a long body is not cut: prompt of %d bytes", len(p))
	}
}

func TestPlan(t *testing.T) {
	note := func(slug, name string, tags ...string) Note {
		return Note{slug, mdparse.New(mdparse.Fields{Name: name, Tags: tags}, "body")}
	}
	var all []Note
	for i := range 10 {
		all = append(all, note(fmt.Sprintf("stripe-%d", i), fmt.Sprintf("Stripe webhook case %d", i), "stripe", "webhooks"))
	}
	for i := range 10 {
		all = append(all, note(fmt.Sprintf("terraform-%d", i), fmt.Sprintf("Terraform state case %d", i), "terraform", "infra"))
	}
	todo := []string{"stripe-3", "terraform-4", "stripe-8", "stripe-3"}
	batches := Plan(all, todo)
	var got []string
	for _, b := range batches {
		if len(b.Targets) > BatchSize || len(b.Contrast) > maxContrast {
			t.Errorf("batch of %d targets and %d neighbours", len(b.Targets), len(b.Contrast))
		}
		for _, n := range b.Targets {
			got = append(got, n.Slug)
		}
		for _, n := range b.Contrast {
			if slices.ContainsFunc(b.Targets, func(x Note) bool { return x.Slug == n.Slug }) {
				t.Errorf("%s is both a target and a neighbour", n.Slug)
			}
		}
	}
	slices.Sort(got)
	if want := []string{"stripe-3", "stripe-8", "terraform-4"}; !slices.Equal(got, want) {
		t.Errorf("targets %q, want each of %q once", got, want)
	}
	// The neighbours shown are the memories most like the targets.
	b := Plan(all, []string{"stripe-3"})[0]
	if len(b.Contrast) != maxContrast {
		t.Fatalf("%d neighbours, want %d", len(b.Contrast), maxContrast)
	}
	for _, n := range b.Contrast {
		if !strings.HasPrefix(n.Slug, "stripe-") {
			t.Errorf("neighbour %s of a stripe memory", n.Slug)
		}
	}
	// Same store, same batches: the prompts replay.
	if again := Plan(all, todo); !slices.EqualFunc(again, batches, func(a, b Batch) bool { return Prompt(a) == Prompt(b) }) {
		t.Error("the same store planned twice gave different prompts")
	}
	if Plan(all, []string{"not-in-the-store"}) != nil {
		t.Error("an unknown slug was planned")
	}
}

func FuzzFilter(f *testing.F) {
	f.Add("Spanish VAT rounds per line", "VAT is rounded per order line", "checkout,vat", "one cent off\nspanish vat\n\n"+strings.Repeat("x ", 50))
	f.Add("", "", "", "")
	f.Add("a", "b", "c", "a\na\nb\nc\nd e f\n\xff\xfe\n\u200b\n\t")
	f.Fuzz(func(t *testing.T, name, desc, tags, aliases string) {
		m := mdparse.New(mdparse.Fields{Name: name, Description: desc, Tags: strings.Split(tags, ",")}, "body")
		in := strings.Split(aliases, "\n")
		kept, dropped := Filter(m, in)
		if len(kept) > MaxAliases {
			t.Fatalf("kept %d aliases", len(kept))
		}
		for _, a := range kept {
			if strings.TrimSpace(a) == "" || len([]rune(a)) > MaxAliasLen {
				t.Fatalf("kept %q", a)
			}
		}
		for a, reason := range dropped {
			if !slices.Contains(in, a) || reason == "" {
				t.Fatalf("dropped %q (%q), which was not given", a, reason)
			}
		}
		if len(kept) == 0 && len(dropped) == 0 && len(in) > 0 {
			t.Fatal(fmt.Sprintf("%d aliases neither kept nor dropped", len(in)))
		}
	})
}
