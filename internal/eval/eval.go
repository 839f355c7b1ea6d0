// Package eval measures retrieval quality on a battery of prompts.
//
// A battery is JSONL, one prompt per line:
//
//	{"id": "p017", "prompt": "...", "previous": "optional previous assistant turn", "expect": ["slug", ...], "ok": ["slug", ...]}
//
// expect: [] means the right answer is silence. ok (optional) names memories
// plainly on topic for a prompt that needs none: injecting only those is not
// noise (the prompt counts as silent, and they count as relevant). A store's
// labels (ReadLabels) make a duplicate of an expected memory as right as the
// memory the battery names (WithDuplicates). Run reports hit@1, hit@2 (an
// expected slug in the top two), the silence rate on expect:[] prompts, the
// precision of everything injected (at most search.MaxInjected results a
// prompt from mem's hook; another hook scored by Score may show more), and a
// signed score: +1 for a hit in the top two, 0 for silence on a topical
// prompt, -1 for injecting only wrong memories; on silence prompts +1 for
// silence and -1 for any injection. A confident wrong answer costs more than
// an honest blank.
//
// The package imports only the standard library and search.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/search"
)

// Case is one prompt of a battery.
type Case struct {
	ID       string   `json:"id"`
	Prompt   string   `json:"prompt"`
	Previous string   `json:"previous,omitempty"`
	Expect   []string `json:"expect"`
	OK       []string `json:"ok,omitempty"`
}

