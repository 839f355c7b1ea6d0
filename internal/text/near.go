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

// distance is the edit distance between a and b, in runes: insertions,
// deletions, substitutions, and two neighbours swapped ("lsit" is one slip
// from "list"), each counting one.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
