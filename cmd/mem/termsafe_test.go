package main

import (
	"strings"
	"testing"
)

// TestTermSafe: escape sequences and other controls reach the terminal as
// visible escapes, whatever the write boundaries; text, tabs, line breaks
// and UTF-8 cut between writes come through as they are.
func TestTermSafe(t *testing.T) {
	in := "name \x1b[2J\x1b]0;owned\x07 ü €\r\nnext\tline\rover \u202e \xff\n"
	want := "name \\x1b[2J\\x1b]0;owned\\a ü €\r\nnext\tline\\rover \\u202e \\xff\n"
	for step := 1; step <= len(in); step++ {
		var b strings.Builder
		w := &termSafe{w: &b}
		for i := 0; i < len(in); i += step {
			w.Write([]byte(in[i:min(i+step, len(in))]))
		}
		w.Flush()
		if b.String() != want {
			t.Fatalf("writes of %d bytes: %q\nwant %q", step, b.String(), want)
		}
	}
}
