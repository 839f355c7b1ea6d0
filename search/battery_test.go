package search

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/shareddata"
)

var tune = flag.Bool("tune", false, "print ranking diagnostics on the dev battery")

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func fmtInt(n int) string { return strconv.Itoa(n) }

func devIndex(t testing.TB) (*Index, []battCase) {
	shareddata.Need(t)
	docs := loadStore(t, shareddata.Path("eval", "store"), "project")
	cases := loadBattery(t, shareddata.Path("eval", "battery-dev.jsonl"))
	return Build(docs), cases
}

func TestTuneReport(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	ix, cases := devIndex(t)
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for _, c := range cases {
		if len(c.Expect) == 0 {
			continue
		}
		q := ParseQuery(c.Prompt, c.Previous)
		all := ix.search(q, Options{Limit: 30, Now: now, All: true}, &defaults)
		pos := -1
		line := ""
		for i, r := range all {
			if slices.Contains(c.Expect, r.Slug) {
				pos = i
				break
			}
			if i < 3 {
				line += " " + r.Slug + "=" + fmtFloat(r.Score)
			}
		}
		if pos < 0 || pos >= 2 {
			t.Logf("%s rank %d of %v:%s\n    q: %s", c.ID, pos+1, c.Expect, line, q)
		}
	}
	m := measure(ix, cases, &defaults)
	t.Log(fmt.Sprintf("rank@2 %.2f hit@1 %.2f hit@2 %.2f silence %.2f precision %.2f score %d", m.rank2, m.hit1, m.hit2, m.silence, m.precision, m.score))
}

func (m metrics) String() string {
	return fmt.Sprintf("rank@2 %.2f hit@1 %.2f hit@2 %.2f silence %.2f precision %.2f score %d", m.rank2, m.hit1, m.hit2, m.silence, m.precision, m.score)
}

// TestTuneSweep varies one ranking constant at a time and, for each value,
// prints how the dev battery does at the shipped threshold and at the one
// calibrated for it, on the store as found and enriched.
func TestTuneSweep(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	ix, cases := devIndex(t)
	en := enrichedDevIndex(t)
	for _, v := range append([]sweep{{"defaults", func(*params) {}}}, sweeps...) {
		p := defaults
		v.set(&p)
		t.Logf("%-24s found    %s | cal %s", v.name, measure(ix, cases, &p), calibrate(ix, cases, &p))
		t.Logf("%-24s enriched %s | cal %s", "", measure(en, cases, &p), calibrate(en, cases, &p))
	}
}

type sweep struct {
	name string
	set  func(*params)
}

var sweeps = []sweep{
	{"alone=1", func(p *params) { p.alone = 1 }},
	{"alone=0.3", func(p *params) { p.alone = 0.3 }},
	{"alias weight=2", func(p *params) { p.weight[fieldAliases] = 2 }},
	{"k1=1.2", func(p *params) { p.k1 = 1.2 }},
	{"topTerms=1000", func(p *params) { p.topTerms = 1000 }},
	{"evidence=0", func(p *params) { p.evidence = 0 }},
	{"relative=0", func(p *params) { p.relative = 0 }},
	{"importance=0", func(p *params) { p.importance = 0 }},
	{"decayFloor=1", func(p *params) { p.decayFloor = 1 }},
	{"previous=0", func(p *params) { p.previous = 0 }},
	{"decayFloor=0.7", func(p *params) { p.decayFloor = 0.7 }},
	{"decayFloor=0.85", func(p *params) { p.decayFloor = 0.85 }},
	{"expand=0", func(p *params) { p.expand = 0 }},
	{"expand=0.3", func(p *params) { p.expand = 0.3 }},
	{"expand=1", func(p *params) { p.expand = 1 }},
	{"relative3=0.6", func(p *params) { p.relative3 = 0.6 }},
	{"relative=0.7", func(p *params) { p.relative = 0.7 }},
	{"relative=0.8", func(p *params) { p.relative = 0.8 }},
	{"cover=0", func(p *params) { p.cover = 0 }},
	{"cover=0.2", func(p *params) { p.cover = 0.2 }},
	{"closeCall=0", func(p *params) { p.closeCall = 0 }},
	{"restate=0", func(p *params) { p.restate = 0 }},
	{"restate=0.7", func(p *params) { p.restate = 0.7 }},
	{"restate=0.9", func(p *params) { p.restate = 0.9 }},
	{"restateBy=0.1", func(p *params) { p.restateBy = 0.1 }},
	{"restateBy=0.3", func(p *params) { p.restateBy = 0.3 }},
	{"restateMin=2", func(p *params) { p.restateMin = 2 }},
	{"restateMin=4", func(p *params) { p.restateMin = 4 }},
	{"aloneMin off", func(p *params) { p.aloneMin = 100 }},
	{"aloneMin=1", func(p *params) { p.aloneMin = 1 }},
	{"aloneMin=3", func(p *params) { p.aloneMin = 3 }},
}

// calibrate finds the threshold that maximises the signed score.
func calibrate(ix *Index, cases []battCase, p *params) string {
	bestScore, bestT := -1000, 0.0
	var bestM metrics
	for th := 0.05; th < 1.0; th += 0.01 {
		q := *p
		q.threshold = th
		m := measure(ix, cases, &q)
		if m.score > bestScore {
			bestScore, bestT, bestM = m.score, th, m
		}
	}
	return fmt.Sprintf("th %.2f %s", bestT, bestM)
}
