package mdparse

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mem-dev/mem/internal/class"
)

// Frontmatter keys that mem reads and writes.
const (
	KeyName         = "name"
	KeyDescription  = "description"
	KeyClass        = "class"
	KeyImportance   = "importance"
	KeyModified     = "modified"
	KeyTags         = "tags"
	KeyAliases      = "aliases"
	KeySupersededBy = "superseded_by"
	KeyUnverified   = "unverified"
	KeyStatus       = "status"
	KeyType         = "type"
	KeyMetadata     = "metadata"
)

// Frontmatter keys that record where a memory's aliases came from (package
// enrich writes them). Aliases learned from use are also in KeyAliases,
// which is what search reads.
const (
	// KeyAliasesFor records what the model's aliases were written for (a
	// hash of the name, description and body), so that a memory edited
	// since gets them rewritten.
	KeyAliasesFor = "aliases_for"
	// KeyAliasesLearned lists the aliases learned from use: the words a
	// person typed before the agent found the memory itself.
	KeyAliasesLearned = "aliases_learned"
)

// StatusForgotten marks a memory soft-deleted by `mem forget`.
const StatusForgotten = "forgotten"

// Memory is one memory file.
type Memory struct {
	Path              string // as given to Parse
	Name, Description string
	Class             string // one of class.Names, or "" when the file names none or an unknown one
	Importance        int    // 1-10, 0 if unset
	Modified          time.Time
	Tags, Aliases     []string
	AliasesFor        string   // what the model's aliases were written for (KeyAliasesFor)
	LearnedAliases    []string // the aliases learned from use (KeyAliasesLearned)
	SupersededBy      string
	Unverified        []string
	Status            string // "" or StatusForgotten
	Type              string // Claude Code's type (user|feedback|project|reference), lower case
	Body              []byte // everything after the frontmatter (and after a BOM), byte for byte

	bom   bool   // the file starts with a UTF-8 BOM
	open  []byte // opening delimiter line with its line ending; nil when there is no frontmatter
	fm    []byte // frontmatter text between the delimiter lines
	close []byte // closing delimiter line with its line ending (none at EOF)
	eol   string // line ending for lines we write

	yamlErr error // why fm is not valid YAML, when it was read loosely

	keys    []string // top-level keys in file order
	entries []entry  // byte spans of top-level entries in fm; nil when not line-editable
	kind    fmKind
}

type fmKind int

const (
	fmNone    fmKind = iota // no frontmatter
	fmEmpty                 // delimiters with nothing but comments or blank lines between
	fmMapping               // a YAML mapping
	fmOther                 // valid YAML that is not a mapping (a list, a scalar)
)

// entry is one top-level key and the bytes of fm it occupies.
type entry struct {
	key        string
	start, end int    // [start, end) in fm, whole lines
	comment    string // line comment of a one-line entry, "" otherwise
}

// Fields are the values of a new memory.
type Fields struct {
	Name, Description, Class string
	Importance               int
	Modified                 time.Time
	Tags, Aliases            []string
	SupersededBy             string
	Unverified               []string
	Status, Type             string
}

// EffectiveClass is the class used for ranking: Class, or class.Default when
// the file names none.
func (m *Memory) EffectiveClass() string {
	if m.Class == "" {
		return class.Default
	}
	return m.Class
}

// YAMLError is the YAML error of a frontmatter that is not valid YAML but was
// read as plain "key: value" lines, the way Claude Code writes them
// ("description: Rule: never x"); nil when the frontmatter is valid YAML.
func (m *Memory) YAMLError() error {
	if m.yamlErr == nil {
		return nil
	}
	return fileError(m.Path, m.yamlErr)
}

// HasFrontmatter reports whether the file has a frontmatter block.
func (m *Memory) HasFrontmatter() bool { return m.open != nil }

// Keys returns the top-level frontmatter keys in file order.
func (m *Memory) Keys() []string { return append([]string(nil), m.keys...) }

// Bytes returns the file as it should be written.
func (m *Memory) Bytes() []byte {
	n := len(m.open) + len(m.fm) + len(m.close) + len(m.Body)
	if m.bom {
		n += len(bom)
	}
	b := make([]byte, 0, n)
	if m.bom {
		b = append(b, bom...)
	}
	b = append(b, m.open...)
	b = append(b, m.fm...)
	b = append(b, m.close...)
	return append(b, m.Body...)
}

