package mdparse

import (
	"bytes"
	"strings"
)

// LineKind is what a line of markdown is to a reader that takes a file one
// line at a time (a profile, a rule file, a catalog, the load limit).
type LineKind uint8

// The kinds of line, as Lines tells them apart.
const (
	LineText        LineKind = iota // a paragraph line, or anything not below
	LineBlank                       // empty, or only blanks
	LineFrontmatter                 // the frontmatter, its delimiter lines included
	LineComment                     // part of a block-level HTML comment
	LineFence                       // a code fence's opening or closing line
	LineCode                        // inside a fenced code block
	LineHeading                     // an ATX heading: "## Title"
	LineBreak                       // a thematic break: "---", "***", "_ _ _"
	LineListItem                    // a bullet or ordered list item: "- x", "1. x"
)

// Line is one classified line of a markdown file.
type Line struct {
	Num  int    // 1-based, as a person counts the file's lines
	Raw  []byte // the line as written, its line ending included
	Kind LineKind
	// Text is what the line says: a heading's title (the #s and a closing
	// sequence of them dropped), a list item's text after its marker, and
	// otherwise the line without blanks at either end.
	Text  string
	Level int // a heading's level, 1 to 6
}

// Lines classifies every line of a markdown file, the way CommonMark reads
// its blocks where a line-at-a-time reader can tell:
//
//   - A frontmatter (see the package doc) is recognised only when it is
//     closed, as Claude Code strips it.
//   - A code fence is three or more backticks or tildes, indented by any
//     blanks; it closes at a line of the same character at least as long,
//     with nothing after it but blanks, so a "```" line inside a "````"
//     fence is code. A backtick fence whose info string holds a backtick is
//     not a fence (it is an inline code span).
//   - A block-level HTML comment runs, outside fences, from a line that
//     starts with "<!--" (up to three spaces in) to the end of the line that
//     holds "-->", or to the end of the file.
//   - A heading is one to six #s, up to three spaces in, then a blank or the
//     end of the line ("#tag" is text).
//   - A thematic break is three or more of one of - * _, with blanks
//     between; it is not a list item.
//   - A list item is - * or + followed by a blank or the end of the line, or
//     one to nine digits and . or ) followed by the same ([ListItem]).
//
// A UTF-8 BOM at the start is not part of the first line's text. Setext
// headings, indented code and block quotes are text.
func Lines(data []byte) []Line {
	num := 1
	data = bytes.TrimPrefix(data, bom)
	var out []Line
	if open, fm, closing, _, err := split(data); err == nil && open != nil {
		head := data[:len(open)+len(fm)+len(closing)]
		for len(head) > 0 {
			var raw []byte
			raw, head = cutLine(head)
			out = append(out, Line{Num: num, Raw: raw, Kind: LineFrontmatter, Text: strings.TrimSpace(string(raw))})
			num++
		}
		data = data[len(open)+len(fm)+len(closing):]
	}
	return appendBody(out, data, num)
}

// BodyLines classifies the lines of a memory's body (or any markdown that
// has no frontmatter) as Lines does, numbering them from 1.
func BodyLines(body []byte) []Line { return appendBody(nil, body, 1) }

// appendBody classifies the lines of data, the first numbered num.
func appendBody(out []Line, data []byte, num int) []Line {
	var fence fenceState
	inComment := false
	for ; len(data) > 0; num++ {
		var raw []byte
		raw, data = cutLine(data)
		s := strings.TrimRight(string(raw), "\r\n")
		l := Line{Num: num, Raw: raw, Text: strings.TrimSpace(s)}
		wasFence := fence.n > 0
		switch {
		case inComment:
			l.Kind = LineComment
			inComment = !strings.Contains(s, "-->")
		case fence.step(s):
			l.Kind = LineCode
			if !wasFence || fence.n == 0 {
				l.Kind = LineFence
			}
		default:
			classify(&l, s, &inComment)
		}
		out = append(out, l)
	}
	return out
}

// classify sets the kind of a line s outside fences and comments, and
// reports in comment whether it opens a comment that goes on.
func classify(l *Line, s string, comment *bool) {
	t := strings.TrimLeft(s, " ")
	indent := len(s) - len(t)
	switch {
	case l.Text == "":
		l.Kind = LineBlank
	case indent <= 3 && strings.HasPrefix(t, "<!--"):
		l.Kind = LineComment
		*comment = !strings.Contains(t[4:], "-->")
	case indent <= 3 && strings.HasPrefix(t, "#"):
		n := len(t) - len(strings.TrimLeft(t, "#"))
		if rest := t[n:]; n <= 6 && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			l.Kind, l.Level, l.Text = LineHeading, n, headingText(rest)
		}
	case thematicBreak(t):
		l.Kind = LineBreak
	default:
		if item, ok := ListItem(strings.TrimLeft(t, " \t")); ok {
			l.Kind, l.Text = LineListItem, item
		}
	}
}

// headingText is a heading's title: without a closing sequence of #s.
func headingText(s string) string {
	s = strings.TrimSpace(s)
	if t := strings.TrimRight(s, "#"); t != s && (t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
		s = strings.TrimSpace(t)
	}
	return s
}

// thematicBreak reports whether t (without leading spaces) is three or more
// of one of - * _, blanks allowed between.
func thematicBreak(t string) bool {
	if t == "" || !strings.ContainsRune("-*_", rune(t[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case t[0]:
			n++
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return n >= 3
}

// ListItem returns the text of a bullet or ordered list item, t being the
// line without its indentation: the text after "- ", "* ", "+ " or one to
// nine digits and ". " or ") " (a tab instead of the space too, or nothing
// after the marker at all), trimmed. A task box ("[ ] ", "[x] ") stays:
// see TaskText.
func ListItem(t string) (string, bool) {
	marker := 0
	switch {
	case t == "":
		return "", false
	case strings.ContainsRune("-*+", rune(t[0])):
		marker = 1
	default:
		for marker < len(t) && marker < 9 && t[marker] >= '0' && t[marker] <= '9' {
			marker++
		}
		if marker == 0 || marker == len(t) || t[marker] != '.' && t[marker] != ')' {
			return "", false
		}
		marker++
	}
	rest := t[marker:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\r' && rest[0] != '\n' {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// TaskText is a list item's text without its task box ("[ ] ", "[x] ").
func TaskText(item string) string {
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		if rest, ok := strings.CutPrefix(item, box); ok {
			return strings.TrimSpace(rest)
		}
	}
	return item
}

// fenceState tracks fenced code blocks across lines.
type fenceState struct {
	char byte
	n    int
}

// step reports whether line (without its newline) is part of a fenced code
// block, opening or closing fence included.
func (f *fenceState) step(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if f.n > 0 {
		if run := fenceRun(t); run >= f.n && t[0] == f.char && strings.TrimSpace(t[run:]) == "" {
			f.n = 0
		}
		return true
	}
	if run := fenceRun(t); run >= 3 {
		if t[0] == '`' && strings.Contains(t[run:], "`") {
			return false
		}
		f.char, f.n = t[0], run
		return true
	}
	return false
}

func fenceRun(t string) int {
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return n
}
