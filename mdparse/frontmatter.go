package mdparse

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// lineError is an error at a line of the file (1-based).
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%d: frontmatter: %s", e.line, e.msg) }

// fileError prefixes err with the file name: "notes/x.md:4: frontmatter: ...".
func fileError(path string, err error) error {
	var le *lineError
	if errors.As(err, &le) {
		return fmt.Errorf("%s:%d: frontmatter: %s", path, le.line, le.msg)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// split cuts data (without BOM) into the frontmatter's delimiter lines, its
// text and the body. open is nil when the file has no frontmatter.
func split(data []byte) (open, fm, closing, body []byte, err error) {
	first, rest := cutLine(data)
	if !isDelim(first, "---") || !bytes.HasSuffix(first, []byte("\n")) {
		if isDelim(first, "---") {
			return nil, nil, nil, nil, &lineError{1, "no closing --- line"}
		}
		return nil, nil, nil, data, nil
	}
	off := len(first)
	for len(rest) > 0 {
		var line []byte
		line, rest = cutLine(rest)
		if isDelim(line, "---") || isDelim(line, "...") {
			return data[:len(first)], data[len(first):off], line, rest, nil
		}
		off += len(line)
	}
	return nil, nil, nil, nil, &lineError{1, "no closing --- line"}
}

// isDelim reports whether line is delim, allowing trailing blanks and CRLF.
func isDelim(line []byte, delim string) bool {
	return string(bytes.TrimRight(line, " \t\r\n")) == delim
}

var yamlLine = lazyregexp.New(`^yaml: line (\d+): (.*)$`)

// parseYAML parses frontmatter text. Errors carry the line in the file: the
// text starts on line 2, below the opening delimiter.
func parseYAML(fm []byte) (*yaml.Node, error) {
	if len(bytes.TrimSpace(fm)) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		// yaml.v3 numbers lines from 1 for scanner errors but from 0 for
		// parser errors, and leaves out a line 0 of either kind.
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 2
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			line, msg = n+1, m[2]
			if parserProblem(msg) {
				line++
			}
		}
		msg = strings.TrimSuffix(msg, " in this context")
		return nil, &lineError{line, msg}
	}
	return &doc, nil
}

// parserProblem reports whether msg is one of yaml.v3's parser (not scanner)
// errors, whose line numbers count from 0.
func parserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>", "did not find expected <document start>",
		"did not find expected node content", "did not find expected '-' indicator",
		"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found undefined tag handle", "found duplicate %YAML directive", "found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// entriesOf finds the byte span of each top-level entry of a block mapping.
// An entry runs from its key's line to the next key's line, less the blank
// lines and unindented comments just above the next key (they belong to it).
// It returns nil when the mapping cannot be edited line by line.
func entriesOf(root *yaml.Node, fm []byte) []entry {
	if root.Style&yaml.FlowStyle != 0 {
		return nil
	}
	starts := []int{0} // starts[i] is the offset of line i+1
	for i, c := range fm {
		if c == '\n' && i+1 < len(fm) {
			starts = append(starts, i+1)
		}
	}
	lineStart := func(line int) int {
		if line-1 < len(starts) {
			return starts[line-1]
		}
		return len(fm)
	}
	var out []entry
	prev := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Column != 1 || k.Line <= prev || k.Line > len(starts) {
			return nil
		}
		prev = k.Line
		out = append(out, entry{key: k.Value, start: lineStart(k.Line)})
		if c := v.LineComment; c != "" {
			out[len(out)-1].comment = c
		} else if c := k.LineComment; c != "" {
			out[len(out)-1].comment = c
		}
	}
	for i := range out {
		end := len(fm)
		if i+1 < len(out) {
			end = out[i+1].start
		}
		// Give trailing blank lines and column-0 comments to what follows.
		for end > out[i].start {
			j := bytes.LastIndexByte(fm[:end-1], '\n') + 1
			if j <= out[i].start {
				break
			}
			line := fm[j:end]
			if len(bytes.TrimSpace(line)) != 0 && line[0] != '#' {
				break
			}
			end = j
		}
		out[i].end = end
		if bytes.Count(fm[out[i].start:end], []byte("\n")) > 1 {
			out[i].comment = ""
		}
	}
	return out
}

