package class

import (
	"slices"
	"testing"
)

// TestCatalogOrder: every class has a place in a catalog, once.
func TestCatalogOrder(t *testing.T) {
	var places []int
	for _, c := range All {
		places = append(places, c.Catalog)
	}
	slices.Sort(places)
	for i, p := range places {
		if p != i {
			t.Fatalf("catalog places %v are not 0..%d, each once", places, len(All)-1)
		}
	}
	if !Valid(Default) || Rank("rule") != 0 || Rank("preference") != 1 || Rank("event") != len(All)-1 || Rank("nope") != len(All) {
		t.Error("Default, Rank or Valid disagree with the list")
	}
}

// TestTypes: each of Claude Code's memory types reads as one class.
func TestTypes(t *testing.T) {
	for typ, want := range map[string]string{"user": "preference", "feedback": "rule", "project": "fact", "reference": "reference"} {
		if got, ok := OfType(typ); !ok || got != want {
			t.Errorf("OfType(%q) = %q, %v; want %q", typ, got, ok, want)
		}
	}
	if c, ok := OfType("gotcha"); ok {
		t.Errorf("OfType(gotcha) = %q: not one of Claude Code's types", c)
	}
}

func TestDecays(t *testing.T) {
	for c, want := range map[string]bool{"rule": false, "preference": false, "fact": true, "event": true, "": true, "nope": true} {
		if got := Decays(c); got != want {
			t.Errorf("Decays(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestSentences(t *testing.T) {
	if got, want := List("or"), "rule, fact, event, gotcha, reference, procedure, preference or decision"; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
	if got, want := Described(), "rule (always or never do X), fact, event (what happened, when), gotcha (a trap and its way out), reference (where to find something), procedure (steps), preference (how the user wants things), decision (a choice and its reason)"; got != want {
		t.Errorf("Described = %q, want %q", got, want)
	}
}
