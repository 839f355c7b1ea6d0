package mem

import (
	"strings"
	"testing"
)

// TestDeriveName: a name made from a memory's first line ends where the
// line's phrasing does (a sentence, else a clause), and a cut that must
// fall between words says so with "…".
func TestDeriveName(t *testing.T) {
	tests := []struct{ body, want string }{
		{"Spanish VAT rounds per line", "Spanish VAT rounds per line"},
		{"# Deploys\nNothing ships on Fridays.", "Deploys"},
		{"When the checkout service returns HTTP 502 during the nightly batch window, restart the payment worker first.",
			"When the checkout service returns HTTP 502 during the nightly batch window"},
		{"The staging database is reset every Sunday night. Never keep test data there, it is gone on Monday.",
			"The staging database is reset every Sunday night"},
		{"Rounding: the invoice total is computed from the rounded lines and never rounded again at the end of the order",
			"Rounding: the invoice total is computed from the rounded lines and…"},
		{strings.Repeat("supercalifragilistic", 5), strings.Repeat("supercalifragilistic", 5)[:69] + "…"},
	}
	for _, tt := range tests {
		if got := deriveName(tt.body); got != tt.want {
			t.Errorf("deriveName(%q)\n = %q\nwant %q", tt.body, got, tt.want)
		}
		if got := deriveName(tt.body); len(got) > nameSlack+len("…") {
			t.Errorf("deriveName(%q) is %d bytes", tt.body, len(got))
		}
	}
}
