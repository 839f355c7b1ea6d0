package enrich

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/modeltest"
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

func TestAliases(t *testing.T) {
	m := deployMemory()
	a := &modeltest.Asker{Answer: `{"aliases":["I'm about to wreck prod","production deploy","api went down after release","","I'm about to wreck prod"]}`}
	kept, dropped, err := Aliases(context.Background(), a, m, "production-deploy-incident")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"I'm about to wreck prod", "api went down after release"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if dropped["production deploy"] != ReasonCopy || dropped[""] != ReasonEmpty || dropped["I'm about to wreck prod"] != ReasonRepeat {
		t.Errorf("dropped %q", dropped)
	}
	if !strings.Contains(a.Prompt(), "Production deploy incident") || !strings.Contains(a.Prompt(), "production-deploy-incident") {
		t.Error("the prompt does not name the memory")
	}

	down := errors.New("model down")
	if _, _, err := Aliases(context.Background(), &modeltest.Asker{Err: down}, m, "x"); !errors.Is(err, down) {
		t.Errorf("model failure: got %v", err)
	}
	if _, _, err := Aliases(context.Background(), &modeltest.Asker{Answer: `{"aliases":[],"why":"x"}`}, m, "x"); err == nil {
		t.Error("wrong answer shape: want an error")
	}
	if _, _, err := Aliases(context.Background(), nil, m, "x"); err == nil {
		t.Error("nil model.Asker: want an error")
	}
	if _, _, err := Aliases(context.Background(), a, nil, "x"); err == nil {
		t.Error("nil memory: want an error")
	}
}

func TestPrompt(t *testing.T) {
	m := vatMemory()
	p := Prompt(m, "spanish-vat-rounds-per-line")
	for _, want := range []string{
		"spanish-vat-rounds-per-line",
		"Spanish VAT rounds per line",
		"VAT is rounded per order line, never on the order total",
		"checkout, vat",
		"off by one cent", // the body
		"5 to 8 aliases",
		"Paraphrase",
		"NOT in the note's name",
		"the problem",
		`{"aliases":[`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	long := mdparse.New(mdparse.Fields{Name: "Long"}, strings.Repeat("ü", bodyCap))
	if p := Prompt(long, "long"); len(p) > bodyCap+3000 || !strings.Contains(p, "…") {
		t.Errorf("a long body is not cut: prompt of %d bytes", len(p))
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
