// Package catalog is MEMORY.md, the catalog of a store's memories that
// Claude Code loads whole at the start of every session (Claude Code calls
// it the memory index; in mem "index" means only the search cache).
//
// A catalog may sit in any directory of a store and lists the memories in
// that directory and below, one line each: "- [name](path.md) — description".
// Many real ones also hold facts of their own: bullets and paragraphs that
// link to no memory. Sections reads those facts, which the indexer makes
// searchable entries pointing at their lines; Generate writes a catalog from
// the memories, keeping such notes verbatim and staying well inside the
// load limit that mdparse.MeasureCatalog measures.
package catalog

import (
	"strings"

	"github.com/mem-dev/mem/mdparse"
)

// FileName is the catalog's name, in any directory of a store.
const FileName = "MEMORY.md"

// Section is a part of a catalog that holds facts of its own: the lines
// under one heading (or before the first) that link to no memory file.
type Section struct {
	Heading string   // "" before the first heading
	Line    int      // 1-based line of the first fact
	Facts   []string // the fact lines, trimmed
}

// Name is what the section is called in search results: its heading, or
// the file's name for the lines before the first heading.
func (s Section) Name() string {
	if s.Heading == "" {
		return FileName
	}
	return s.Heading
}

// Sections finds the parts of a catalog that hold facts of their own
// (bullets and paragraphs that link to no memory file), one Section per
// heading that has such lines. Lines that only list other memories are
// skipped: those memories are indexed themselves. Frontmatter, HTML
// comments, thematic breaks and headings are not facts; code, its fences
// included, is. Lines are told apart by mdparse.Lines.
func Sections(data []byte) []Section {
	var out []Section
	var cur Section
	flush := func() {
		if len(cur.Facts) > 0 {
			out = append(out, cur)
		}
		cur = Section{Heading: cur.Heading}
	}
	for _, l := range mdparse.Lines(data) {
		line := strings.TrimSpace(string(l.Raw))
		switch l.Kind {
		case mdparse.LineBlank, mdparse.LineFrontmatter, mdparse.LineComment, mdparse.LineBreak:
			continue
		case mdparse.LineHeading:
			flush()
			cur.Heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		if line == "" || Link(line) != "" {
			continue
		}
		if cur.Line == 0 {
			cur.Line = l.Num
		}
		cur.Facts = append(cur.Facts, line)
	}
	flush()
	return out
}

// Link returns the target of the first markdown link in line that points at
// a memory file (a relative .md path, without its #fragment), or "".
func Link(line string) string {
	for rest := line; ; {
		i := strings.Index(rest, "](")
		if i < 0 {
			return ""
		}
		rest = rest[i+2:]
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return ""
		}
		t, _, _ := strings.Cut(rest[:end], "#")
		if strings.HasSuffix(t, ".md") && !strings.Contains(t, "://") {
			return t
		}
		rest = rest[end:]
	}
}
