package mdparse

import (
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// Claude Code's load limits.
const (
	// MEMORY.md (package catalog): only the first CatalogMaxLines lines or
	// CatalogMaxBytes bytes, whichever comes first, are loaded.
	CatalogMaxLines = 200
	CatalogMaxBytes = 25000
	// CLAUDE.md is loaded whole, but a file over ClaudeMDMaxBytes is skipped,
	// and past ClaudeMDWarnLines lines it "may reduce adherence".
	ClaudeMDMaxBytes  = 4 << 20
	ClaudeMDWarnLines = 200
)

// Budget is how much of an instruction file Claude Code loads.
//
// Lines and Bytes measure the content as Claude Code sees it: YAML
// frontmatter and block-level HTML comments stripped. A final newline does
// not start a line. CutLine is the first line of the file as written (1-based)
// that is not loaded, 0 when everything is; a line cut by the byte limit,
// its newline included, is not loaded. Hidden lists the headings ("## Title") and list
// entries (link text, else the first words) from CutLine on.
type Budget struct {
	File    string   `json:"file"`
	Lines   int      `json:"lines"`
	Bytes   int      `json:"bytes"`
	Fits    bool     `json:"fits"`
	CutLine int      `json:"cut_line"`
	Hidden  []string `json:"hidden,omitempty"`
}

// MeasureCatalog measures a MEMORY.md (the catalog) against Claude Code's load limit:
// the first 200 lines or 25,000 bytes, whichever comes first, of the content
// left after stripping frontmatter and block-level HTML comments.
func MeasureCatalog(file string, data []byte) Budget {
	lines := loaded(data)
	b := Budget{File: file, Lines: len(lines), Fits: true}
	for i, l := range lines {
		b.Bytes += len(l.text)
		if b.Fits && (i >= CatalogMaxLines || b.Bytes > CatalogMaxBytes) {
			b.Fits = false
			b.CutLine = l.num
		}
	}
	if !b.Fits {
		b.Hidden = hidden(lines, b.CutLine)
	}
	return b
}

// MeasureClaudeMD measures a CLAUDE.md: Claude Code loads it whole (comments
// and frontmatter stripped) unless the file is over 4 MiB, when it skips it
// (CutLine 1). warn is true past 200 lines, where adherence may suffer; the
// file is never cut there.
func MeasureClaudeMD(file string, data []byte) (b Budget, warn bool) {
	lines := loaded(data)
	b = Budget{File: file, Lines: len(lines), Fits: len(data) <= ClaudeMDMaxBytes}
	for _, l := range lines {
		b.Bytes += len(l.text)
	}
	if !b.Fits {
		b.CutLine = 1
		b.Hidden = hidden(lines, 1)
	}
	return b, b.Lines > ClaudeMDWarnLines
}

// loadedLine is a line that Claude Code loads.
type loadedLine struct {
	num  int    // line number in the file, 1-based
	text []byte // the line, newline included
	code bool   // in a fenced code block, fences included
}

// loaded returns the lines left after stripping what Claude Code strips: a
// YAML frontmatter (only when it is closed), and block-level HTML comments
// outside code fences, as Lines tells them.
func loaded(data []byte) []loadedLine {
	var out []loadedLine
	for _, l := range Lines(data) {
		if l.Kind != LineFrontmatter && l.Kind != LineComment {
			out = append(out, loadedLine{num: l.Num, text: l.Raw, code: l.Kind == LineFence || l.Kind == LineCode})
		}
	}
	return out
}

// hidden lists the headings and list entries among the loaded lines from
// line cut on, skipping code blocks.
func hidden(lines []loadedLine, cut int) []string {
	var out []string
	for _, l := range lines {
		if l.code || l.num < cut {
			continue
		}
		if e := entryTitle(strings.TrimRight(string(l.text), " \t\r\n")); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// entryTitle names a heading ("## Title") or a list item (its first link's
// text, else its first words); "" for other lines.
func entryTitle(s string) string {
	t := strings.TrimLeft(s, " \t")
	if strings.HasPrefix(t, "#") {
		n := len(t) - len(strings.TrimLeft(t, "#"))
		if n <= 6 && (len(t) == n || t[n] == ' ' || t[n] == '\t') {
			if h := cleanHeading(t[n:]); h != "" {
				return t[:n] + " " + h
			}
		}
		return ""
	}
	rest, ok := ListItem(t)
	if !ok {
		return ""
	}
	rest = TaskText(rest)
	if m := leadingLink.FindStringSubmatch(rest); m != nil {
		if txt := cleanHeading(m[1]); txt != "" {
			return txt
		}
	}
	rest = mdLink.ReplaceAllString(rest, "$1")
	return firstWords(cleanHeading(entryMarkup.Replace(rest)), 8, 60)
}

var (
	leadingLink = lazyregexp.New(`^(?:\*\*|__|\*|_)?\[([^\]]+)\]\(`)
	entryMarkup = strings.NewReplacer("*", "", "[", "", "]", "")
	mdLink      = lazyregexp.New(`!?\[([^\]]*)\]\([^)]*\)`)
)

// firstWords keeps at most n words and about max bytes of s.
func firstWords(s string, n, max int) string {
	words := strings.Fields(s)
	var b strings.Builder
	for i, w := range words {
		if i == n || (i > 0 && b.Len()+1+len(w) > max) {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}