var bom = []byte("\xef\xbb\xbf")

// Parse parses one memory file. path is used for errors and for the name of a
// file that has none.
func Parse(path string, data []byte) (*Memory, error) {
	m := &Memory{Path: path, eol: "\n"}
	if bytes.HasPrefix(data, bom) {
		m.bom = true
		data = data[len(bom):]
	}
	open, fm, closing, body, err := split(data)
	if err != nil {
		return nil, fileError(path, err)
	}
	m.open, m.fm, m.close, m.Body = open, fm, closing, body
	if open != nil && bytes.HasSuffix(open, []byte("\r\n")) {
		m.eol = "\r\n"
	} else if open == nil {
		m.eol = bodyEOL(body)
	}
	if err := m.load(); err != nil {
		return nil, fileError(path, err)
	}
	return m, nil
}

// New returns the canonical file for a new memory: frontmatter keys in the
// order name, description, class, importance, modified, tags, aliases,
// superseded_by, unverified, status, type (empty values left out), then the
// body with surrounding blank lines trimmed and one final newline. Invalid
// UTF-8 in a field becomes U+FFFD.
func New(f Fields, body string) *Memory {
	m := &Memory{eol: "\n", open: []byte("---\n"), close: []byte("---\n")}
	valid := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
	add := func(key string, v any) {
		switch x := v.(type) {
		case string:
			v = valid(x)
		case []string:
			l := make([]string, len(x))
			for i, s := range x {
				l[i] = valid(s)
			}
			v = l
		}
		line, _, err := renderEntry(key, v, "\n")
		if err != nil {
			panic("mdparse: " + err.Error()) // every value here has a supported type
		}
		m.fm = append(m.fm, line...)
	}
	str := func(key, v string) {
		if v != "" {
			add(key, v)
		}
	}
	list := func(key string, v []string) {
		if len(v) > 0 {
			add(key, v)
		}
	}
	str(KeyName, f.Name)
	str(KeyDescription, f.Description)
	str(KeyClass, f.Class)
	if f.Importance != 0 {
		add(KeyImportance, f.Importance)
	}
	if !f.Modified.IsZero() {
		add(KeyModified, f.Modified)
	}
	list(KeyTags, f.Tags)
	list(KeyAliases, f.Aliases)
	str(KeySupersededBy, f.SupersededBy)
	list(KeyUnverified, f.Unverified)
	str(KeyStatus, f.Status)
	str(KeyType, f.Type)
	body = strings.TrimRight(body, " \t\r\n")
	for {
		i := strings.IndexByte(body, '\n')
		if i < 0 || strings.TrimSpace(body[:i]) != "" {
			break
		}
		body = body[i+1:]
	}
	if body != "" {
		m.Body = []byte(body + "\n")
	}
	if err := m.load(); err != nil {
		panic("mdparse: new memory does not parse: " + err.Error())
	}
	return m
}

// load parses m.fm and derives the exported fields from it.
func (m *Memory) load() error {
	doc, err := parseYAML(m.fm)
	m.yamlErr = nil
	if err != nil {
		loose, ok := looseYAML(m.fm)
		if !ok {
			return err
		}
		doc, m.yamlErr = loose, err
	}
	m.keys, m.entries, m.kind = nil, nil, fmNone
	name, desc, cls := "", "", ""
	m.Importance, m.Modified = 0, time.Time{}
	m.Tags, m.Aliases, m.Unverified = nil, nil, nil
	m.AliasesFor, m.LearnedAliases = "", nil
	m.SupersededBy, m.Status, m.Type = "", "", ""
	metaType := ""
	if m.open != nil {
		m.kind = fmEmpty
	}
	if root := docRoot(doc); root != nil {
		if root.Kind != yaml.MappingNode {
			m.kind = fmOther
		} else {
			m.kind = fmMapping
			m.entries = entriesOf(root, m.fm)
			for i := 0; i+1 < len(root.Content); i += 2 {
				k, v := root.Content[i], resolve(root.Content[i+1])
				m.keys = append(m.keys, k.Value)
				switch k.Value {
				case KeyName:
					name = scalar(v)
				case KeyDescription:
					desc = scalar(v)
				case KeyClass:
					cls = strings.ToLower(scalar(v))
				case KeyImportance:
					m.Importance = importance(scalar(v))
				case KeyModified:
					m.Modified = parseTime(scalar(v))
				case KeyTags:
					m.Tags = list(v)
				case KeyAliases:
					m.Aliases = list(v)
				case KeyAliasesFor:
					m.AliasesFor = scalar(v)
				case KeyAliasesLearned:
					m.LearnedAliases = list(v)
				case KeySupersededBy:
					m.SupersededBy = scalar(v)
				case KeyUnverified:
					m.Unverified = list(v)
				case KeyStatus:
					if s := strings.ToLower(scalar(v)); s == StatusForgotten {
						m.Status = s
					}
				case KeyType:
					m.Type = strings.ToLower(scalar(v))
				case KeyMetadata:
					metaType = strings.ToLower(scalar(lookup(v, KeyType)))
				}
			}
		}
	}
	if m.Type == "" {
		m.Type = metaType
	}
	m.Name, m.Description = name, desc
	if m.Name == "" {
		m.Name = fallbackName(m.Path, m.Body)
	}
	m.Class = ""
	if class.Valid(cls) {
		m.Class = cls
	} else if c, ok := class.OfType(m.Type); ok {
		m.Class = c
	}
	return nil
}

