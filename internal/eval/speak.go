package eval

import (
	"math"
	"time"

	"github.com/mem-dev/mem/search"
)

// Sample is one case as the decision to speak sees it: the signals of its
// search, what speaking would inject, and what speaking is worth against
// silence in Score's points (from -2, noise where none is needed, to +1).
type Sample struct {
	Signals search.Signals
	Got     []string
	Gain    int
}

// Samples searches every case as Run does, as if the search always spoke.
func Samples(ix *search.Index, cases []Case, now time.Time) []Sample {
	cases = WithSuccessors(cases, ix.Docs())
	out := make([]Sample, len(cases))
	for i, c := range cases {
		s := &out[i]
		s.Got = []string{}
		for _, x := range ix.Search(search.ParseQuery(c.Prompt, c.Previous), search.Options{Limit: search.MaxInjected, Now: now, Signals: &s.Signals}) {
			s.Got = append(s.Got, x.Slug)
		}
		s.Gain = points(c, s.Got) - points(c, nil) // 0 when it found nothing
	}
	return out
}

// numFeatures is how many Features a SpeakModel weighs.
const numFeatures = 11

// Features are the signals as a SpeakModel weighs them: counts on a log
// scale, and the score again for an enriched store, where aliases raise
// every score and the same score says less.
func Features(s search.Signals) [numFeatures]float64 {
	return [numFeatures]float64{
		s.Score,
		s.Second,
		s.Cover,
		b2f(s.Phrase),
		math.Log1p(float64(s.Words)),
		s.Paste,
		s.Unknown,
		math.Log1p(float64(s.Rivals)),
		b2f(s.Aliases),
		s.Score * b2f(s.Aliases),
		b2f(s.Previous),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// SpeakModel is a logistic regression over Features: the search speaks
// when Bias + Weights·Features >= 0, i.e. when it is likelier than not
// that what it would inject holds a memory the prompt needs.
type SpeakModel struct {
	Bias    float64
	Weights [numFeatures]float64
}

// Logit is the model's log-odds that speaking is right.
func (m SpeakModel) Logit(s search.Signals) float64 {
	z := m.Bias
	for i, x := range Features(s) {
		z += m.Weights[i] * x
	}
	return z
}

// Speaks is the model's decision.
func (m SpeakModel) Speaks(s search.Signals) bool { return m.Logit(s) >= 0 }

// Decide scores the cases as the decision speaks would have answered them.
func Decide(cases []Case, samples []Sample, speaks func(search.Signals) bool) Report {
	got := make([][]string, len(cases))
	for i, s := range samples {
		got[i] = []string{}
		if len(s.Got) > 0 && speaks(s.Signals) {
			got[i] = s.Got
		}
	}
	return Score(cases, got)
}

// FitSpeak fits the decision to speak to samples: a logistic regression
// of whether speaking gains, each sample weighed by how much it gains or
// loses, with an L2 penalty of l2 on the weights (not the bias) of the
// standardised features, by Newton's method.
func FitSpeak(samples []Sample, l2 float64) SpeakModel {
	const n = numFeatures
	var xs [][n]float64
	var ys, ws []float64
	for _, s := range samples {
		if s.Gain == 0 {
			continue
		}
		xs = append(xs, Features(s.Signals))
		ys = append(ys, b2f(s.Gain > 0))
		ws = append(ws, math.Abs(float64(s.Gain)))
	}
	if len(xs) == 0 {
		return SpeakModel{}
	}
	// Standardise, so that one penalty suits every feature.
	var mean, sd [n]float64
	for _, x := range xs {
		for j := range n {
			mean[j] += x[j] / float64(len(xs))
		}
	}
	for _, x := range xs {
		for j := range n {
			sd[j] += (x[j] - mean[j]) * (x[j] - mean[j]) / float64(len(xs))
		}
	}
	for j := range n {
		sd[j] = math.Sqrt(sd[j])
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	const m = n + 1 // the bias first
	z := func(x [n]float64) [m]float64 {
		var v [m]float64
		v[0] = 1
		for j := range n {
			v[j+1] = (x[j] - mean[j]) / sd[j]
		}
		return v
	}
	var beta [m]float64
	for range 50 {
		grad := make([]float64, m)
		hess := make([][]float64, m)
		for j := range hess {
			hess[j] = make([]float64, m)
		}
		for i, x := range xs {
			v := z(x)
			var dot float64
			for j := range m {
				dot += beta[j] * v[j]
			}
			p := 1 / (1 + math.Exp(-dot))
			for j := range m {
				grad[j] += ws[i] * (ys[i] - p) * v[j]
				for k := range m {
					hess[j][k] += ws[i] * p * (1 - p) * v[j] * v[k]
				}
			}
		}
		for j := 1; j < m; j++ {
			grad[j] -= l2 * beta[j]
			hess[j][j] += l2
		}
		step := solve(hess, grad)
		var moved float64
		for j := range m {
			beta[j] += step[j]
			moved = max(moved, math.Abs(step[j]))
		}
		if moved < 1e-9 {
			break
		}
	}
	// Back to the features' own scale.
	model := SpeakModel{Bias: beta[0]}
	for j := range n {
		model.Weights[j] = beta[j+1] / sd[j]
		model.Bias -= model.Weights[j] * mean[j]
	}
	return model
}

// solve solves a·x = b by Gaussian elimination with partial pivoting; a
// direction the samples do not determine gets no step.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if math.Abs(a[c][c]) < 1e-12 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		if math.Abs(a[r][r]) < 1e-12 {
			continue
		}
		v := b[r]
		for k := r + 1; k < n; k++ {
			v -= a[r][k] * x[k]
		}
		x[r] = v / a[r][r]
	}
	return x
}
