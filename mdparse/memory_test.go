package mdparse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParse(t *testing.T) {
	day := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		file  string
		want  Memory // exported fields only; Body and Path are not compared
		loose bool   // read as plain key: value lines
	}{
		{file: "full.md", want: Memory{
			Name: "Invoice totals round per line", Description: "Round tax on each invoice line: rounding the total drifts by a cent",
			Class: "gotcha", Importance: 7, Modified: day("2026-09-14T08:15:00Z"),
			Tags: []string{"billing", "tax"}, Aliases: []string{"cent off on invoices", "rounding drift"},
			Unverified: []string{"path billing/tax/round.go does not exist (2026-09-15)"},
		}},
		{file: "claude-type.md", want: Memory{
			Name: "Keep PRs small", Description: "Split work into reviewable PRs under 400 lines", Class: "rule", Type: "feedback",
		}},
		{file: "metadata.md", want: Memory{
			Name: "Deploy window", Description: "Deploys happen Tuesday mornings", Class: "fact", Type: "project",
		}},
		{file: "no-frontmatter.md", want: Memory{Name: "Staging database access"}},
		{file: "crlf.md", want: Memory{Name: "Windows line endings", Class: "fact", Tags: []string{"crlf"}}},
		{file: "bom.md", want: Memory{Name: "Starts with a BOM", Importance: 3}},
		{file: "loose.md", loose: true, want: Memory{
			Name: "loose-colons", Description: "Gate rule: never merge on red CI; `make check` must pass first", Class: "rule", Type: "feedback",
		}},
		{file: "block.md", want: Memory{
			Name: "Block values", Description: "A literal block\nover two lines.", Tags: []string{"alpha", "beta"},
			Modified: day("2026-10-22T00:00:00Z"),
		}},
		{file: "odd-types.md", want: Memory{
			Name: "Odd types", Importance: 10, Tags: []string{"solo"}, Status: StatusForgotten, SupersededBy: "odd-types-v2",
		}},
		{file: "flow-mapping.md", want: Memory{Name: "Flow mapping", Tags: []string{"x"}}},
		{file: "empty-frontmatter.md", want: Memory{Name: "Heading after empty frontmatter"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := readFixture(t, tt.file)
			m, err := Parse(tt.file, data)
			if err != nil {
				t.Fatal(err)
			}
			got := Memory{
				Name: m.Name, Description: m.Description, Class: m.Class, Importance: m.Importance,
				Modified: m.Modified, Tags: m.Tags, Aliases: m.Aliases, SupersededBy: m.SupersededBy,
				Unverified: m.Unverified, Status: m.Status, Type: m.Type,
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if !bytes.Equal(m.Bytes(), data) {
				t.Errorf("round trip:\n%q\nwant\n%q", m.Bytes(), data)
			}
			if (m.YAMLError() != nil) != tt.loose {
				t.Errorf("YAMLError() = %v, want loose=%v", m.YAMLError(), tt.loose)
			}
		})
	}
}