// Set sets one top-level frontmatter key, replacing its value or appending it.
// value is a string, an integer, a bool, a []string or a time.Time (written
// as RFC 3339, to the second). A file without frontmatter gets one.
func (m *Memory) Set(key string, value any) error {
	if key == "" {
		return errors.New("set: empty key")
	}
	line, val, err := renderEntry(key, value, m.eol)
	if err != nil {
		return err
	}
	return m.edit(key, line, val)
}

// Unset removes one top-level frontmatter key. Removing a key that is not
// there is not an error.
func (m *Memory) Unset(key string) error {
	if !slices.Contains(m.keys, key) {
		return nil
	}
	return m.edit(key, nil, nil)
}

// edit replaces every entry for key with line (the first one) or removes it
// (line == nil), then reloads. The result must read back as the same entries
// with only key changed; when a line edit cannot be done or does not, the
// frontmatter is re-encoded by yaml.v3.
func (m *Memory) edit(key string, line []byte, val *yaml.Node) error {
	op := "set"
	if line == nil {
		op = "unset"
	}
	if m.kind == fmOther {
		return fmt.Errorf("%s %s: frontmatter is not a mapping", op, key)
	}
	want := wantEntries(entryPrints(m.fm), key, val)
	old := *m
	if m.open == nil {
		m.open = []byte("---" + m.eol)
		m.close = []byte("---" + m.eol)
	}
	if fm, ok := m.editLines(key, line); ok {
		m.fm = fm
		if m.load() == nil && reflect.DeepEqual(entryPrints(m.fm), want) {
			return nil
		}
	}
	m.fm = old.fm
	fm, err := reencode(m.fm, key, val)
	if err == nil {
		m.fm = fm
		if err = m.load(); err == nil && !reflect.DeepEqual(entryPrints(m.fm), want) {
			err = errors.New("frontmatter cannot be rewritten")
		}
	}
	if err != nil {
		*m = old
		return fmt.Errorf("%s %s: %w", op, key, err)
	}
	return nil
}

// print is one top-level entry as read: its key and a fingerprint of its value.
type print struct{ key, value string }

// entryPrints reads fm (strictly or loosely) into entry fingerprints.
func entryPrints(fm []byte) []print {
	doc, err := parseYAML(fm)
	if err != nil {
		doc, _ = looseYAML(fm)
	}
	root := docRoot(doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	var out []print
	for i := 0; i+1 < len(root.Content); i += 2 {
		out = append(out, print{root.Content[i].Value, fingerprint(root.Content[i+1])})
	}
	return out
}

// wantEntries is what the entries must read as after key is set to val (or
// removed, val == nil): other entries unchanged, duplicates of key gone.
func wantEntries(entries []print, key string, val *yaml.Node) []print {
	var out []print
	seen := false
	for _, e := range entries {
		if e.key == key {
			if val == nil || seen {
				continue
			}
			seen = true
			e.value = fingerprint(val)
		}
		out = append(out, e)
	}
	if val != nil && !seen {
		out = append(out, print{key, fingerprint(val)})
	}
	return out
}

// fingerprint renders what a node means, not how it is written. Aliases are
// not followed.
func fingerprint(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			b.WriteString(n.ShortTag() + strconv.Quote(n.Value))
		case yaml.AliasNode:
			b.WriteString("*" + n.Value)
		default:
			b.WriteString(fmt.Sprintf("%d%s(", n.Kind, n.ShortTag()))
			for _, c := range n.Content {
				walk(c)
				b.WriteByte(',')
			}
			b.WriteByte(')')
		}
	}
	walk(n)
	return b.String()
}

