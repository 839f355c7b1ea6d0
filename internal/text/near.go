package text

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Nearest returns at most n of names that word may have been meant as,
// nearest first: those that hold it whole ("migration" for
// goose-migration-order), then those a few typing slips away (an edit
// distance of at most a third of its length, and at least one). A name
// met twice in names is returned once.
func Nearest(word string, names []string, n int) []string {
	type near struct {
		name string
		dist int
	}
	if word == "" {
		return nil
	}
	limit := max(1, utf8.RuneCountInString(word)/3)
	var found []near
	for _, name := range names {
		if slices.ContainsFunc(found, func(f near) bool { return f.name == name }) {
			continue
		}
		d := -1
		if strings.Contains(name, word) {
			d = 0
		} else if e := distance(word, name); e <= limit {
			d = e
		}
		if d >= 0 {
			found = append(found, near{name, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, 0, min(n, len(found)))
	for _, f := range found[:min(n, len(found))] {
		out = append(out, f.name)
	}
	return out
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range ra {
		cur[0] = i + 1
		for j := range rb {
			cost := 1
			if ra[i] == rb[j] {
				cost = 0
			}
			cur[j+1] = min(prev[j+1]+1, cur[j]+1, prev[j]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
