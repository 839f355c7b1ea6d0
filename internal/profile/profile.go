// Package profile is the always-on layer: PROFILE.md, a few lines on who
// the user is and how they like to work, injected whole at the start of
// every session. A person's profile is personal and lives in Claude Code's
// user scope (<Claude dir>/agent-memory/mem/PROFILE.md), never in the
// team's store; a store's own PROFILE.md is a team profile, kept only when a
// team asks for one (see mem.ProfileScope). This package holds the file
// format and the arithmetic of the size cap; where the files live, reading,
// writing and committing belong to the root package.
//
// # File format
//
// Plain markdown a person can read and edit, one line per list item, the
// line's metadata in an HTML comment at its end (comments are not shown by a
// markdown viewer, and a line's metadata changes in the same diff line as
// its text):
//
//	# Profile
//
//	<!-- ...what the file is, for a person who opens it... -->
//
//	- Prefers short answers without a summary at the end <!-- said, importance 7, 2026-11-29 -->
//	- Works in Go and fish shell <!-- inferred, importance 4, 2026-11-30 -->
//
// Metadata is a comma-separated list: "said" (the user said it) or
// "inferred" (an agent concluded it), "importance N" (1-10), and the date
// the line was added (YYYY-MM-DD). Anything else in the comment is kept as
// it is and written back after them.
//
// Parse is tolerant, because hand edits happen: any list marker ("-", "*",
// "+", "1.", "1)") or none; a missing or partial comment (a line without
// one was written by a person, so it counts as said, importance
// DefaultImportance, added at an unknown date, which is older than any
// known one); "importance: 7", "imp 7" and "user said" are read too.
// Headings other than the title are kept, in place, and never demoted.
// HTML comments on lines of their own and blank lines are not lines. Format
// writes the canonical form back.
//
// # Size
//
// The cap counts the characters (runes) of the text that is injected: each
// line as "- TEXT\n", each heading as "HEADING\n"; the title, the comments
// and the metadata are not injected and do not count. DefaultCap is 1,375.
//
// # The weakest line
//
// When an add would take the profile over its cap, lines are demoted (taken
// out, to become ordinary memories) weakest first until it fits, the new
// line included: inferred before said, then lower importance, then older
// (an unknown date is oldest), then the one nearer the top. A said line is
// therefore never demoted while an inferred one remains.
package profile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/mdparse"
)

// FileName is the profile's file: at the top of mem's user-scope directory
// for a person's, at the top of the store for a team's.
const FileName = "PROFILE.md"

// DefaultCap is the default size cap, in characters of injected text.
const DefaultCap = 1375

// DefaultImportance is the importance of a line that states none.
const DefaultImportance = 5

// DateLayout is how a line's date is written.
const DateLayout = "2006-01-02"

// Line is one line of the profile: a statement, or a heading kept in place.
type Line struct {
	Text       string    `json:"text"`
	Said       bool      `json:"said"`                // the user said it; false: an agent inferred it
	Importance int       `json:"importance"`          // 1-10
	Added      time.Time `json:"added,omitzero"`      // the day it was added; zero when unknown
	Extra      string    `json:"extra,omitempty"`     // metadata this package does not know, kept
	Heading    bool      `json:"heading,omitempty"`   // a markdown heading; Text includes the #s
	FileLine   int       `json:"file_line,omitempty"` // 1-based line in the file read; 0 for a new line
}

// Profile is the parsed file.
type Profile struct {
	Title string // the first-level heading at the top, without "# "; "" for the default
	Lines []Line
}

// DefaultTitle is the title Format writes when the file has none.
const DefaultTitle = "Profile"

// note is the comment under the title, for a person who opens the file.
const note = `<!-- Who the user is and how they like to work: mem injects these lines at the start of every
session. One line each; the comment after a line is its metadata: said (the user said it) or inferred,
importance 1-10, the date it was added. ` + "`mem profile add`" + ` keeps the lines under a size cap by
moving the weakest (inferred first, then least important, then oldest) into an ordinary memory. -->`

var (
	rule       = lazyregexp.New(`^[-*_=\s]{3,}$`) // a thematic break or a setext underline
	comment    = lazyregexp.New(`<!--.*?-->`)
	importance = lazyregexp.New(`(?i)^(?:importance|imp)\s*[:=]?\s*(\d+)$`)
)

