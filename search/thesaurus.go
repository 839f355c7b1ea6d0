package search

import (
	"sort"
	"strings"
)

// related returns the thesaurus terms related to term (space-separated), or "".
func related(term string) string {
	i := sort.Search(len(thesaurus), func(i int) bool { return thesaurus[i].term >= term })
	if i < len(thesaurus) && thesaurus[i].term == term {
		return thesaurus[i].related
	}
	return ""
}

// expand adds the thesaurus terms related to the query's terms, at weight
// times the weight of the term they came from, unless the query already has
// them. It returns a new slice; terms is not changed.
func expand(terms []qterm, weight float64) []qterm {
	out := make([]qterm, len(terms), 2*len(terms)+8)
	copy(out, terms)
	for i := range terms {
		t := terms[i]
		rel := related(t.term)
		if rel == "" {
			continue
		}
		out[i].group = i + 1
		for r := range strings.FieldsSeq(rel) {
			w := t.weight * weight
			j := indexTerm(out, r)
			if j < 0 {
				out = append(out, qterm{term: r, weight: w, prompt: t.prompt, expansion: true, group: i + 1})
			} else if out[j].expansion && out[j].weight < w {
				out[j].weight, out[j].group = w, i+1
			}
		}
	}
	return out
}

func indexTerm(terms []qterm, term string) int {
	for i := range terms {
		if terms[i].term == term {
			return i
		}
	}
	return -1
}
