package search

import (
	"fmt"
	"testing"
)

// calibrateAll prints, for each threshold, the battery metrics.
func bestOf(ix *Index, cases []battCase, p *params) (metrics, float64) {
	bestScore, bestT := -1000.0, 0.0
	var bestM metrics
	for th := 0.05; th < 1.0; th += 0.005 {
		q := *p
		q.threshold = th
		m := measure(ix, cases, &q, false)
		// objective: signed score plus a precision term
		obj := float64(m.score) + 20*m.precision
		if m.silence < 0.97 {
			obj -= 100
		}
		if obj > bestScore {
			bestScore, bestT, bestM = obj, th, m
		}
	}
	return bestM, bestT
}

func TestExplore(t *testing.T) {
	if !*tune {
		t.Skip()
	}
	ix, cases := devIndex(t)
	for _, rel := range []float64{0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.01} {
		p := defaults
		p.relative = rel
		m, th := bestOf(ix, cases, &p)
		t.Log(fmt.Sprintf("relative %.2f th %.3f %s", rel, th, m))
	}
}
