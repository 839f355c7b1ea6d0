package search

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// explain lists what each query term gave document id, best first:
// term(field letters)=contribution.
func explain(ix *Index, q Query, id int, p *params) string {
	terms := q.terms
	if p.expand > 0 {
		terms = expand(terms, p.expand)
	}
	type part struct {
		term string
		s    float64
	}
	var parts []part
	for _, t := range terms {
		e := ix.lookup(t.term)
		if e < 0 {
			continue
		}
		st := termStat{qterm: t, entry: e, idf: ix.idf(ix.docFreq(e))}
		st.post, _ = ix.postings(e)
		if !t.prompt {
			st.weight *= p.previous / weightPrevious
		}
		post, ok := ix.postings(e)
		if !ok {
			continue
		}
		ix.eachPosting(post, func(doc int, tf *[numFields]uint8) {
			if doc != id {
				return
			}
			fields := ""
			for f, c := range "ndatb" {
				if tf[f] > 0 {
					fields += string(c)
				}
			}
			touched := make([]bool, ix.nDocs)
			ix.contributions(st, ix.phrases([]termStat{st}, promptWords([]termStat{st}), p), touched, p, func(doc int, s float64, _ bool) {
				if doc == id {
					name := t.term + "(" + fields + ")"
					if t.expansion {
						name = "~" + name
					}
					parts = append(parts, part{name, s})
				}
			})
		})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].s > parts[j].s })
	var b strings.Builder
	for _, pt := range parts {
		fmt.Fprintf(&b, " %s=%.2f", pt.term, pt.s)
	}
	return b.String()
}

// TestTuneWrong prints every injected memory that the dev battery did not
// expect, on the enriched store, with where it stood and what brought it
// (explain does not apply the alias phrase rule), and counts them by kind:
// where precision is lost.
func TestTuneWrong(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	_, cases := devIndex(t)
	ix := enrichedDevIndex(t)
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	byID := map[string]int{}
	for i := range ix.nDocs {
		d, _ := ix.doc(i)
		byID[d.Slug] = i
	}
	kinds := map[string]int{}
	inj, rel := 0, 0
	for _, c := range cases {
		q := ParseQuery(c.Prompt, c.Previous)
		res := ix.search(q, Options{Limit: MaxInjected, Now: now}, &defaults)
		firstRight := len(res) > 0 && slices.Contains(c.Expect, res[0].Slug)
		for i, r := range res {
			inj++
			if slices.Contains(c.Expect, r.Slug) {
				rel++
				continue
			}
			kind := ""
			switch {
			case len(c.Expect) == 0:
				kind = "on a silence prompt"
			case i == 0:
				kind = "first, wrong"
			case firstRight:
				kind = fmt.Sprintf("#%d under a right first", i+1)
			default:
				kind = fmt.Sprintf("#%d under a wrong first", i+1)
			}
			kinds[kind]++
			t.Logf("%s %-28s #%d %s=%.2f (top %.2f) want %v\n    prompt: %.110s\n    %s", c.ID, kind, i+1, r.Slug, r.Score, res[0].Score, c.Expect, c.Prompt, explain(ix, q, byID[r.Slug], &defaults))
			for _, e := range c.Expect {
				if id, ok := byID[e]; ok && i == 0 {
					t.Logf("    wanted %s:%s", e, explain(ix, q, id, &defaults))
				}
			}
		}
	}
	t.Logf("injected %d, relevant %d (%.2f); wrong by kind: %v", inj, rel, float64(rel)/float64(max(1, inj)), kinds)
}

// TestTuneOracle bounds what choosing between one memory and two can buy
// with the ranking as it is, on the dev store enriched: per prompt that
// gets an answer, an oracle that knows it shows both only when the second
// alone is right, the first alone otherwise. No rule that picks one or two
// reaches a higher precision at the same hit@2; a rule that also chose
// silence could.
func TestTuneOracle(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	_, cases := devIndex(t)
	ix := enrichedDevIndex(t)
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	both := defaults
	both.aloneMin = 1 << 10 // the ranking's two, as settle orders them
	var topical, hit2, inj, rel, silentInj int
	for _, c := range cases {
		res := ix.search(ParseQuery(c.Prompt, c.Previous), Options{Limit: MaxInjected, Now: now}, &both)
		if len(c.Expect) == 0 {
			silentInj += len(res)
			continue
		}
		topical++
		right := func(i int) bool { return i < len(res) && slices.Contains(c.Expect, res[i].Slug) }
		switch {
		case right(0):
			inj, rel, hit2 = inj+1, rel+1, hit2+1
		case right(1):
			inj, rel, hit2 = inj+2, rel+1, hit2+1
		case len(res) > 0:
			inj++
		}
	}
	t.Logf("oracle: hit@2 %.2f, precision %.2f (%d of %d injected; silence prompts injected %d)",
		float64(hit2)/float64(topical), float64(rel)/float64(max(1, inj+silentInj)), rel, inj+silentInj, silentInj)
}
