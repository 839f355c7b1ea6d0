// Package class is the one list of the kinds of memory (rule, fact, event,
// gotcha, reference, procedure, preference, decision) and the orders mem
// puts them in. It links nothing, so the prompt path (package search) and
// the parsers share it.
package class

import "slices"

// Names are the classes in the order the docs list them. The search cache
// stores a memory's class as its position here plus one (0: none), so a
// new class goes at the end and none is ever removed or reordered.
var Names = []string{"rule", "fact", "event", "gotcha", "reference", "procedure", "preference", "decision"}

// Default is the class of a memory that names none.
const Default = "fact"

// Valid reports whether c is one of Names.
func Valid(c string) bool { return slices.Contains(Names, c) }

// precedence orders classes in a catalog (MEMORY.md): what an agent must
// obey first.
var precedence = []string{"rule", "preference", "gotcha", "procedure", "decision", "fact", "reference", "event"}

// Rank is c's place in a catalog's order, from 0 (rules); an unknown class
// comes after every known one.
func Rank(c string) int {
	if i := slices.Index(precedence, c); i >= 0 {
		return i
	}
	return len(precedence)
}
