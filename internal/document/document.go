// Package document is the unit the search index holds: one memory, or one
// section of a catalog (MEMORY.md), with the fields ranking reads. It is a
// package of its own, linking nothing, so that the parsers that fill it
// (mdparse.Memory.Document) and the index that stores it (package search,
// whose Doc it is) need not import each other: search runs on the prompt
// path and must not link a markdown parser, and search's own tests build
// their documents the way the product does.
package document

import "time"

// Doc is one searchable memory: a memory file, or a section of a catalog.
type Doc struct {
	Slug  string
	Path  string // relative to the repository root, e.g. ".claude/agent-memory/vat-rounding.md"
	Store string // one of search.Stores

	Name, Description, Class string
	Importance               int // 1-10; 0 = unset (treated as 5)
	Modified                 time.Time
	Tags, Aliases            []string
	SupersededBy             string
	Unverified               []string
	Body                     string // plain text of the body, markup removed
	Line                     int    // >0 for a section of a MEMORY.md: Path is that file, Line its first line
	// Broken says why the file does not parse ("path:3: frontmatter: …"):
	// the entry holds what could be read of it, and shows the reason.
	Broken string
}
