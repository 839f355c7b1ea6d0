package main

import (
	"io"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/text"
)

// termSafe is the writer every command prints to (but the protocol
// speakers: mcp and the hooks). What mem prints comes from files others
// wrote (a memory's name, a body, a model's reason), and a terminal obeys
// the escape sequences in it: colours, a cleared screen, a changed title, a
// clipboard write. termSafe writes every control character but tab and line
// breaks, every bidirectional override and every byte that is not UTF-8 as
// a visible escape (\x1b, \u202e) instead. A character cut between two
// writes is held for the next; Flush writes what is held.
type termSafe struct {
	w    io.Writer
	hold []byte
}

func (t *termSafe) Write(p []byte) (int, error) {
	data := p
	if len(t.hold) > 0 {
		data = append(t.hold, p...)
	}
	keep := len(data)
	// Hold a rune cut at the end, and a \r whose \n may come next.
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				keep = i
			}
			break
		}
	}
	if keep > 0 && keep == len(data) && data[keep-1] == '\r' {
		keep--
	}
	t.hold = append(t.hold[:0:0], data[keep:]...)
	if _, err := io.WriteString(t.w, text.Printable(string(data[:keep]), true)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write held back.
func (t *termSafe) Flush() error {
	if len(t.hold) == 0 {
		return nil
	}
	_, err := io.WriteString(t.w, text.Printable(string(t.hold), true))
	t.hold = nil
	return err
}
