package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"
)

// TestReplace: whatever changes, Replace writes what Build writes for the
// documents in their new order: an edited file in its place, a new file
// last, and what it does not place (a file gone, a catalog whose sections
// changed count) as Update does.
func TestReplace(t *testing.T) {
	docs := fixtureDocs(t)
	edited := docs[1]
	edited.Body += "\nEdited by hand: the rounding now happens per line, zyzzyva."
	edited.Tags = append([]string{"edited"}, edited.Tags...)
	renamed := docs[3]
	renamed.Name, renamed.Description, renamed.Body = "Quokka", "", "nothing it had"
	section := Doc{Slug: "MEMORY", Path: ".claude/agent-memory/MEMORY.md", Name: "Deploys", Body: "staging first", Line: 3}
	section2 := Doc{Slug: "MEMORY", Path: ".claude/agent-memory/MEMORY.md", Name: "Reviews", Body: "one approval", Line: 9}
	added := Doc{Slug: "new", Path: ".claude/agent-memory/new.md", Name: "New memory", Body: "brand new words aardvark"}
	base := append(slices.Clone(docs), section, section2)
	at := func(i int, d Doc) []Doc { w := slices.Clone(base); w[i] = d; return w }
	without := func(paths ...string) []Doc {
		return slices.DeleteFunc(slices.Clone(base), func(d Doc) bool { return slices.Contains(paths, d.Path) })
	}
	tests := []struct {
		name  string
		paths []string
		docs  []Doc
		want  []Doc
	}{
		{"one file edited", []string{edited.Path}, []Doc{edited}, at(1, edited)},
		{"every term replaced", []string{renamed.Path}, []Doc{renamed}, at(3, renamed)},
		{"edited and added", []string{added.Path, edited.Path}, []Doc{edited, added}, append(at(1, edited), added)},
		{"one file added", []string{added.Path}, []Doc{added}, append(slices.Clone(base), added)},
		{"unchanged file named", []string{docs[0].Path}, []Doc{docs[0]}, base},
		{"one file deleted", []string{docs[2].Path}, nil, without(docs[2].Path)},
		{"sections changed count", []string{section.Path}, []Doc{section2}, append(without(section.Path), section2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Replace(Build(base), tt.paths, tt.docs)
			if err != nil {
				t.Fatal(err)
			}
			if want := Build(tt.want); !bytes.Equal(got.data, want.data) {
				t.Errorf("replaced index (%d docs) differs from a build (%d docs)", got.Len(), want.Len())
			}
			// ReplaceFile writes, byte for byte, what Replace and WriteFile write.
			dir := t.TempDir()
			stamps := []Source{{Path: "/store", Kind: SourceDir, ModNs: 1, Size: 2}}
			if err := got.WriteFile(dir+"/replaced", stamps); err != nil {
				t.Fatal(err)
			}
			if err := ReplaceFile(Build(base), tt.paths, tt.docs, dir+"/direct", stamps); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(dir + "/replaced")
			b, _ := os.ReadFile(dir + "/direct")
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("ReplaceFile wrote %d bytes that differ from Replace's %d", len(b), len(a))
			}
		})
	}
}

// TestReplaceRandom edits, adds and renames documents of a generated store
// at random and compares each result with a build.
func TestReplaceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	doc := randomDoc(rng, false)
	docs := make([]Doc, 40)
	for i := range docs {
		docs[i] = doc(i)
	}
	ix := Build(docs)
	next := len(docs)
	for round := range 30 {
		var paths []string
		var changed []Doc
		for range 1 + rng.IntN(3) {
			if rng.IntN(4) == 0 {
				d := doc(next)
				next++
				docs = append(docs, d)
				paths, changed = append(paths, d.Path), append(changed, d)
				continue
			}
			i := rng.IntN(len(docs))
			if slices.Contains(paths, docs[i].Path) {
				continue
			}
			d := doc(0)
			d.Slug, d.Path = docs[i].Slug, docs[i].Path
			docs[i] = d
			paths, changed = append(paths, d.Path), append(changed, d)
		}
		got, err := Replace(ix, paths, changed)
		if err != nil {
			t.Fatal(err)
		}
		if want := Build(docs); !bytes.Equal(got.data, want.data) {
			t.Fatalf("round %d: replaced index differs from a build", round)
		}
		ix = got
	}
}