// ReadBattery reads a JSONL battery. Blank lines are skipped.
func ReadBattery(r io.Reader) ([]Case, error) {
	var cases []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c struct {
			Case
			Expect *[]string `json:"expect"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("battery line %d: %w", n, err)
		}
		switch {
		case c.ID == "":
			return nil, fmt.Errorf("battery line %d: missing id", n)
		case c.Expect == nil:
			return nil, fmt.Errorf("battery line %d: missing expect (use [] for silence)", n)
		}
		if prev, ok := seen[c.ID]; ok {
			return nil, fmt.Errorf("battery line %d: id %q already used on line %d", n, c.ID, prev)
		}
		seen[c.ID] = n
		c.Case.Expect = *c.Expect
		cases = append(cases, c.Case)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read battery: %w", err)
	}
	return cases, nil
}

// Report is the outcome of a battery run.
type Report struct {
	Cases     int     `json:"cases"`
	HitAt1    float64 `json:"hit_at_1"`  // share of topical prompts whose first result is expected
	HitAt2    float64 `json:"hit_at_2"`  // share of topical prompts with an expected result in the top two
	Silence   float64 `json:"silence"`   // share of expect:[] prompts that got nothing
	Precision float64 `json:"precision"` // share of injected results that were expected
	Score     int     `json:"score"`     // signed score, see the package doc
	Misses    []Miss  `json:"misses"`
}

// Miss is a prompt that did not score +1. For a prompt that expected a
// memory, Rank and Score say where the first expected memory stood with the
// threshold off: one ranked 1 or 2 was lost to the threshold (or to the cut
// a second result must clear), a lower one to ranking, and one outside the
// top missRanks (Rank 0) most likely shares no words with the prompt, which
// is what aliases (`mem enrich`) are for.
type Miss struct {
	ID     string   `json:"id"`
	Prompt string   `json:"prompt"`
	Expect []string `json:"expect"`
	Got    []string `json:"got"`
	Rank   int      `json:"rank,omitempty"`  // 1-based, among the first missRanks results
	Score  float64  `json:"score,omitempty"` // the expected memory's score at that rank
	at     int      // the case's place in the battery
}

// missRanks is how deep a miss's expected memory is looked for.
const missRanks = 50

// Run searches every case as the prompt hook does, injecting at most
// search.MaxInjected results, and scores them (Score). An expected memory
// the store marks superseded is answered by its successor too (WithSuccessors):
// after curation the newer memory, which folded the older one in, is the
// right answer. A miss that expected a memory says where it ranked with the
// threshold off.
func Run(ix *search.Index, cases []Case, now time.Time) Report {
	cases = WithSuccessors(cases, ix.Docs())
	queries := make([]search.Query, len(cases))
	got := make([][]string, len(cases))
	for i, c := range cases {
		queries[i] = search.ParseQuery(c.Prompt, c.Previous)
		got[i] = []string{} // "got": [] in JSON, not null
		for _, x := range ix.Search(queries[i], search.Options{Limit: search.MaxInjected, Now: now}) {
			got[i] = append(got[i], x.Slug)
		}
	}
	r := Score(cases, got)
	for i := range r.Misses {
		m := &r.Misses[i]
		if len(m.Expect) == 0 {
			continue
		}
		all := ix.Search(queries[m.at], search.Options{Limit: missRanks, Now: now, All: true})
		if j := slices.IndexFunc(all, func(x search.Result) bool { return slices.Contains(m.Expect, x.Slug) }); j >= 0 {
			m.Rank, m.Score = j+1, all[j].Score
		}
	}
	return r
}

// Score scores what each case got (got[i] for cases[i], best first) as the
// package doc says: whatever injected them, mem's search or another hook
// measured beside it.
func Score(cases []Case, got [][]string) Report {
	var r Report
	var topical, hit1, hit2, quiet, silentCases, injected, relevant int
	for i, c := range cases {
		got := got[i]
		injected += len(got)
		for _, g := range got {
			if c.onTopic(g) {
				relevant++
			}
		}
		point := points(c, got)
		if len(c.Expect) == 0 {
			silentCases++
			if point == 1 {
				quiet++
			}
		} else {
			topical++
			if len(got) > 0 && c.expects(got[0]) {
				hit1++
			}
			if point == 1 {
				hit2++
			}
		}
		r.Score += point
		if point < 1 {
			r.Misses = append(r.Misses, Miss{ID: c.ID, Prompt: c.Prompt, Expect: c.Expect, Got: got, at: i})
		}
	}
	r.Cases = len(cases)
	r.HitAt1 = ratio(hit1, topical)
	r.HitAt2 = ratio(hit2, topical)
	r.Silence = ratio(quiet, silentCases)
	r.Precision = ratio(relevant, injected)
	return r
}

// points is what a case scores for got (see the package doc): +1 for a
// hit in the top two or for silence where none is needed, -1 for noise
// where none is needed or for only wrong memories, 0 for silence on a
// topical prompt.
func points(c Case, got []string) int {
	switch {
	case len(c.Expect) == 0 && slices.ContainsFunc(got, func(s string) bool { return !c.onTopic(s) }):
		return -1
	case len(c.Expect) == 0:
		return 1
	case slices.ContainsFunc(got[:min(2, len(got))], c.expects):
		return 1
	case len(got) > 0 && !slices.ContainsFunc(got, c.expects):
		return -1
	}
	return 0
}

// expects reports whether slug is a memory the case expects.
func (c Case) expects(slug string) bool { return slices.Contains(c.Expect, slug) }

// onTopic reports whether slug is expected or plainly on topic (ok).
func (c Case) onTopic(slug string) bool { return c.expects(slug) || slices.Contains(c.OK, slug) }

// Labels are what a store's labels file (store-labels.json) says of its
// memories that scoring needs: the pairs that say the same thing.
type Labels struct {
	IdenticalDupes [][]string `json:"identical_dupes"`
	NearDupes      [][]string `json:"near_dupes"`
}

// ReadLabels reads a store's labels file; keys other than the duplicates
// are the curator's and verifier's, and are ignored here.
func ReadLabels(r io.Reader) (Labels, error) {
	var l Labels
	if err := json.NewDecoder(r).Decode(&l); err != nil {
		return Labels{}, fmt.Errorf("read labels: %w", err)
	}
	for _, pair := range append(l.IdenticalDupes, l.NearDupes...) {
		if len(pair) != 2 || pair[0] == "" || pair[1] == "" {
			return Labels{}, fmt.Errorf("read labels: a duplicate pair %q is not two slugs", pair)
		}
	}
	return l, nil
}

// WithDuplicates returns cases with each expected memory's labelled
// duplicates (identical or near) expected too: either answers the prompt.
func WithDuplicates(cases []Case, l Labels) []Case {
	dupes := map[string][]string{}
	for _, p := range append(l.IdenticalDupes, l.NearDupes...) {
		dupes[p[0]] = append(dupes[p[0]], p[1])
		dupes[p[1]] = append(dupes[p[1]], p[0])
	}
	return widen(cases, func(slug string) []string { return dupes[slug] })
}

// WithSuccessors returns cases with each expected memory's successor (the
// memory it is superseded by, and that one's, in docs) expected too.
func WithSuccessors(cases []Case, docs []search.Doc) []Case {
	next := map[string]string{}
	for _, d := range docs {
		if d.SupersededBy != "" {
			next[d.Slug] = d.SupersededBy
		}
	}
	if len(next) == 0 {
		return cases
	}
	return widen(cases, func(slug string) (chain []string) {
		for s, ok := next[slug]; ok && !slices.Contains(chain, s) && s != slug; s, ok = next[s] {
			chain = append(chain, s)
		}
		return chain
	})
}

// widen returns cases with the memories also(e) expected beside each
// expected memory e, once each; cases is not changed.
func widen(cases []Case, also func(string) []string) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		expect := slices.Clone(c.Expect)
		for _, e := range c.Expect {
			for _, a := range also(e) {
				if !slices.Contains(expect, a) {
					expect = append(expect, a)
				}
			}
		}
		c.Expect = expect
		out[i] = c
	}
	return out
}

// ratio is n/d, and 1 when there is nothing to measure.
func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

// Figures is the report's figures on one line, as mem eval prints them.
func (r Report) Figures() string {
	return fmt.Sprintf("cases %d  hit@1 %.2f  hit@2 %.2f  silence %.2f  precision %.2f  score %+d",
		r.Cases, r.HitAt1, r.HitAt2, r.Silence, r.Precision, r.Score)
}

// WriteText writes the report for people: the figures, then the misses.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(r.Figures() + "\n")
	for _, m := range r.Misses {
		expect := strings.Join(m.Expect, ", ")
		if expect == "" {
			expect = "(silence)"
		}
		got := strings.Join(m.Got, ", ")
		if got == "" {
			got = "(silence)"
		}
		switch {
		case len(m.Expect) == 0:
		case m.Rank > 0:
			expect += fmt.Sprintf(" (rank %d, score %.2f, with the threshold off)", m.Rank, m.Score)
		default:
			expect += fmt.Sprintf(" (not in the top %d with the threshold off)", missRanks)
		}
		fmt.Fprintf(&b, "miss %s: expect %s; got %s\n  %s\n", m.ID, expect, got, oneLine(m.Prompt, 100))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
