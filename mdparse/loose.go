package mdparse

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// looseYAML reads frontmatter that is not valid YAML the way Claude Code's own
// memory files need: one "key: value" per unindented line, the value taken as
// YAML when it is valid on its own and as plain text otherwise (so
// "description: Rule: never x" and "description: `x` is y" read as written).
// Indented lines continue the key above and must be valid YAML with it, or,
// under a key with no inline value, a nested loose mapping. It returns false
// when anything else is found.
func looseYAML(fm []byte) (*yaml.Node, bool) {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	type block struct {
		key   *yaml.Node
		value string
		cont  []string
	}
	var blocks []*block
	num := 0
	for rest := fm; len(rest) > 0; {
		var raw []byte
		raw, rest = cutLine(rest)
		num++
		line := strings.TrimRight(string(raw), " \t\r\n")
		switch {
		case line == "" || line[0] == '#':
			if len(blocks) > 0 && line == "" {
				b := blocks[len(blocks)-1]
				b.cont = append(b.cont, "")
			}
			continue
		case line[0] == ' ' || line[0] == '\t':
			if len(blocks) == 0 {
				return nil, false
			}
			b := blocks[len(blocks)-1]
			b.cont = append(b.cont, line)
			continue
		}
		k, v, ok := cutKey(line)
		if !ok {
			return nil, false
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Line: num, Column: 1}
		blocks = append(blocks, &block{key: key, value: v})
	}
	for _, b := range blocks {
		for len(b.cont) > 0 && b.cont[len(b.cont)-1] == "" {
			b.cont = b.cont[:len(b.cont)-1]
		}
		v := looseValue(b.value, b.cont)
		if v == nil {
			return nil, false
		}
		root.Content = append(root.Content, b.key, v)
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}, true
}

// cutKey splits "key: value" at the first colon followed by a blank or the
// end of the line.
func cutKey(line string) (key, value string, ok bool) {
	for i := 0; i < len(line); i++ {
		if line[i] != ':' {
			continue
		}
		if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' {
			key = strings.TrimSpace(line[:i])
			if key == "" || strings.ContainsAny(key[:1], "-?[]{},&*!|>'\"%@`") {
				return "", "", false
			}
			return key, strings.TrimSpace(line[i+1:]), true
		}
	}
	return "", "", false
}

// looseValue reads the value of one key: as YAML if that works; else a
// one-line value as plain text, and an indented block under a bare key as a
// nested loose mapping. It returns nil for anything else (a broken flow
// collection, a broken multi-line value), which stays an error.
func looseValue(value string, cont []string) *yaml.Node {
	text := "k: " + value
	if len(cont) > 0 {
		text += "\n" + strings.Join(cont, "\n")
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) == nil {
		if v := lookup(docRoot(&doc), "k"); v != nil {
			return v
		}
	}
	switch {
	case strings.HasPrefix(value, "[") || strings.HasPrefix(value, "{"):
		return nil
	case len(cont) == 0:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	case value == "":
		if n, ok := looseYAML(dedent(cont)); ok {
			return n.Content[0]
		}
	}
	return nil
}

// dedent removes the indentation common to the non-blank lines.
func dedent(lines []string) []byte {
	indent := -1
	for _, l := range lines {
		if t := strings.TrimLeft(l, " \t"); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	var b bytes.Buffer
	for _, l := range lines {
		if len(l) >= indent && indent > 0 {
			l = l[indent:]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