// editLines does the edit on m.fm line by line.
func (m *Memory) editLines(key string, line []byte) ([]byte, bool) {
	if m.kind == fmMapping && m.entries == nil {
		return nil, false
	}
	fm := m.fm
	var b []byte
	done, last := false, 0
	for _, e := range m.entries {
		if e.key != key {
			continue
		}
		b = append(b, fm[last:e.start]...)
		if line != nil && !done {
			b = append(b, keepComment(line, fm[e.start:e.end], e.comment, m.eol)...)
			done = true
		}
		last = e.end
	}
	b = append(b, fm[last:]...)
	if line != nil && !done {
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, m.eol...)
		}
		b = append(b, line...)
	}
	return b, true
}

// keepComment carries the comment at the end of a one-line entry over to its
// new one-line rendering, with the same spacing.
func keepComment(line, old []byte, comment, eol string) []byte {
	body := bytes.TrimRight(line, "\r\n")
	if comment == "" || bytes.Count(line, []byte("\n")) != 1 {
		return line
	}
	oldBody := bytes.TrimRight(old, "\r\n")
	i := bytes.LastIndex(oldBody, []byte(comment))
	j := i
	for j > 0 && (oldBody[j-1] == ' ' || oldBody[j-1] == '\t') {
		j--
	}
	if i <= 0 || j == i {
		return line
	}
	out := append([]byte(nil), body...)
	out = append(out, oldBody[j:]...)
	return append(out, eol...)
}

// reencode sets or removes key in the frontmatter's YAML and encodes the whole
// document again. Loose frontmatter comes out as valid YAML.
func reencode(fm []byte, key string, v *yaml.Node) ([]byte, error) {
	doc, err := parseYAML(fm)
	if err != nil {
		loose, ok := looseYAML(fm)
		if !ok {
			return nil, err
		}
		doc = loose
	}
	if doc == nil {
		doc = &yaml.Node{Kind: yaml.DocumentNode}
	}
	if len(doc.Content) == 0 {
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("frontmatter is not a mapping")
	}
	set := v != nil
	var content []*yaml.Node
	done := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Value == key {
			if !set || done {
				continue
			}
			content = append(content, k, v)
			done = true
			continue
		}
		content = append(content, k, root.Content[i+1])
	}
	if set && !done {
		content = append(content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	}
	root.Content = content
	root.Style &^= yaml.FlowStyle
	out, err := encode(doc)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(out, []byte("{}\n")) {
		out = nil
	}
	if bytes.Contains(fm, []byte("\r\n")) {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// renderEntry renders "key: value" and its line ending with yaml.v3, and
// returns the value's node as written.
func renderEntry(key string, value any, eol string) ([]byte, *yaml.Node, error) {
	v, err := valueNode(value)
	if err != nil {
		return nil, nil, fmt.Errorf("set %s: %w", key, err)
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v,
	}}
	out, err := encode(m)
	if err != nil {
		return nil, nil, fmt.Errorf("set %s: %w", key, err)
	}
	// yaml.v3 writes a string of only newlines as a block scalar that reads
	// back empty; double quotes always read back.
	if doc, err := parseYAML(out); err != nil || fingerprint(docRoot(doc).Content[1]) != fingerprint(v) {
		for _, n := range append([]*yaml.Node{v}, v.Content...) {
			if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
				n.Style = yaml.DoubleQuotedStyle
			}
		}
		if out, err = encode(m); err != nil {
			return nil, nil, fmt.Errorf("set %s: %w", key, err)
		}
	}
	if eol != "\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte(eol))
	}
	return out, v, nil
}

func encode(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// valueNode turns a Go value into the YAML node mem writes for it.
func valueNode(value any) (*yaml.Node, error) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	switch v := value.(type) {
	case string:
		if !utf8.ValidString(v) {
			return nil, errors.New("value is not valid UTF-8")
		}
		return str(v), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}, nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(v)}, nil
	case time.Time:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: v.Format(time.RFC3339)}, nil
	case []string:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for _, s := range v {
			if !utf8.ValidString(s) {
				return nil, errors.New("value is not valid UTF-8")
			}
			seq.Content = append(seq.Content, str(s))
		}
		return seq, nil
	}
	return nil, fmt.Errorf("unsupported value type %T", value)
}
