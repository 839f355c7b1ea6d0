package search

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// summaryOf is d as Summaries gives it: no body, no aliases.
func summaryOf(d Doc) Doc {
	d.Body, d.Aliases = "", nil
	return d
}

func TestSummaries(t *testing.T) {
	mod := time.Date(2026, 11, 20, 10, 31, 0, 0, time.UTC)
	tests := []struct {
		name string
		docs []Doc
	}{
		{"none", nil},
		{"bare", []Doc{{Slug: "a", Path: "a.md", Store: StoreProject, Name: "A"}}},
		{"every field", []Doc{{
			Slug: "vat", Path: ".claude/agent-memory/vat.md", Store: StoreProject, Name: "Spanish VAT rounds per line",
			Description: "per line, never the total", Class: "gotcha", SupersededBy: "vat-2", Body: "Rounding the total is off by a cent.",
			Importance: 7, Modified: mod, Tags: []string{"checkout", "vat"}, Aliases: []string{"one cent off", "rounding error"},
			Unverified: []string{"path shop/tax.py does not exist"}, Broken: "vat.md:3: bad yaml",
		}}},
		{"aliases but no tags", []Doc{
			{Slug: "x", Path: "x.md", Name: "X", Aliases: []string{"", "an alias"}, Body: "b", Unverified: []string{"u"}},
			{Slug: "MEMORY.md#L5", Path: "MEMORY.md", Name: "Notes", Class: "fact", Body: "- a fact", Line: 5},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := Build(tt.docs)
			got := ix.Summaries()
			if len(got) != len(tt.docs) {
				t.Fatalf("%d summaries of %d documents", len(got), len(tt.docs))
			}
			for i, d := range ix.Docs() {
				if want := summaryOf(d); !reflect.DeepEqual(got[i], want) {
					t.Errorf("summary %d\n%+v\nwant\n%+v", i, got[i], want)
				}
			}
		})
	}
}

// FuzzDecodeRecord: a summary reads any bytes exactly as far as a whole
// record does, and agrees with it on every field it keeps; the aliases read
// alone are the record's.
func FuzzDecodeRecord(f *testing.F) {
	for _, d := range fixtureDocs(f) {
		f.Add(appendDoc(nil, &d))
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 'a'})
	f.Fuzz(func(t *testing.T, rec []byte) {
		d, ok := decodeDoc(rec)
		s, sok := decodeSummary(rec)
		if ok != sok {
			t.Fatalf("record ok %v, summary ok %v", ok, sok)
		}
		if ok && !reflect.DeepEqual(s, summaryOf(d)) {
			t.Fatalf("summary\n%+v\nrecord\n%+v", s, d)
		}
		if a, aok := decodeAliases(rec); ok && (!aok || !slices.Equal(a, d.Aliases)) {
			t.Fatalf("aliases %q (ok %v), record's %q", a, aok, d.Aliases)
		}
	})
}

// FuzzSources: Verify's check of the stamps accepts exactly what decoding
// them does.
func FuzzSources(f *testing.F) {
	f.Add(appendSources(nil, []Source{{Path: "/s", Kind: SourceDir, ModNs: 5}, {Path: "/s/a.md", ModNs: 7, Size: 3}, {Path: "/s/gone.md", Size: -1}}))
	f.Add(appendSources(nil, nil))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, ok := decodeSources(b)
		if got := sourcesValid(b); got != ok {
			t.Fatalf("sourcesValid %v, decodeSources %v", got, ok)
		}
		// A stamp's path read in place is the path it decodes to.
		if v, ok := stampsOf(b); ok {
			for i := range v.Files() {
				if s := v.File(i); s.Size != -2 && string(v.FilePath(i)) != s.Path {
					t.Fatalf("stamp %d: FilePath %q, File %q", i, v.FilePath(i), s.Path)
				}
			}
		}
	})
}