func TestParseBody(t *testing.T) {
	tests := []struct{ in, body string }{
		{"---\nname: a\n---\nbody\n", "body\n"},
		{"---\nname: a\n---", ""},
		{"---\nname: a\n---  \nbody", "body"},
		{"---\r\nname: a\r\n---\r\n\r\nbody\r\n", "\r\nbody\r\n"},
		{"\xef\xbb\xbfno frontmatter\n", "no frontmatter\n"},
		{"--- \nname: a\n...\nbody", "body"},
		{"----\nname: a\n", "----\nname: a\n"},
		{"", ""},
		{"# Title\n---\nnot frontmatter\n---\n", "# Title\n---\nnot frontmatter\n---\n"},
	}
	for _, tt := range tests {
		m, err := Parse("x.md", []byte(tt.in))
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if string(m.Body) != tt.body {
			t.Errorf("%q: body %q, want %q", tt.in, m.Body, tt.body)
		}
		if string(m.Bytes()) != tt.in {
			t.Errorf("%q: round trip %q", tt.in, m.Bytes())
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bad-yaml.md", string(readFixture(t, "bad-yaml.md")), "bad-yaml.md:3: frontmatter: did not find expected ',' or ']'"},
		{"unterminated.md", string(readFixture(t, "unterminated.md")), "unterminated.md:1: frontmatter: no closing --- line"},
		{"notes/x.md", "---\nname: a\ntags:\n  - a\n b: c\n---\n", "notes/x.md:5: frontmatter:"},
		{"tab.md", "---\nname: a\n\tclass: rule\n---\n", "tab.md:3: frontmatter: found a tab character that violates indentation"},
		{"nokey.md", "---\nname: a\njust some text\n---\n", "nokey.md:3: frontmatter: could not find expected ':'"},
		{"open.md", "---", "open.md:1: frontmatter: no closing --- line"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.name, []byte(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want prefix %q", tt.name, err, tt.want)
		}
	}
}

func TestNameFallback(t *testing.T) {
	tests := []struct{ path, in, want string }{
		{"a/feedback_keep-it_small.md", "no heading here\n", "feedback keep it small"},
		{"x.md", "---\ndescription: d\n---\n# Real *title* ##\n", "Real *title*"},
		{"x.md", "Setext title\n============\n", "Setext title"},
		{"x.md", "```\n# in code\n```\n### Third level\n", "Third level"},
		{"x.md", "---\nname: \"\"\n---\n#hashtag is not a heading\n", "x"},
		{"x.md", "#\n## `code` heading\n", "code heading"},
	}
	for _, tt := range tests {
		m, err := Parse(tt.path, []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != tt.want {
			t.Errorf("%q: name %q, want %q", tt.in, m.Name, tt.want)
		}
	}
}

func TestClass(t *testing.T) {
	tests := []struct{ fm, class, effective string }{
		{"class: Decision", "decision", "decision"},
		{"class: rule\ntype: user", "rule", "rule"},
		{"type: user", "preference", "preference"},
		{"type: feedback", "rule", "rule"},
		{"type: project", "fact", "fact"},
		{"type: reference", "reference", "reference"},
		{"class: insight\ntype: feedback", "rule", "rule"},
		{"class: insight", "", "fact"},
		{"type: whatever", "", "fact"},
		{"metadata:\n  type: user", "preference", "preference"},
		{"type: project\nmetadata:\n  type: user", "fact", "fact"},
		{"name: x", "", "fact"},
	}
	for _, tt := range tests {
		m, err := Parse("x.md", []byte("---\n"+tt.fm+"\n---\n"))
		if err != nil {
			t.Fatal(err)
		}
		if m.Class != tt.class || m.EffectiveClass() != tt.effective {
			t.Errorf("%q: class %q effective %q, want %q %q", tt.fm, m.Class, m.EffectiveClass(), tt.class, tt.effective)
		}
	}
}

func TestLenientValues(t *testing.T) {
	tests := []struct {
		fm   string
		imp  int
		mod  string
		tags []string
	}{
		{fm: "importance: high", imp: 0},
		{fm: "importance: 0", imp: 0},
		{fm: "importance: -3", imp: 0},
		{fm: "importance: 7.0", imp: 7},
		{fm: "importance: \"8\"", imp: 8},
		{fm: "importance: [1]", imp: 0},
		{fm: "modified: 2026-10-22", mod: "2026-10-22T00:00:00Z"},
		{fm: "modified: 2026-10-22T10:31:00+02:00", mod: "2026-10-22T08:31:00Z"},
		{fm: "modified: \"2026-10-22 10:31:00\"", mod: "2026-10-22T10:31:00Z"},
		{fm: "modified: yesterday"},
		{fm: "tags: one", tags: []string{"one"}},
		{fm: "tags: [a, '', ~, b]", tags: []string{"a", "b"}},
		{fm: "tags:\n  - a\n  - {x: y}\n  - c", tags: []string{"a", "c"}},
		{fm: "tags: {a: b}"},
		{fm: "tags:"},
		{fm: "base: &b [x, y]\ntags: *b", tags: []string{"x", "y"}},
	}
	for _, tt := range tests {
		m, err := Parse("x.md", []byte("---\n"+tt.fm+"\n---\n"))
		if err != nil {
			t.Errorf("%q: %v", tt.fm, err)
			continue
		}
		mod := ""
		if !m.Modified.IsZero() {
			mod = m.Modified.UTC().Format(time.RFC3339)
		}
		if m.Importance != tt.imp || mod != tt.mod || !reflect.DeepEqual(m.Tags, tt.tags) {
			t.Errorf("%q: importance %d modified %q tags %q", tt.fm, m.Importance, mod, m.Tags)
		}
	}
}

func TestSet(t *testing.T) {
	mod := time.Date(2026, 11, 20, 10, 31, 0, 0, time.UTC)
	tests := []struct {
		name  string
		in    string
		key   string
		value any
		want  string
	}{
		{"replace scalar", "---\nname: a\nclass: fact\n---\nbody\n", "class", "rule",
			"---\nname: a\nclass: rule\n---\nbody\n"},
		{"keep line comment", "---\nclass: fact    # rule | fact\nx: 1\n---\n", "class", "gotcha",
			"---\nclass: gotcha    # rule | fact\nx: 1\n---\n"},
		{"append", "---\nname: a\n# trailing comment\n---\nb", "importance", 7,
			"---\nname: a\n# trailing comment\nimportance: 7\n---\nb"},
		{"block list replaced whole, comment kept", "---\ntags:\n  - a\n  - b\n\n# about next\nnext: 1\n---\n", "tags", []string{"c", "d e"},
			"---\ntags: [c, d e]\n\n# about next\nnext: 1\n---\n"},
		{"block scalar replaced whole", "---\ndescription: |\n  one\n  two\nname: n\n---\n", "description", "short",
			"---\ndescription: short\nname: n\n---\n"},
		{"multi-line flow replaced whole", "---\naliases: [a,\n  b]\nz: 1\n---\n", "aliases", []string{"x"},
			"---\naliases: [x]\nz: 1\n---\n"},
		{"quoting", "---\nname: a\n---\n", "description", "Rule: never x",
			"---\nname: a\ndescription: 'Rule: never x'\n---\n"},
		{"string that looks like a number", "---\nname: a\n---\n", "superseded_by", "42",
			"---\nname: a\nsuperseded_by: \"42\"\n---\n"},
		{"list quoting", "---\nname: a\n---\n", "unverified", []string{"path a/b.go does not exist (2026-11-21)", "x, y"},
			"---\nname: a\nunverified: [path a/b.go does not exist (2026-11-21), 'x, y']\n---\n"},
		{"time", "---\nmodified: 2026-01-01\n---\n", "modified", mod,
			"---\nmodified: 2026-11-20T10:31:00Z\n---\n"},
		{"no frontmatter", "Body only.\n", "name", "New",
			"---\nname: New\n---\nBody only.\n"},
		{"no frontmatter crlf", "Body only.\r\n", "name", "New",
			"---\r\nname: New\r\n---\r\nBody only.\r\n"},
		{"crlf", "---\r\nname: a\r\ntags: [x]\r\n---\r\nb\r\n", "tags", []string{"y", "z"},
			"---\r\nname: a\r\ntags: [y, z]\r\n---\r\nb\r\n"},
		{"bom", "\xef\xbb\xbf---\nname: a\n---\n", "name", "b",
			"\xef\xbb\xbf---\nname: b\n---\n"},
		{"empty frontmatter", "---\n---\nbody\n", "name", "n",
			"---\nname: n\n---\nbody\n"},
		{"duplicate keys collapse", "---\ntags: [a]\nname: n\ntags: [b]\n---\n", "tags", []string{"c"},
			"---\ntags: [c]\nname: n\n---\n"},
		{"loose frontmatter stays loose", "---\nname: n\ndescription: Rule: x\n---\n", "importance", 5,
			"---\nname: n\ndescription: Rule: x\nimportance: 5\n---\n"},
		{"flow mapping re-encoded", "---\n{name: a, tags: [x]}\n---\nb\n", "class", "rule",
			"---\nname: a\ntags: [x]\nclass: rule\n---\nb\n"},
		{"multi-line string", "---\nname: a\n---\n", "description", "one\ntwo",
			"---\nname: a\ndescription: |-\n  one\n  two\n---\n"},
		{"closing dots kept", "---\nname: a\n...\nb", "name", "c",
			"---\nname: c\n...\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("x.md", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Set(tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if got := string(m.Bytes()); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if _, err := Parse("x.md", m.Bytes()); err != nil {
				t.Errorf("result does not parse: %v", err)
			}
		})
	}
}

func TestSetUpdatesFields(t *testing.T) {
	m, err := Parse("full.md", readFixture(t, "full.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Set(KeyImportance, 9); err != nil {
		t.Fatal(err)
	}
	if err := m.Set(KeyTags, []string{"billing"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Unset(KeyUnverified); err != nil {
		t.Fatal(err)
	}
	if m.Importance != 9 || !reflect.DeepEqual(m.Tags, []string{"billing"}) || m.Unverified != nil {
		t.Errorf("fields not updated: %+v", m)
	}
	want := strings.NewReplacer(
		"importance: 7\n", "importance: 9\n",
		"tags: [billing, tax]\n", "tags: [billing]\n",
		"unverified: [\"path billing/tax/round.go does not exist (2026-09-15)\"]\n", "",
	).Replace(string(readFixture(t, "full.md")))
	if got := string(m.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if err := m.Set("x", 1.5); err == nil {
		t.Error("Set of a float succeeded")
	}
	if err := m.Set("name", "\xff"); err == nil {
		t.Error("Set of invalid UTF-8 succeeded")
	}
	other, _ := Parse("x.md", []byte("---\n- a list\n---\n"))
	if err := other.Set("name", "x"); err == nil {
		t.Error("Set on a list frontmatter succeeded")
	}
}

func TestUnset(t *testing.T) {
	tests := []struct{ in, key, want string }{
		{"---\nname: a\nunverified: [x]\nz: 1\n---\nb\n", "unverified", "---\nname: a\nz: 1\n---\nb\n"},
		{"---\nname: a\nunverified:\n  - x\n  - y\n# keep me\nz: 1\n---\n", "unverified", "---\nname: a\n# keep me\nz: 1\n---\n"},
		{"---\nname: a\n---\n", "absent", "---\nname: a\n---\n"},
		{"---\nname: a\n---\n", "name", "---\n---\n"},
		{"no frontmatter\n", "name", "no frontmatter\n"},
		{"---\r\na: 1\r\nb: 2\r\n---\r\n", "a", "---\r\nb: 2\r\n---\r\n"},
	}
	for _, tt := range tests {
		m, err := Parse("x.md", []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Unset(tt.key); err != nil {
			t.Fatal(err)
		}
		if got := string(m.Bytes()); got != tt.want {
			t.Errorf("%q unset %s:\ngot  %q\nwant %q", tt.in, tt.key, got, tt.want)
		}
	}
}

func TestNew(t *testing.T) {
	m := New(Fields{
		Name:        "Spanish VAT rounds per line",
		Description: "VAT is rounded per order line: never on the total",
		Class:       "gotcha",
		Importance:  7,
		Modified:    time.Date(2026, 11, 20, 10, 31, 0, 0, time.UTC),
		Tags:        []string{"checkout", "vat"},
		Aliases:     []string{"one cent off"},
	}, "\n\nRounding the total is off by one cent.\n\n\n")
	want := `---
name: Spanish VAT rounds per line
description: 'VAT is rounded per order line: never on the total'
class: gotcha
importance: 7
modified: 2026-11-20T10:31:00Z
tags: [checkout, vat]
aliases: [one cent off]
---
Rounding the total is off by one cent.
`
	if got := string(m.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if m.Name != "Spanish VAT rounds per line" || m.Importance != 7 || m.Class != "gotcha" {
		t.Errorf("fields: %+v", m)
	}
	if got := string(New(Fields{Name: "x"}, "").Bytes()); got != "---\nname: x\n---\n" {
		t.Errorf("empty body: %q", got)
	}
}

func TestSlugify(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Spanish VAT rounds per line", "spanish-vat-rounds-per-line"},
		{"  Don't force-push main!  ", "dont-force-push-main"},
		{"Größe & Café déjà vu", "grosse-cafe-deja-vu"},
		{"Cafe\u0301 decomposed", "cafe-decomposed"},
		{"Łódź office", "lodz-office"},
		{"Привет мир", "privet-mir"},
		{"日本語 notes", "notes"},
		{"日本語", "memory"},
		{"", "memory"},
		{"---", "memory"},
		{"v2.1 release: notes", "v2-1-release-notes"},
		{strings.Repeat("word ", 20), "word-word-word-word-word-word-word-word-word-word-word-word"},
		{strings.Repeat("x", 80), strings.Repeat("x", 60)},
		// A cut slug ends on a word that means something.
		{"When the checkout service returns HTTP 502 during the nightly batch window", "when-the-checkout-service-returns-http-502"},
		{"Restart the payment worker before the gateway and then the queue of the refunds", "restart-the-payment-worker-before-the-gateway"},
		{"İstanbul", "istanbul"},
	}
	for _, tt := range tests {
		got := Slugify(tt.in)
		if got != tt.want {
			t.Errorf("Slugify(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if len(got) > SlugMax {
			t.Errorf("Slugify(%q) is %d bytes", tt.in, len(got))
		}
	}
}
