package class

import (
	"slices"
	"testing"
)

// TestPrecedenceCoversNames: every class has a place in a catalog, once.
func TestPrecedenceCoversNames(t *testing.T) {
	a, b := slices.Clone(Names), slices.Clone(precedence)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("precedence %v is not a permutation of Names %v", precedence, Names)
	}
	if !Valid(Default) || Rank("rule") != 0 || Rank("nope") != len(Names) {
		t.Error("Default, Rank or Valid disagree with the lists")
	}
}
