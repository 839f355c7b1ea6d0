package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// This file edits JSON text in place. A document is parsed into nodes that
// remember their byte offsets; each edit splices new text into the source
// and leaves every other byte alone, so unrelated keys keep their order,
// formatting and values exactly. Edits are written to be inverses of each
// other: removing the member or element that an insertion added gives back
// the bytes from before the insertion.

// jnode is a JSON value with its position in the source.
type jnode struct {
	kind       byte // '{' object, '[' array, '"' string, '0' number, true, false or null
	start, end int  // the value is src[start:end]
	keys       []jkey
	elems      []*jnode // object values (parallel to keys) or array elements
}

type jkey struct {
	name  string
	start int // offset of the key's opening quote
}

// find returns the index of the last member named key, or -1. The last one
// wins, as in JavaScript and encoding/json.
func (n *jnode) find(key string) int {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i].name == key {
			return i
		}
	}
	return -1
}

// member returns the value of key, or nil.
func (n *jnode) member(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	if i := n.find(key); i >= 0 {
		return n.elems[i]
	}
	return nil
}

// elemStart is where element i begins: its key for an object member.
func (n *jnode) elemStart(i int) int {
	if n.kind == '{' {
		return n.keys[i].start
	}
	return n.elems[i].start
}

// jdoc is a JSON document being edited. Every edit re-parses, so nodes
// taken from root before an edit must not be used after it.
type jdoc struct {
	src  []byte
	root *jnode
	unit string // one level of indentation
	flat bool   // the document is written on one line: edits stay on one line too
}

// parseJSON parses src, which must hold one JSON value.
func parseJSON(src []byte) (*jdoc, error) {
	if !json.Valid(src) {
		var v any
		err := json.Unmarshal(src, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(src, int(se.Offset))
			return nil, fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, se)
		}
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	d := &jdoc{src: src}
	d.reparse()
	d.unit, d.flat = detectStyle(src, d.root)
	return d, nil
}

func (d *jdoc) reparse() {
	s := &jscanner{src: d.src}
	s.space()
	d.root = s.value()
}

func lineCol(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(src[:off], '\n')
}

// detectStyle returns the document's indentation unit (two spaces unless
// the file shows another) and whether it is written on a single line.
func detectStyle(src []byte, root *jnode) (unit string, flat bool) {
	unit = "  "
	for _, line := range bytes.Split(src, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && len(trimmed) < len(line) {
			unit = string(line[:len(line)-len(trimmed)])
			break
		}
	}
	flat = len(root.elems) > 0 && !bytes.Contains(src[root.start:root.end], []byte("\n"))
	return unit, flat
}

// jscanner walks text already known to be valid JSON.
type jscanner struct {
	src []byte
	i   int
}

func (s *jscanner) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jscanner) value() *jnode {
	n := &jnode{start: s.i}
	switch c := s.src[s.i]; c {
	case '{', '[':
		n.kind = c
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.i++
		s.space()
		if s.src[s.i] == closer {
			s.i++
			n.end = s.i
			return n
		}
		for {
			if c == '{' {
				k := jkey{start: s.i}
				s.str()
				_ = json.Unmarshal(s.src[k.start:s.i], &k.name)
				n.keys = append(n.keys, k)
				s.space()
				s.i++ // ':'
				s.space()
			}
			n.elems = append(n.elems, s.value())
			s.space()
			if s.src[s.i] == ',' {
				s.i++
				s.space()
				continue
			}
			s.i++ // closer
			n.end = s.i
			return n
		}
	case '"':
		n.kind = '"'
		s.str()
	default:
		n.kind = '0'
		for s.i < len(s.src) && bytes.IndexByte([]byte(",]} \t\r\n"), s.src[s.i]) < 0 {
			s.i++
		}
	}
	n.end = s.i
	return n
}

func (s *jscanner) str() {
	s.i++
	for {
		switch s.src[s.i] {
		case '\\':
			s.i += 2
		case '"':
			s.i++
			return
		default:
			s.i++
		}
	}
}

// text returns n's source text.
func (d *jdoc) text(n *jnode) []byte { return d.src[n.start:n.end] }

// str returns n's value if it is a string.
func (d *jdoc) str(n *jnode) (string, bool) {
	if n == nil || n.kind != '"' {
		return "", false
	}
	var s string
	err := json.Unmarshal(d.text(n), &s)
	return s, err == nil
}

