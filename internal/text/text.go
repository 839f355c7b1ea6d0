// Package text holds the small string helpers several packages need when
// they put outside text (transcripts, model answers, memory fields) on one
// line or into a bounded space.
package text

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// OneLine collapses runs of white space (newlines included) to one space,
// trims the ends, and drops control characters, invalid UTF-8 and U+FFFD.
func OneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "") {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), r == utf8.RuneError:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Clip cuts s to at most n bytes, at a rune boundary, and marks a cut with
// "…" (which comes on top of the n bytes).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ClipWords cuts s to at most n bytes, the "…" that marks a cut included,
// at the last blank when one falls in the second half of the room, else at
// a rune boundary: for a line that must fit a width (a commit subject, an
// injected line).
func ClipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n-len("…"), 0)
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		return Clip(s, n)
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

// ClipClauses cuts s to at most n bytes, the "…" that marks a cut included,
// after the last whole sentence, else the last whole clause, that ends in
// the second half of the room, else as ClipWords does: for a statement that
// a cut must not turn around (cut mid-clause, "X is not the cause" reads
// "X i…"; cut at a clause, the statement is shorter but still true).
func ClipClauses(s string, n int) string {
	if len(s) <= n {
		return s
	}
	room := max(n-len("…"), 0)
	for _, ends := range [][]string{{". ", "? ", "! "}, {"; ", ": ", " — ", " – ", ", "}} {
		best := -1
		for _, e := range ends {
			if i := strings.LastIndex(s[:room], e); i >= room/2 && i > best {
				best = i
			}
		}
		if best >= 0 {
			return strings.TrimRight(s[:best], " .,;:") + "…"
		}
	}
	return ClipWords(s, n)
}

// Control returns the first character of s that has no business in text a
// person reads: a C0 or C1 control (ESC starts the terminal's escape
// sequences), DEL, a bidirectional override or isolate (which reorders what
// is shown), or a byte that is not UTF-8. Tab is allowed, and so are line
// breaks (\n, and \r before \n) when multiline is set.
func Control(s string, multiline bool) (string, bool) {
	for i := 0; i < len(s); {
		if c := s[i]; ' ' <= c && c < 0x7f { // printable ASCII: most of any text
			i++
			continue
		}
		size, bad := controlAt(s, i, multiline)
		if bad {
			return s[i : i+size], true
		}
		i += size
	}
	return "", false
}

// controlAt reports the size of the character at s[i] and whether Control
// would report it.
func controlAt(s string, i int, multiline bool) (int, bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return 1, true
	case r == '\t':
		return size, false
	case multiline && (r == '\n' || r == '\r' && strings.HasPrefix(s[i+1:], "\n")):
		return size, false
	}
	return size, unicode.IsControl(r) || isBidi(r)
}

// isBidi reports whether r is a bidirectional embedding, override or
// isolate, which can make text shown differ from text stored.
func isBidi(r rune) bool { return '\u202a' <= r && r <= '\u202e' || '\u2066' <= r && r <= '\u2069' }

// Printable writes s so that a terminal shows it as it is: every character
// Control reports is written as a Go escape (\x1b, \u202e), never raw.
func Printable(s string, multiline bool) string {
	if _, bad := Control(s, multiline); !bad {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		size, bad := controlAt(s, i, multiline)
		switch {
		case !bad:
			b.WriteString(s[i : i+size])
		case size == 1 && s[i] >= utf8.RuneSelf:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// Size writes a byte count as a person reads it: 512 bytes, 64 KB, 10.0 MB.
func Size(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