// Parse reads a profile file. It never fails: what it cannot read as a line
// it skips (see the package doc).
func Parse(data []byte) Profile {
	var p Profile
	seenContent := false
	for _, ml := range mdparse.Lines(data) {
		n, t := ml.Num, ml.Text
		switch ml.Kind {
		case mdparse.LineBlank, mdparse.LineFrontmatter, mdparse.LineComment, mdparse.LineFence, mdparse.LineCode, mdparse.LineBreak:
			continue
		case mdparse.LineHeading, mdparse.LineListItem:
			t = strings.TrimSpace(string(ml.Raw))
		}
		if rule.MatchString(t) {
			continue
		}
		if strings.HasPrefix(t, "# ") && !seenContent && p.Title == "" {
			p.Title = strings.TrimSpace(t[2:])
			seenContent = true
			continue
		}
		seenContent = true
		if strings.HasPrefix(t, "#") {
			p.Lines = append(p.Lines, Line{Text: t, Heading: true, FileLine: n})
			continue
		}
		l := Line{Said: true, Importance: DefaultImportance, FileLine: n}
		if i := strings.LastIndex(t, "<!--"); i >= 0 && strings.HasSuffix(t, "-->") && i+4 <= len(t)-3 {
			l.readMeta(t[i+4 : len(t)-3])
			t = t[:i]
		}
		l.Text = Clean(comment.ReplaceAllString(t, " "))
		if l.Text != "" {
			p.Lines = append(p.Lines, l)
		}
	}
	return p
}

// readMeta reads a line's comment into l.
func (l *Line) readMeta(meta string) {
	var extra []string
	for _, part := range strings.FieldsFunc(meta, func(r rune) bool { return r == ',' || r == ';' || r == '|' }) {
		part = strings.TrimSpace(part)
		low := strings.ToLower(part)
		switch {
		case part == "":
		case low == "said" || low == "user said" || low == "user":
			l.Said = true
		case low == "inferred" || low == "agent" || low == "agent inferred":
			l.Said = false
		case importance.MatchString(part):
			n, _ := strconv.Atoi(importance.FindStringSubmatch(part)[1])
			l.Importance = min(max(n, 1), 10)
		default:
			if d, err := time.Parse(DateLayout, part); err == nil {
				l.Added = d
				continue
			}
			extra = append(extra, part)
		}
	}
	l.Extra = strings.Join(extra, ", ")
}

// Clean makes s one profile line: white space collapsed, a list marker at
// the start dropped.
func Clean(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if item, ok := mdparse.ListItem(s); ok {
		return item
	}
	return s
}

// Check reports whether text can be written as a line: not empty, and no
// HTML comment in it (the comment is where the metadata lives).
func Check(text string) error {
	switch {
	case Clean(text) == "":
		return fmt.Errorf("the profile line is empty")
	case strings.Contains(text, "<!--") || strings.Contains(text, "-->"):
		return fmt.Errorf("a profile line cannot hold an HTML comment (<!-- or -->)")
	case strings.HasPrefix(Clean(text), "#"):
		return fmt.Errorf("a profile line cannot start with # (it would read as a heading)")
	}
	return nil
}

// Meta is the line's metadata as the file writes it: "said, importance 7,
// 2026-11-29".
func (l Line) Meta() string {
	who := "inferred"
	if l.Said {
		who = "said"
	}
	parts := []string{who, fmt.Sprintf("importance %d", l.Importance)}
	if !l.Added.IsZero() {
		parts = append(parts, l.Added.Format(DateLayout))
	}
	if l.Extra != "" {
		parts = append(parts, l.Extra)
	}
	return strings.Join(parts, ", ")
}

// Format returns the canonical file.
func (p Profile) Format() []byte {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = DefaultTitle
	}
	fmt.Fprintf(&b, "# %s\n\n%s\n", title, note)
	prevHeading := true
	for _, l := range p.Lines {
		if l.Heading {
			fmt.Fprintf(&b, "\n%s\n", l.shown())
			prevHeading = true
			continue
		}
		if prevHeading {
			b.WriteByte('\n')
			prevHeading = false
		}
		fmt.Fprintf(&b, "- %s <!-- %s -->\n", l.Text, l.Meta())
	}
	return []byte(b.String())
}

// Text is what a session is given: the lines and headings without the
// title, the comments and the metadata.
func (p Profile) Text() string {
	var b strings.Builder
	for _, l := range p.Lines {
		b.WriteString(l.shown())
		b.WriteByte('\n')
	}
	return b.String()
}