// benchRefresh measures a refresh of a 10,000-memory cache after one file
// changed: refresh(old, the changed file's path, its new document).
func benchRefresh(b *testing.B, refresh func(*Index, string, Doc) (*Index, error)) {
	docs := loadStore(b, corpus(b, 10000), "project")
	ix := Build(docs)
	d := docs[len(docs)/2]
	d.Body += " edited in place"
	loop(b, func() {
		if _, err := refresh(ix, d.Path, d); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkRefreshReplace10k(b *testing.B) {
	benchRefresh(b, func(ix *Index, path string, d Doc) (*Index, error) {
		return Replace(ix, []string{path}, []Doc{d})
	})
}

func BenchmarkRefreshUpdate10k(b *testing.B) {
	benchRefresh(b, func(ix *Index, path string, d Doc) (*Index, error) {
		return Update(ix, func(p string) bool { return p != path }, []Doc{d})
	})
}

// TestWriteFileVerifies: a cache written from an index, mapped or built,
// with the sections' stored checksums reused, opens and verifies, and
// holds the stamps it was given.
func TestWriteFileVerifies(t *testing.T) {
	dir := t.TempDir()
	first, second := dir+"/a", dir+"/b"
	ix := Build(fixtureDocs(t))
	stamps := []Source{{Path: "/x/a.md", ModNs: 5, Size: 7, Kind: SourceFile}}
	if err := ix.WriteFile(first, stamps); err != nil {
		t.Fatal(err)
	}
	mapped, err := Open(first)
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	if err := mapped.WriteFile(second, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{first, second} {
		got, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := got.Verify(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if got.Len() != ix.Len() {
			t.Errorf("%s: %d docs, want %d", p, got.Len(), ix.Len())
		}
		got.Close()
	}
	if s := mapped.Sources(); len(s) != 1 || s[0] != stamps[0] {
		t.Errorf("stamps %v", s)
	}
}

// randomDoc returns a maker of generated documents for the randomised
// tests: doc(i) is document i with fields drawn from a small vocabulary
// (so terms are shared) and now and then a word of its own; with aliases
// it has two.
func randomDoc(rng *rand.Rand, aliases bool) func(i int) Doc {
	words := []string{"deploy", "vat", "rounding", "cache", "postgres", "friday", "staging", "token", "queue", "invoice", "retry", "timeout", "webhook", "ledger"}
	text := func(n int) string {
		var b bytes.Buffer
		for range n {
			fmt.Fprintf(&b, "%s ", words[rng.IntN(len(words))])
		}
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "unique%d", rng.IntN(1000))
		}
		return b.String()
	}
	return func(i int) Doc {
		d := Doc{Slug: fmt.Sprint("m", i), Path: fmt.Sprintf(".claude/agent-memory/m%d.md", i), Store: StoreProject,
			Name: text(3), Description: text(5), Body: text(20), Tags: []string{words[rng.IntN(len(words))]},
			Class: "fact", Importance: 1 + rng.IntN(10), Modified: time.Unix(int64(rng.IntN(1e9)), 0).UTC()}
		if aliases {
			d.Aliases = []string{text(4), text(5)}
		}
		return d
	}
}

// BenchmarkReplaceFile500 measures what `mem store` pays to refresh the
// cache of a 500-memory store, the writer's usual case: a memory added to
// a mapped cache, the new cache written to a file (ReplaceFile).
func BenchmarkReplaceFile500(b *testing.B) {
	docs := loadStore(b, corpus(b, 500), "project")
	dir := b.TempDir()
	if err := Build(docs).WriteFile(dir+"/cache", nil); err != nil {
		b.Fatal(err)
	}
	ix, err := Open(dir + "/cache")
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	d := docs[len(docs)/2]
	d.Path, d.Slug = d.Path+".new.md", d.Slug+"-new"
	b.ReportAllocs()
	loop(b, func() {
		if err := ReplaceFile(ix, []string{d.Path}, []Doc{d}, dir+"/next", nil); err != nil {
			b.Fatal(err)
		}
	})
}