func docRoot(doc *yaml.Node) *yaml.Node {
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	return resolve(doc.Content[0])
}

func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 8; i++ {
		n = n.Alias
	}
	return n
}

// scalar is the trimmed text of a scalar node, "" for null and for anything
// that is not a scalar.
func scalar(n *yaml.Node) string {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return ""
	}
	return strings.TrimSpace(n.Value)
}

// list reads a sequence of scalars; a lone scalar is a list of one.
func list(n *yaml.Node) []string {
	n = resolve(n)
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if s := scalar(n); s != "" {
			return []string{s}
		}
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, c := range n.Content {
		if s := scalar(c); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func lookup(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// importance reads an integer 1-10; larger values clamp to 10, anything else
// is 0 (unset).
func importance(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != f || f < 1 {
			return 0
		}
		if f > 10 {
			return 10
		}
		n = int(f)
	}
	switch {
	case n < 1:
		return 0
	case n > 10:
		return 10
	}
	return n
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02 15:04:05 -07:00",
	"2006-01-02 15:04:05.999999999 -07:00",
	"2006-1-2",
}

// parseTime accepts RFC 3339, a bare date, and the other YAML timestamp
// forms. A time without a zone is UTC. Anything else is the zero time.
func parseTime(s string) time.Time {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// fallbackName is the first heading of body, else the file name without .md
// and with - and _ as spaces.
func fallbackName(path string, body []byte) string {
	if h := firstHeading(body); h != "" {
		return h
	}
	base := filepath.Base(path)
	if path == "" || base == "." || base == string(filepath.Separator) {
		return ""
	}
	base = strings.TrimSuffix(base, filepath.Ext(base))
	base = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, base)
	return strings.Join(strings.Fields(base), " ")
}

// firstHeading finds the first ATX or setext heading outside code fences.
func firstHeading(body []byte) string {
	var fence fenceState
	prev := ""
	for len(body) > 0 {
		var line []byte
		line, body = cutLine(body)
		s := strings.TrimRight(string(line), " \t\r\n")
		if fence.step(s) {
			prev = ""
			continue
		}
		t := strings.TrimLeft(s, " ")
		if len(s)-len(t) <= 3 && strings.HasPrefix(t, "#") {
			n := len(t) - len(strings.TrimLeft(t, "#"))
			rest := t[n:]
			if n <= 6 && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				if h := cleanHeading(rest); h != "" {
					return h
				}
			}
		}
		if prev != "" && len(t) > 0 && len(s)-len(t) <= 3 && strings.Trim(t, "=") == "" {
			return cleanHeading(prev)
		}
		prev = strings.TrimSpace(s)
	}
	return ""
}

func cleanHeading(s string) string {
	s = strings.TrimSpace(s)
	// A closing sequence of #s is not part of the heading.
	if t := strings.TrimRight(s, "#"); t != s && (t == "" || strings.HasSuffix(t, " ")) {
		s = strings.TrimSpace(t)
	}
	s = headingMarkup.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

var headingMarkup = strings.NewReplacer("**", "", "__", "", "`", "")

// cutLine splits off the first line of b, with its newline.
func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1], b[i+1:]
	}
	return b, nil
}

func bodyEOL(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
