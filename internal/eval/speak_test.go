package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mem-dev/mem/search"
)

// TestFitSpeak: samples drawn from a known logistic model give back its
// weights, and the model that it fits speaks where speaking gains.
func TestFitSpeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := func(s search.Signals) float64 { return -2 + 4*s.Score - s.Cover }
	var samples []Sample
	for range 4000 {
		s := search.Signals{Score: rng.Float64(), Cover: rng.Float64(), Aliases: rng.IntN(2) == 0}
		gain := -1
		if rng.Float64() < 1/(1+math.Exp(-truth(s))) {
			gain = 1
		}
		samples = append(samples, Sample{Signals: s, Got: []string{"m"}, Gain: gain})
	}
	m := FitSpeak(samples, 0.001)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"bias", m.Bias, -2},
		{"score", m.Weights[0], 4},
		{"cover", m.Weights[2], -1},
		{"aliases", m.Weights[8], 0},
	} {
		if math.Abs(c.got-c.want) > 0.4 {
			t.Errorf("%s: fitted %.2f, drawn from %.2f", c.name, c.got, c.want)
		}
	}
	if !m.Speaks(search.Signals{Score: 0.9}) || m.Speaks(search.Signals{Score: 0.2, Cover: 1}) {
		t.Errorf("%+v speaks where it loses or keeps quiet where it gains", m)
	}
}

// TestDecide: a decision is scored as if the search had made it.
func TestDecide(t *testing.T) {
	cases := []Case{
		{ID: "hit", Expect: []string{"a"}},
		{ID: "quiet", Expect: []string{}},
	}
	samples := []Sample{
		{Signals: search.Signals{Score: 0.9}, Got: []string{"a"}, Gain: 1},
		{Signals: search.Signals{Score: 0.1}, Got: []string{"b"}, Gain: -2},
	}
	for _, c := range []struct {
		name         string
		speaks       func(search.Signals) bool
		hit2, silent float64
		score        int
	}{
		{"always", func(search.Signals) bool { return true }, 1, 0, 0},
		{"never", func(search.Signals) bool { return false }, 0, 1, 1},
		{"by score", func(s search.Signals) bool { return s.Score > 0.5 }, 1, 1, 2},
	} {
		r := Decide(cases, samples, c.speaks)
		if r.HitAt2 != c.hit2 || r.Silence != c.silent || r.Score != c.score {
			t.Errorf("%s: hit@2 %.2f silence %.2f score %d, want %.2f %.2f %d", c.name, r.HitAt2, r.Silence, r.Score, c.hit2, c.silent, c.score)
		}
	}
}
