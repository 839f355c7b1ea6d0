package mdparse

import (
	"bytes"
	"strings"
)

// Salvage reads what can be read of a memory file that Parse refuses, so
// that a broken frontmatter does not make a memory vanish from search: the
// frontmatter's entries that read on their own (each unindented "key:
// value" line with what is indented under it) are kept, the others dropped,
// and the body is the body. A frontmatter with no closing --- line runs to
// its first line that is not such an entry, and the rest is the body.
//
// It returns Parse's result when Parse succeeds. Otherwise it returns the
// salvaged memory with Parse's error (which names the file and line): the
// memory is for reading only, as writing it back would drop what could not
// be read.
func Salvage(path string, data []byte) (*Memory, error) {
	m, perr := Parse(path, data)
	if perr == nil {
		return m, nil
	}
	data = bytes.TrimPrefix(data, bom)
	open, fm, closing, body, err := split(data)
	if err != nil {
		// No closing line: the opening line, then entries while they last.
		first, rest := cutLine(data)
		n := 0
		for r := rest; len(r) > 0; {
			var line []byte
			line, r = cutLine(r)
			t := strings.TrimRight(string(line), " \t\r\n")
			if t != "" && t[0] != ' ' && t[0] != '\t' && t[0] != '#' {
				if _, _, ok := cutKey(t); !ok {
					break
				}
			}
			n += len(line)
		}
		open, fm, closing, body = first, rest[:n], nil, rest[n:]
	}
	s := &Memory{Path: path, eol: "\n", open: open, close: closing, Body: body}
	if open == nil {
		s.eol = bodyEOL(body)
	}
	s.fm = readableEntries(fm)
	if s.load() != nil {
		s.fm = nil
		s.load()
	}
	return s, perr
}

// readableEntries keeps the top-level entries of fm that read on their
// own, strictly or loosely.
func readableEntries(fm []byte) []byte {
	var out, block []byte
	flush := func() {
		if len(bytes.TrimSpace(block)) > 0 {
			if _, err := parseYAML(block); err == nil {
				out = append(out, block...)
			} else if _, ok := looseYAML(block); ok {
				out = append(out, block...)
			}
		}
		block = nil
	}
	for rest := fm; len(rest) > 0; {
		var line []byte
		line, rest = cutLine(rest)
		if t := strings.TrimRight(string(line), " \t\r\n"); t != "" && t[0] != ' ' && t[0] != '\t' {
			flush()
		}
		block = append(block, line...)
		if len(line) > 0 && line[len(line)-1] != '\n' {
			block = append(block, '\n')
		}
	}
	flush()
	return out
}