// equal reports whether n holds the same JSON value as v.
func (d *jdoc) equal(n *jnode, v any) bool {
	var have, want any
	b, err := marshal(v, "", "")
	if err != nil || json.Unmarshal(b, &want) != nil || json.Unmarshal(d.text(n), &have) != nil {
		return false
	}
	return reflect.DeepEqual(have, want)
}

func (d *jdoc) splice(start, end int, text []byte) {
	d.src = splice(d.src, start, end, text)
	d.reparse()
}

// lineIndent returns the leading white space of the line holding pos.
func (d *jdoc) lineIndent(pos int) string {
	start := bytes.LastIndexByte(d.src[:pos], '\n') + 1
	end := start
	for end < len(d.src) && (d.src[end] == ' ' || d.src[end] == '\t') {
		end++
	}
	return string(d.src[start:end])
}

// render writes v as it should appear at a place whose line is indented by
// indent.
func (d *jdoc) render(v any, indent string) ([]byte, error) {
	if d.flat {
		return marshal(v, "", "")
	}
	return marshal(v, indent, d.unit)
}

func marshal(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// add appends a member (key, v) to object c, or an element v to array c
// when key is "".
func (d *jdoc) add(c *jnode, key string, v any) error {
	if c.kind == '[' && key != "" || c.kind == '{' && key == "" {
		return errors.New("jsonedit: key does not match container")
	}
	opener, closer := "{", "}"
	if c.kind == '[' {
		opener, closer = "[", "]"
	}
	if len(c.elems) == 0 {
		outer := d.lineIndent(c.start)
		inner := outer + d.unit
		item, err := d.item(key, v, inner)
		if err != nil {
			return err
		}
		text := opener + string(item) + closer
		if !d.flat {
			text = opener + "\n" + inner + string(item) + "\n" + outer + closer
		}
		d.splice(c.start, c.end, []byte(text))
		return nil
	}
	// Copy the white space that precedes the last item, so the new one
	// sits in line with it.
	last := len(c.elems) - 1
	gapStart := c.start + 1
	if last > 0 {
		gapStart = bytes.IndexByte(d.src[c.elems[last-1].end:], ',') + c.elems[last-1].end + 1
	}
	gap := string(d.src[gapStart:c.elemStart(last)])
	inner := gap
	if i := bytes.LastIndexByte([]byte(gap), '\n'); i >= 0 {
		inner = gap[i+1:]
	}
	item, err := d.item(key, v, inner)
	if err != nil {
		return err
	}
	end := c.elems[last].end
	d.splice(end, end, []byte(","+gap+string(item)))
	return nil
}

// item renders a member or an array element.
func (d *jdoc) item(key string, v any, indent string) ([]byte, error) {
	val, err := d.render(v, indent)
	if err != nil {
		return nil, err
	}
	if key == "" {
		return val, nil
	}
	k, _ := marshal(key, "", "")
	sep := ": "
	if d.flat {
		sep = ":"
	}
	return append(append(k, sep...), val...), nil
}

// remove deletes item i of object or array c, with the separator that
// joined it to its neighbours. An insertion by add followed by remove gives
// back the original bytes; the only item of a container leaves "{}" or "[]".
func (d *jdoc) remove(c *jnode, i int) {
	n := len(c.elems)
	switch {
	case n == 1:
		empty := "{}"
		if c.kind == '[' {
			empty = "[]"
		}
		d.splice(c.start, c.end, []byte(empty))
	case i == n-1:
		d.splice(c.elems[i-1].end, c.elems[i].end, nil)
	default:
		d.splice(c.elemStart(i), c.elemStart(i+1), nil)
	}
}

// set makes member key of object c hold v, replacing a different value in
// place or adding the member. It reports whether anything changed.
func (d *jdoc) set(c *jnode, key string, v any) (bool, error) {
	i := c.find(key)
	if i < 0 {
		return true, d.add(c, key, v)
	}
	if d.equal(c.elems[i], v) {
		return false, nil
	}
	return true, d.replace(c.elems[i], v)
}

// replace overwrites value n with v.
func (d *jdoc) replace(n *jnode, v any) error {
	text, err := d.render(v, d.lineIndent(n.start))
	if err != nil {
		return err
	}
	d.splice(n.start, n.end, text)
	return nil
}

// object is a JSON object whose members keep the order given.
type object []field

type field struct {
	key string
	val any
}

func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := marshal(f.key, "", "")
		if err != nil {
			return nil, err
		}
		v, err := marshal(f.val, "", "")
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
