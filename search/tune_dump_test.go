package search

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTuneDump prints, for every battery prompt, the expected memories and
// the best five with their scores (a "*" marks an expected one), on the
// dev store as found and enriched.
func TestTuneDump(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	ix, cases := devIndex(t)
	dump(t, "found", ix, cases)
	dump(t, "enriched", enrichedDevIndex(t), cases)
}

func dump(t *testing.T, label string, ix *Index, cases []battCase) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for _, c := range cases {
		q := ParseQuery(c.Prompt, c.Previous)
		all := ix.search(q, Options{Limit: 5, Now: now, All: true}, &defaults)
		var b strings.Builder
		for _, r := range all {
			mark := ""
			if slices.Contains(c.Expect, r.Slug) {
				mark = "*"
			}
			b.WriteString(" " + mark + r.Slug + "=" + fmtFloat(r.Score))
		}
		exp := strings.Join(c.Expect, ",")
		if exp == "" {
			exp = "-"
		}
		t.Logf("%s %s [%s]%s", label, c.ID, exp, b.String())
	}
}
