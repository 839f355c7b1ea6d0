// Package text holds the small string helpers several packages need when
// they put outside text (transcripts, model answers, memory fields) on one
// line or into a bounded space.
package text

import (
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
