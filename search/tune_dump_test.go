package search

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTuneDump prints, for every battery prompt, the expected memories and
// the best five with their scores (a "*" marks an expected one).
func TestTuneDump(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	ix, cases := devIndex(t)
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
		t.Logf("%s [%s]%s", c.ID, exp, b.String())
	}
}

// TestTuneGate prints, per prompt, the top document and the prompt terms it
// matches in its name, description, aliases or tags, with their idf.
func TestTuneGate(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	ix, cases := devIndex(t)
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	slugDoc := map[string]int{}
	for i := range ix.nDocs {
		d, _ := ix.doc(i)
		slugDoc[d.Slug] = i
	}
	for _, c := range cases {
		q := ParseQuery(c.Prompt, c.Previous)
		all := ix.search(q, Options{Limit: 1, Now: now, All: true}, &defaults)
		if len(all) == 0 {
			continue
		}
		top := slugDoc[all[0].Slug]
		var b strings.Builder
		for _, qt := range expand(q.terms, defaults.expand) {
			if !qt.prompt {
				continue
			}
			e := ix.lookup(qt.term)
			if e < 0 {
				continue
			}
			post, _ := ix.postings(e)
			ix.eachPosting(post, func(doc int, tf *[numFields]uint8) {
				if doc == top && (tf[0]+tf[1]+tf[2]+tf[3] > 0) {
					b.WriteString(" " + qt.term + "=" + fmtFloat(ix.idf(ix.docFreq(e))))
				}
			})
		}
		ok := slices.Contains(c.Expect, all[0].Slug)
		t.Logf("%s %v %s %.3f:%s", c.ID, ok, all[0].Slug, all[0].Score, b.String())
	}
}
