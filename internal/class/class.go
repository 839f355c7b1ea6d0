// Package class is the one list of the kinds of memory (rule, fact, event,
// gotcha, reference, procedure, preference, decision) and of everything mem
// does differently by kind: what each holds in a few words, whether ranking
// ages it, where a catalog puts it, and which of Claude Code's memory types
// it reads as: a new class is one more line in All. It links
// nothing, so the prompt path (package search) and the parsers share it.
package class

import (
	"slices"
	"strings"
)

// Class is one kind of memory.
type Class struct {
	Name string
	// Hint says what a memory of the class holds, where the name alone
	// does not ("" for a fact): the MCP tools' schema describes the
	// classes by it.
	Hint string
	// Lasts is true for the classes that hold until replaced: ranking does
	// not age them (search's recency decay).
	Lasts bool
	// Catalog is the class's place in a catalog (MEMORY.md), from 0: what
	// an agent must obey first.
	Catalog int
	// Types are Claude Code's memory types (its type: field) read as this
	// class.
	Types []string
}

// All are the classes in the order the docs list them. The search cache
// stores a memory's class as its position here plus one (0: none), so a
// new class goes at the end and none is ever removed or reordered.
var All = []Class{
	{Name: "rule", Hint: "always or never do X", Lasts: true, Catalog: 0, Types: []string{"feedback"}},
	{Name: "fact", Catalog: 5, Types: []string{"project"}},
	{Name: "event", Hint: "what happened, when", Catalog: 7},
	{Name: "gotcha", Hint: "a trap and its way out", Catalog: 2},
	{Name: "reference", Hint: "where to find something", Catalog: 6, Types: []string{"reference"}},
	{Name: "procedure", Hint: "steps", Catalog: 3},
	{Name: "preference", Hint: "how the user wants things", Lasts: true, Catalog: 1, Types: []string{"user"}},
	{Name: "decision", Hint: "a choice and its reason", Catalog: 4},
}

// Names are the names of All, in its order.
var Names = func() []string {
	out := make([]string, len(All))
	for i, c := range All {
		out[i] = c.Name
	}
	return out
}()

// Default is the class of a memory that names none.
const Default = "fact"

// Of returns the class named name.
func Of(name string) (Class, bool) {
	i := slices.Index(Names, name)
	if i < 0 {
		return Class{}, false
	}
	return All[i], true
}

// Valid reports whether c is one of Names.
func Valid(c string) bool { return slices.Contains(Names, c) }

// Decays reports whether ranking ages a memory of class c: every class but
// those that last, and a memory of no known class.
func Decays(c string) bool {
	k, ok := Of(c)
	return !ok || !k.Lasts
}

// Rank is c's place in a catalog's order, from 0 (rules); an unknown class
// comes after every known one.
func Rank(c string) int {
	if k, ok := Of(c); ok {
		return k.Catalog
	}
	return len(All)
}

// OfType is the class of a memory Claude Code wrote with the given type:
// field, and false for a type no class reads.
func OfType(t string) (string, bool) {
	for _, c := range All {
		if slices.Contains(c.Types, t) {
			return c.Name, true
		}
	}
	return "", false
}

// List is the classes' names as a sentence lists them: "rule, fact, … or
// decision", joined by conj.
func List(conj string) string {
	return strings.Join(Names[:len(Names)-1], ", ") + " " + conj + " " + Names[len(Names)-1]
}

// Described is the classes' names, each with its hint in parentheses when
// it has one, joined by ", ".
func Described() string {
	parts := make([]string, len(All))
	for i, c := range All {
		parts[i] = c.Name
		if c.Hint != "" {
			parts[i] += " (" + c.Hint + ")"
		}
	}
	return strings.Join(parts, ", ")
}
