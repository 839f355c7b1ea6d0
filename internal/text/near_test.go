package text

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	slugs := []string{"goose-migration-order", "checkout-vat", "checkout-vats-rounding", "no-deploys-on-friday", "verify", "version"}
	tests := []struct {
		word string
		n    int
		want []string
	}{
		{"goose-migration-ordr", 3, []string{"goose-migration-order"}},
		{"migration", 3, []string{"goose-migration-order"}},
		{"checkout", 3, []string{"checkout-vat", "checkout-vats-rounding"}},
		{"checkout", 1, []string{"checkout-vat"}},
		{"checkuot-vat", 3, []string{"checkout-vat"}}, // two slips in twelve letters
		{"vesion", 3, []string{"version"}},
		{"verison", 3, []string{"version"}},
		{"nosuch", 3, []string{}},
		{"checkout-vat", 3, []string{"checkout-vat", "checkout-vats-rounding"}},
		{"", 3, []string{}},
	}
	for _, tt := range tests {
		if got := Nearest(tt.word, slugs, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("Nearest(%q, %d) = %q, want %q", tt.word, tt.n, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"lsit", "list", 1}, {"ab", "ba", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"café", "cafe", 1}, {"same", "same", 0},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
