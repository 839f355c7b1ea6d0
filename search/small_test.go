package search

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// smallStores judges p on small stores cut at random from the dev store:
// each holds size memories, and is met with the dev prompts whose memory it
// holds, the dev battery's silence prompts and the prompts of other
// projects. A small store's idf differs from a large one's, and the dev
// battery alone cannot show what a rule does to a new user's store.
func smallStores(t *testing.T, p params, size, rounds int) smallMetrics {
	needShared(t)
	docs := loadStore(t, filepath.Join(sharedDir, "eval", "store"), "project")
	cases := loadBattery(t, filepath.Join(sharedDir, "eval", "battery-dev.jsonl"))
	foreignCases := foreignPrompts(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var topical, quietN float64
	var h2, quiet, fq, fn, prec float64
	score := 0
	for range rounds {
		pick := slices.Clone(docs)
		rng.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
		pick = pick[:size]
		has := map[string]bool{}
		for _, d := range pick {
			has[d.Slug] = true
		}
		var in []battCase
		var nt, ns float64
		for _, c := range cases {
			switch {
			case len(c.Expect) == 0:
				ns++
			case slices.ContainsFunc(c.Expect, func(s string) bool { return has[s] }):
				nt++
			default:
				continue
			}
			in = append(in, c)
		}
		ix := Build(pick)
		m := measure(ix, in, &p)
		topical += nt
		h2 += m.hit2 * nt
		quiet += m.silence * ns
		quietN += ns
		prec += m.precision // a mean over the stores
		score += m.score
		f := measure(ix, foreignCases, &p)
		fq += f.silence * float64(len(foreignCases))
		fn += float64(len(foreignCases))
	}
	return smallMetrics{metrics{hit2: h2 / topical, silence: quiet / quietN, precision: prec / float64(rounds), score: score}, fq / fn}
}

// TestSmallStoresSilentOnOtherProjects: a store of 25 memories cannot tell
// a generic word from a topical one by idf, yet meets prompts typed on other
// projects with silence and still finds its memories for the dev prompts
// about them. The floors are below what the method measured when it was
// last changed (0.90 and 0.87; silence 0.76 without the unseen-word rule).
func TestSmallStoresSilentOnOtherProjects(t *testing.T) {
	m := smallStores(t, defaults, 25, 20)
	t.Logf("25-memory stores: hit@2 %.2f, silence %.2f, silence on prompts of other projects %.2f", m.hit2, m.silence, m.foreign)
	if m.foreign < 0.85 {
		t.Errorf("silence on prompts of other projects = %.2f, want >= 0.85", m.foreign)
	}
	if m.hit2 < 0.8 {
		t.Errorf("hit@2 = %.2f, want >= 0.80", m.hit2)
	}
}

// smallMetrics are the dev battery's measures over many small stores, and
// silence on prompts of other projects.
type smallMetrics struct {
	metrics
	foreign float64
}
