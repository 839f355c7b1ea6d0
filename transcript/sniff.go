package transcript

import (
	"bytes"
	"encoding/json"
)

// sniffType returns the value of the first top-level "type" key of a JSON
// object without decoding the rest, so that lines of unwanted types (tool
// outputs, progress) cost a short scan instead of a full decode: Claude Code
// writes "type" before the bulky fields of user, progress and snapshot lines
// (after "message" in assistant lines). A "type" that is not a string reads
// as "". ok is false when the line is not shaped like a JSON object up to
// that key, or, without the key, to its end. It checks structure (quotes,
// nesting, separators), not every detail of JSON: a line it accepts may still
// fail a full decode.
func sniffType(line []byte) (typ string, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return "", skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return "", false
		}
		ks := i
		i = skipString(line, i)
		if i < 0 {
			return "", false
		}
		key := line[ks:i]
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != ':' {
			return "", false
		}
		i = skipSpace(line, i+1)
		vs := i
		i = skipValue(line, i)
		if i < 0 {
			return "", false
		}
		if isTypeKey(key) {
			if line[vs] == '"' {
				return unquote(line[vs:i]), true
			}
			return "", true
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return "", false
		}
		switch line[i] {
		case ',':
			i = skipSpace(line, i+1)
		case '}':
			return "", skipSpace(line, i+1) == len(line)
		default:
			return "", false
		}
	}
}

func isTypeKey(key []byte) bool {
	if string(key) == `"type"` {
		return true
	}
	// An escaped spelling ("typ\u0065") is rare but means the same key.
	return bytes.IndexByte(key, '\\') >= 0 && unquote(key) == "type"
}

// unquote decodes a JSON string token; plain ASCII needs no decoder.
func unquote(tok []byte) string {
	inner := tok[1 : len(tok)-1]
	plain := true
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(inner)
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return ""
	}
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that opens at b[i]
// (a '"'), or -1 when it does not close.
func skipString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0 // backslashes right before the quote
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j
		}
	}
}

// skipValue returns the index just past the value that starts at b[i], or
// -1 when there is none.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	case ',', ':', '}', ']':
		return -1
	}
	j := i // a number or a literal
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		case '"', '{', '[', ':':
			return -1
		}
		j++
	}
	return j
}

// skipNested returns the index just past the object or array that opens at
// b[i], matching brackets by kind, or -1.
func skipNested(b []byte, i int) int {
	var buf [32]byte
	open := append(buf[:0], b[i]) // the brackets not yet closed
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; c {
		case '"':
			k := skipString(b, j)
			if k < 0 {
				return -1
			}
			j = k - 1
		case '{', '[':
			open = append(open, c)
		case '}', ']':
			o := open[len(open)-1]
			if o == '{' && c != '}' || o == '[' && c != ']' {
				return -1
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				return j + 1
			}
		}
	}
	return -1
}
