package mdparse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// seed adds every fixture in testdata to f's corpus.
func seed(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "a value: with # chars")
	}
	f.Add([]byte("---\r\nname: x\r\n---\r\n"), "")
	f.Add([]byte("---\n{a: 1}\n---\n"), "x\ny")
	f.Add([]byte("<!-- c\n-->\n```\n<!--\n```\n"), "'")
}

func FuzzParse(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, data []byte, value string) {
		n := New(Fields{Name: value, Tags: []string{value}, Importance: 3}, value)
		nm, err := Parse("n.md", n.Bytes())
		if err != nil {
			t.Fatalf("New gives a file that does not parse: %v\n%q", err, n.Bytes())
		}
		if v := strings.TrimSpace(strings.ToValidUTF8(value, "\uFFFD")); v != "" && (nm.Name != v || nm.Importance != 3) {
			t.Fatalf("New: name %q, want %q", nm.Name, v)
		}
		m, err := Parse("f.md", data)
		if err != nil {
			return
		}
		out := m.Bytes()
		if !bytes.Equal(out, data) {
			t.Fatalf("round trip:\n%q\n%q", data, out)
		}
		m2, err := Parse("f.md", out)
		if err != nil || m2.Name != m.Name || !reflect.DeepEqual(m2.Tags, m.Tags) {
			t.Fatalf("reparse: %v", err)
		}
		ExtractBody(m.Body)
		if !utf8.ValidString(value) {
			return
		}
		want := strings.TrimSpace(value)
		if err := m.Set(KeyDescription, value); err != nil {
			if m.kind == fmOther {
				return
			}
			t.Fatalf("set description %q: %v\n%q", value, err, data)
		}
		if err := m.Set(KeyTags, []string{value, "b"}); err != nil {
			t.Fatalf("set tags: %v\n%q", err, m.Bytes())
		}
		m3, err := Parse("f.md", m.Bytes())
		if err != nil {
			t.Fatalf("parse after set: %v\n%q", err, m.Bytes())
		}
		if m3.Description != want {
			t.Fatalf("description %q, want %q\n%q", m3.Description, want, m.Bytes())
		}
		wantTags := []string{"b"}
		if want != "" {
			wantTags = []string{want, "b"}
		}
		if !reflect.DeepEqual(m3.Tags, wantTags) {
			t.Fatalf("tags %q, want %q\n%q", m3.Tags, wantTags, m.Bytes())
		}
		if !bytes.Equal(m3.Body, m.Body) {
			t.Fatalf("body changed")
		}
		if err := m3.Unset(KeyDescription); err != nil {
			t.Fatalf("unset: %v", err)
		}
		if m4, err := Parse("f.md", m3.Bytes()); err != nil || m4.Description != "" {
			t.Fatalf("after unset: %v %q\n%q", err, m4.Description, m3.Bytes())
		}
	})
}

func FuzzMeasure(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, data []byte, _ string) {
		checkMeasure(t, "MEMORY.md", data)
	})
}

// checkMeasure measures data both as a MEMORY.md and as a CLAUDE.md, and
// fails t when the budgets contradict the file or each other.
func checkMeasure(t testing.TB, name string, data []byte) (mem, claude Budget, warn bool) {
	t.Helper()
	mem = MeasureCatalog(name, data)
	if mem.Bytes > len(data) || mem.Lines > bytes.Count(data, []byte("\n"))+1 {
		t.Errorf("%s: measured more than the file: %+v", name, mem)
	}
	if mem.Fits != (mem.CutLine == 0) || mem.Fits != (mem.Lines <= CatalogMaxLines && mem.Bytes <= CatalogMaxBytes) {
		t.Errorf("%s: inconsistent: %+v", name, mem)
	}
	claude, warn = MeasureClaudeMD(name, data)
	if claude.Lines != mem.Lines || claude.Bytes != mem.Bytes {
		t.Errorf("%s: CLAUDE.md and MEMORY.md strip differently: %+v %+v", name, claude, mem)
	}
	return mem, claude, warn
}
