package curator

import (
	"cmp"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/mem-dev/mem/mdparse"
)

// Candidate pairs are chosen the way a search index would relate two
// memories, never by comparing every pair with a model:
//
//   - each memory's features are its topics and entities (see subjectsOf)
//     and the stemmed words of its body;
//   - a feature shared by two memories adds its inverse document frequency
//     ln(N/df) to the pair's score (body words at half weight); a feature
//     that more than maxDFShare of the memories have relates nothing. N is
//     at least minCorpus: in a small store everything is rare, and sharing
//     still means something;
//   - a memory's neighbours are the pairScore-ranked memories it shares a
//     score of at least minPairScore with, and a pair is a candidate when one
//     of the two is among the other's first neighboursPerMemory neighbours;
//   - a memory that links to another's file ("[x](other-slug.md)") is always
//     a candidate with it.
const (
	neighboursPerMemory = 3
	minPairScore        = 12.0
	maxDFShare          = 0.10
	bodyWeight          = 0.5
	minCorpus           = 50
)

// eligible reports whether a memory takes part in curation: it is not
// forgotten and not superseded (it was retired already).
func eligible(m Memory) bool {
	return m.M != nil && m.M.SupersededBy == "" && m.M.Status != mdparse.StatusForgotten
}

// CandidatePairs returns the pairs of eligible memories (not forgotten, not
// superseded) that are related enough to ask a model about, as indices into
// mems with the lower index first, best related first.
func CandidatePairs(mems []Memory) [][2]int {
	fs := make([]*features, len(mems))
	for i, m := range mems {
		if eligible(m) {
			fs[i] = featuresOf(m.M)
		}
	}
	sp := scorePairs(mems, fs)
	out := make([][2]int, len(sp))
	for k, p := range sp {
		out[k] = [2]int{p.i, p.j}
	}
	return out
}

type scoredPair struct {
	i, j  int
	score float64
}

func scorePairs(mems []Memory, fs []*features) []scoredPair {
	type feat struct {
		kind byte // 't' topic, 'e' entity, 'w' body word
		key  string
	}
	// Each memory's features in a fixed order, so that scores add up the
	// same way every run.
	feats := make([][]feat, len(fs))
	post := map[feat][]int{}
	n := 0
	for i, f := range fs {
		if f == nil {
			continue
		}
		n++
		var l []feat
		for k := range f.topics {
			l = append(l, feat{'t', k})
		}
		for k := range f.entities {
			l = append(l, feat{'e', k})
		}
		for k := range f.terms {
			if !f.topics[k] {
				l = append(l, feat{'w', k})
			}
		}
		slices.SortFunc(l, func(a, b feat) int { return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.key, b.key)) })
		feats[i] = l
		for _, ft := range l {
			post[ft] = append(post[ft], i)
		}
	}
	n = max(n, minCorpus)
	maxDF := max(2, int(maxDFShare*float64(n)))
	weight := func(ft feat) float64 {
		df := len(post[ft])
		if df < 2 || df > maxDF {
			return 0
		}
		w := math.Log(float64(n) / float64(df))
		if ft.kind == 'w' {
			w *= bodyWeight
		}
		return w
	}

	// Each memory's best neighbours, by accumulating over its features.
	keep := map[[2]int]float64{}
	acc := make([]float64, len(fs))
	var touched, nb []int
	for i, l := range feats {
		for _, ft := range l {
			w := weight(ft)
			if w == 0 {
				continue
			}
			for _, j := range post[ft] {
				if j == i {
					continue
				}
				if acc[j] == 0 {
					touched = append(touched, j)
				}
				acc[j] += w
			}
		}
		nb = nb[:0]
		for _, j := range touched {
			if acc[j] >= minPairScore {
				nb = append(nb, j)
			}
		}
		slices.SortFunc(nb, func(x, y int) int { return cmp.Or(cmp.Compare(acc[y], acc[x]), cmp.Compare(x, y)) })
		for _, j := range nb[:min(len(nb), neighboursPerMemory)] {
			p := [2]int{min(i, j), max(i, j)}
			keep[p] = max(keep[p], acc[j])
		}
		for _, j := range touched {
			acc[j] = 0
		}
		touched = touched[:0]
	}

	// Links from one memory to another's file.
	bySlug := map[string]int{}
	for i, m := range mems {
		if fs[i] != nil {
			bySlug[m.Slug] = i
		}
	}
	for i, f := range fs {
		if f == nil {
			continue
		}
		for _, l := range f.links {
			if j, ok := bySlug[linkSlug(l)]; ok && j != i {
				p := [2]int{min(i, j), max(i, j)}
				keep[p] = max(keep[p], minPairScore)
			}
		}
	}

	out := make([]scoredPair, 0, len(keep))
	for p, s := range keep {
		out = append(out, scoredPair{p[0], p[1], s})
	}
	slices.SortFunc(out, byScore)
	return out
}

func byScore(a, b scoredPair) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	if c := cmp.Compare(a.i, b.i); c != 0 {
		return c
	}
	return cmp.Compare(a.j, b.j)
}

// linkSlug returns the slug a relative link to a memory file names, or "".
func linkSlug(l string) string {
	if strings.Contains(l, "://") || !strings.HasSuffix(l, ".md") {
		return ""
	}
	return strings.TrimSuffix(path.Base(l), ".md")
}