func (l Line) shown() string {
	if l.Heading {
		if !strings.HasPrefix(l.Text, "#") {
			return "## " + l.Text
		}
		return l.Text
	}
	return "- " + l.Text
}

// Size is the profile's size as the cap counts it: the characters of Text.
func (p Profile) Size() int {
	n := 0
	for _, l := range p.Lines {
		n += l.Size()
	}
	return n
}

// Size is what the line adds to the profile's size.
func (l Line) Size() int { return utf8.RuneCountInString(l.shown()) + 1 }

// Entries returns the indices in p.Lines of the lines that are not headings,
// in order: `mem profile show` numbers them from 1.
func (p Profile) Entries() []int {
	var out []int
	for i, l := range p.Lines {
		if !l.Heading {
			out = append(out, i)
		}
	}
	return out
}

// Weaker reports whether a gives way before b: inferred before said, then
// lower importance, then older (an unknown date is oldest). Lines equal in
// all of these are ordered by position by the caller.
func Weaker(a, b Line) bool {
	if a.Said != b.Said {
		return !a.Said
	}
	if a.Importance != b.Importance {
		return a.Importance < b.Importance
	}
	return a.Added.Before(b.Added)
}

// Weakest returns the index in p.Lines of the line to demote first, or -1
// when there is none (only headings, or nothing).
func (p Profile) Weakest() int {
	w := -1
	for i, l := range p.Lines {
		if l.Heading {
			continue
		}
		if w < 0 || Weaker(l, p.Lines[w]) {
			w = i
		}
	}
	return w
}

// Find returns the index in p.Lines of the line with the same text as text
// (case and white space aside), or -1.
func (p Profile) Find(text string) int {
	key := normal(text)
	for i, l := range p.Lines {
		if !l.Heading && normal(l.Text) == key {
			return i
		}
	}
	return -1
}

func normal(s string) string { return strings.ToLower(Clean(s)) }

// Select returns the index in p.Lines of the line which names: its number
// as Entries counts from 1, its text (case and white space aside), or a
// piece of text only one line contains.
func (p Profile) Select(which string) (int, error) {
	entries := p.Entries()
	if n, err := strconv.Atoi(strings.TrimSpace(which)); err == nil {
		if n < 1 || n > len(entries) {
			return -1, fmt.Errorf("there is no profile line %d (the profile has %d)", n, len(entries))
		}
		return entries[n-1], nil
	}
	if i := p.Find(which); i >= 0 {
		return i, nil
	}
	key := normal(which)
	if key == "" {
		return -1, fmt.Errorf("say which profile line: its number or its text")
	}
	var hits []int
	for _, i := range entries {
		if strings.Contains(normal(p.Lines[i].Text), key) {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 0:
		return -1, fmt.Errorf("no profile line contains %q", which)
	case 1:
		return hits[0], nil
	}
	return -1, fmt.Errorf("%d profile lines contain %q: give its number (mem profile show)", len(hits), which)
}

// Add puts l in the profile and then, while the profile is over cap,
// demotes the weakest line (possibly l itself) until it fits or only
// headings are left. It returns the demoted lines, weakest first. A line
// whose text is already there is merged instead (said wins, the higher
// importance wins, the earlier date stays) and nothing is demoted for it
// unless the merge took the profile over the cap.
func (p *Profile) Add(l Line, cap int) (demoted []Line) {
	l.Text, l.Heading = Clean(l.Text), false
	if i := p.Find(l.Text); i >= 0 {
		old := &p.Lines[i]
		old.Said = old.Said || l.Said
		old.Importance = max(old.Importance, l.Importance)
		if old.Added.IsZero() || !l.Added.IsZero() && l.Added.Before(old.Added) {
			old.Added = l.Added
		}
	} else {
		p.Lines = append(p.Lines, l)
	}
	return p.Fit(cap)
}

// Fit demotes the weakest lines until the profile's size is at most cap (or
// only headings are left) and returns them, weakest first.
func (p *Profile) Fit(cap int) (demoted []Line) {
	for p.Size() > cap {
		w := p.Weakest()
		if w < 0 {
			break
		}
		demoted = append(demoted, p.Lines[w])
		p.Lines = slices.Delete(p.Lines, w, w+1)
	}
	return demoted
}
