// Package jsonscan reads JSON by walking it, without reflection.
//
// The prompt hook decodes two small JSON documents on every prompt (its
// input and one transcript line). encoding/json builds its field caches by
// reflection the first time it meets a type, and in a process that lives
// for a few milliseconds that first time is every time. A Scanner walks the
// bytes instead: the caller names the members it wants and skips the rest.
//
// It accepts exactly what encoding/json accepts (RFC 8259, nesting at most
// 10,000 deep) and decodes strings as encoding/json does: invalid UTF-8 and
// unpaired surrogates become U+FFFD. A fuzz test holds it to that.
package jsonscan

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrSyntax is returned for input that is not valid JSON.
var ErrSyntax = errors.New("invalid JSON")

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// Scanner walks one JSON text. Its methods read the value at the cursor
// and move past it.
type Scanner struct {
	data  []byte
	pos   int
	depth int
	buf   []byte // decoded keys with escapes
}

// New returns a Scanner at the start of data.
func New(data []byte) *Scanner { return &Scanner{data: data} }

// Kind is the first byte of the value at the cursor: '"', '{', '[', 't',
// 'f', 'n', '-' or a digit; 0 at the end of input.
func (s *Scanner) Kind() byte {
	s.space()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// End reports an error unless only white space follows the cursor.
func (s *Scanner) End() error {
	if s.space(); s.pos < len(s.data) {
		return ErrSyntax
	}
	return nil
}

func (s *Scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Object reads the object at the cursor, calling fn with each member's
// decoded key (valid only during the call). fn must read the member's
// value with one of the Scanner's methods, Skip if it does not want it.
func (s *Scanner) Object(fn func(key []byte) error) error {
	if s.Kind() != '{' {
		return ErrSyntax
	}
	if s.depth++; s.depth > maxDepth {
		return ErrSyntax
	}
	s.pos++
	if s.Kind() == '}' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		if s.Kind() != '"' {
			return ErrSyntax
		}
		key, err := s.key()
		if err != nil {
			return err
		}
		if s.Kind() != ':' {
			return ErrSyntax
		}
		s.pos++
		if err := fn(key); err != nil {
			return err
		}
		switch s.Kind() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			s.depth--
			return nil
		default:
			return ErrSyntax
		}
	}
}

// Array reads the array at the cursor, calling fn once per element; fn
// must read the element.
func (s *Scanner) Array(fn func() error) error {
	if s.Kind() != '[' {
		return ErrSyntax
	}
	if s.depth++; s.depth > maxDepth {
		return ErrSyntax
	}
	s.pos++
	if s.Kind() == ']' {
		s.pos++
		s.depth--
		return nil
	}
	for {
		if err := fn(); err != nil {
			return err
		}
		switch s.Kind() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return nil
		default:
			return ErrSyntax
		}
	}
}

// String reads the string at the cursor.
func (s *Scanner) String() (string, error) {
	if s.Kind() != '"' {
		return "", ErrSyntax
	}
	raw, plain, err := s.stringToken()
	if err != nil {
		return "", err
	}
	if plain {
		return string(raw), nil
	}
	// Sized once: escapes shrink as they decode, and a buffer that grew by
	// doubling would touch fresh memory at every step.
	return string(unquote(make([]byte, 0, len(raw)), raw)), nil
}

// Bool reads true or false at the cursor.
func (s *Scanner) Bool() (bool, error) {
	switch s.Kind() {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	}
	return false, ErrSyntax
}

// Skip reads past the value at the cursor, checking that it is valid JSON.
func (s *Scanner) Skip() error {
	switch c := s.Kind(); c {
	case '{':
		return s.Object(func([]byte) error { return s.Skip() })
	case '[':
		return s.Array(s.Skip)
	case '"':
		_, _, err := s.stringToken()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.number()
		}
		return ErrSyntax
	}
}

func (s *Scanner) literal(word string) error {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
		return ErrSyntax
	}
	s.pos += len(word)
	return nil
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *Scanner) number() error {
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i)
	default:
		return ErrSyntax
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			return ErrSyntax
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return ErrSyntax
		}
		i = j
	}
	s.pos = i
	return nil
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// key reads a member name, decoding it into s.buf when it has escapes.
func (s *Scanner) key() ([]byte, error) {
	raw, plain, err := s.stringToken()
	if err != nil || plain {
		return raw, err
	}
	s.buf = unquote(s.buf[:0], raw)
	return s.buf, nil
}

// stringToken reads the string at the cursor (a '"') and returns its
// contents between the quotes, checked against the grammar. plain means
// the contents are ASCII without escapes: they are the value.
func (s *Scanner) stringToken() (raw []byte, plain bool, err error) {
	d := s.data
	start := s.pos + 1
	plain = true
	var high byte // the OR of the plain bytes: ≥ 0x80 when any is not ASCII
	for i := start; i < len(d); {
		for i < len(d) && d[i] >= 0x20 && d[i] != '"' && d[i] != '\\' {
			high |= d[i]
			i++
		}
		if i == len(d) {
			break
		}
		c := d[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return d[start:i], plain && high < utf8.RuneSelf, nil
		case c == '\\':
			plain = false
			if i+1 >= len(d) {
				return nil, false, ErrSyntax
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || hex4(d[i+2:i+6]) < 0 {
					return nil, false, ErrSyntax
				}
				i += 6
			default:
				return nil, false, ErrSyntax
			}
		default: // a control character
			return nil, false, ErrSyntax
		}
	}
	return nil, false, ErrSyntax
}

// hex4 decodes four hex digits, or returns -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unquote appends the decoded form of a checked string token's contents
// to dst, as encoding/json decodes it.
func unquote(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(raw[i+2:])); dec != utf8.RuneError {
							dst = utf8.AppendRune(dst, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, raw[i:i+n]...)
			}
			i += n
		}
	}
	return dst
}
