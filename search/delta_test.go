package search

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// sameIndex fails unless got, read with whatever delta it has, answers as
// want does: the same documents, norms, averages, dictionary (document
// frequencies included), stamps and search results, and the same cache
// once written whole.
func sameIndex(t *testing.T, step string, got, want *Index, stamps []Source) {
	t.Helper()
	if got.Len() != want.Len() || got.avgLen != want.avgLen {
		t.Fatalf("%s: %d documents, averages %v; want %d, %v", step, got.Len(), got.avgLen, want.Len(), want.avgLen)
	}
	if g, w := got.Docs(), want.Docs(); !reflect.DeepEqual(g, w) {
		t.Fatalf("%s: documents differ", step)
	}
	for id := range want.Len() {
		if !bytes.Equal(got.normAt(id), want.normAt(id)) {
			t.Fatalf("%s: norm of %d differs", step, id)
		}
	}
	ents := got.entries()
	if len(ents) != want.nTerms {
		t.Fatalf("%s: %d terms, want %d", step, len(ents), want.nTerms)
	}
	for e := range want.nTerms {
		term, _ := want.term(e)
		g := got.lookup(term)
		if g != ents[e] || got.docFreq(g) != want.docFreq(e) {
			t.Fatalf("%s: term %q: entry %d (df %d), want df %d", step, term, g, got.docFreq(g), want.docFreq(e))
		}
		gp, _ := got.postings(g)
		wp, _ := want.postings(e)
		if !bytes.Equal(gp, wp) {
			t.Fatalf("%s: postings of %q differ", step, term)
		}
	}
	if stamps != nil && !reflect.DeepEqual(got.Sources(), stamps) {
		t.Fatalf("%s: stamps differ", step)
	}
	for _, q := range []string{"deploy on friday", "vat rounding ledger", "postgres queue retry timeout", "webhook token"} {
		opt := Options{All: true, Now: fixtureNow}
		if g, w := got.Search(ParseQuery(q, ""), opt), want.Search(ParseQuery(q, ""), opt); !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: search %q gives %v, want %v", step, q, g, w)
		}
	}
	flat, err := Update(got, func(string) bool { return true }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(flat.data, want.data) {
		t.Fatalf("%s: written whole, the index differs from a build", step)
	}
	if err := got.Verify(); err != nil {
		t.Fatalf("%s: Verify: %v", step, err)
	}
}

// TestDeltaRandom edits, adds, renames and deletes documents of a generated
// store at random, writing each change as a delta beside the cache (or the
// cache whole when the change moves documents, and now and then to fold
// the delta in), and compares the cache read back with a build.
func TestDeltaRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	doc := randomDoc(rng, true)
	docs := make([]Doc, 30)
	for i := range docs {
		docs[i] = doc(i)
	}
	path := filepath.Join(t.TempDir(), "index-x.bin")
	stampsOf := func(round int) []Source {
		return []Source{{Path: "/store", ModNs: int64(round), Kind: SourceDir}, {Path: "/store/m0.md", ModNs: int64(round), Size: 3}}
	}
	if err := Build(docs).WriteFile(path, stampsOf(0)); err != nil {
		t.Fatal(err)
	}
	next, deltas, wholes := len(docs), 0, 0
	for round := 1; round <= 60; round++ {
		ix, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		var changed []Doc
		for range 1 + rng.IntN(3) {
			switch i := rng.IntN(len(docs)); {
			case rng.IntN(4) == 0:
				d := doc(next)
				next++
				docs = append(docs, d)
				paths, changed = append(paths, d.Path), append(changed, d)
			case rng.IntN(12) == 0 && len(docs) > 5 && !slices.Contains(paths, docs[i].Path):
				paths = append(paths, docs[i].Path) // deleted: documents move
				docs = slices.Delete(docs, i, i+1)
			case !slices.Contains(paths, docs[i].Path):
				d := doc(0)
				d.Slug, d.Path = docs[i].Slug, docs[i].Path
				docs[i] = d
				paths, changed = append(paths, d.Path), append(changed, d)
			}
		}
		// Deleted files leave the documents of later files in their
		// order; Update moves changed files' documents last.
		full, err := Replace(ix, paths, changed)
		if err != nil {
			t.Fatal(err)
		}
		want := Build(full.Docs())
		if !bytes.Equal(full.data, want.data) {
			t.Fatalf("round %d: Replace over a delta differs from a build", round)
		}
		d, err := ReplaceDelta(ix, paths, changed)
		switch {
		case errors.Is(err, errNotInPlace) || err == nil && rng.IntN(8) == 0:
			wholes++
			if err := full.WriteFile(path, stampsOf(round)); err != nil {
				t.Fatal(err)
			}
			if rng.IntN(2) == 0 {
				os.Remove(DeltaPath(path)) // else left behind, for a base it no longer applies to
			}
		case err != nil:
			t.Fatal(err)
		default:
			deltas++
			if err := d.WriteFile(path, stampsOf(round)); err != nil {
				t.Fatal(err)
			}
		}
		ix.Close()
		got, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sameIndex(t, fmt.Sprint("round ", round), got, want, stampsOf(round))
		got.Close()
		docs = want.Docs()
	}
	if deltas < 20 || wholes < 3 {
		t.Fatalf("%d rounds wrote a delta, %d the whole cache: the test does not test both", deltas, wholes)
	}
}

// TestDeltaOfAnotherBase: a delta is read only with the base it was made
// for; beside another it is ignored, and a damaged one too.
func TestDeltaOfAnotherBase(t *testing.T) {
	docs := fixtureDocs(t)
	path := filepath.Join(t.TempDir(), "index-x.bin")
	baseStamps := []Source{{Path: "/s/a.md", ModNs: 1}}
	if err := Build(docs).WriteFile(path, baseStamps); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := docs[1]
	edited.Name += " zyzzyva"
	d, err := ReplaceDelta(ix, []string{edited.Path}, []Doc{edited})
	ix.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile(path, []Source{{Path: "/s/a.md", ModNs: 7}}); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(DeltaPath(path))
	tests := []struct {
		name   string
		base   []Doc
		delta  []byte
		merged bool
	}{
		{"its base", docs, good, true},
		{"another base", docs[:len(docs)-1], good, false},
		{"damaged meta", docs, flip(good, align8(deltaHeaderSize)+2), false},
		{"damaged header", docs, flip(good, 20), false},
		{"cut short", docs, good[:len(good)-9], false},
		{"empty", docs, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := Build(tt.base)
			if err := base.WriteFile(path, baseStamps); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(DeltaPath(path), tt.delta, 0o600); err != nil {
				t.Fatal(err)
			}
			ix, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if got := ix.over != nil; got != tt.merged {
				t.Fatalf("delta read: %v, want %v", got, tt.merged)
			}
			if tt.merged {
				if got := ix.Search(ParseQuery("zyzzyva", ""), Options{All: true, Now: fixtureNow}); len(got) != 1 || got[0].Slug != edited.Slug {
					t.Errorf("the delta's word finds %v", got)
				}
				return
			}
			if ix.Len() != base.Len() || ix.Sources()[0].ModNs != 1 {
				t.Errorf("without its delta: %d documents, stamps %v", ix.Len(), ix.Sources())
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := slices.Clone(b)
	c[i] ^= 0xff
	return c
}

// FuzzOpenDelta: whatever lies beside a cache as its delta, opening and
// searching the two never panics, and what does not read is not read.
func FuzzOpenDelta(f *testing.F) {
	docs := fixtureDocs(f)
	base := Build(docs)
	edited, added := docs[2], Doc{Slug: "new", Path: ".claude/agent-memory/new.md", Name: "New memory", Body: "brand new words aardvark"}
	edited.Body += " zyzzyva"
	d, err := ReplaceDelta(base, []string{edited.Path, added.Path}, []Doc{edited, added})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "index-x.bin")
	if err := base.WriteFile(path, nil); err != nil {
		f.Fatal(err)
	}
	if err := d.WriteFile(path, []Source{{Path: "/s/a.md", ModNs: 7}}); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(DeltaPath(path))
	baseData, _ := os.ReadFile(path)
	f.Add(good)
	f.Add(good[:deltaHeaderSize])
	f.Add([]byte(deltaMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := load(baseData)
		if err != nil {
			t.Fatal(err)
		}
		o := loadDelta(data)
		ix.attach(o)
		ix.Search(ParseQuery("spanish vat rounding release tax.py zyzzyva aardvark", ""), Options{All: true, Now: fixtureNow})
		ix.Docs()
		ix.Summaries()
		ix.Sources()
		ix.Verify()
		if ix.over != nil {
			if _, err := ReplaceDelta(ix, []string{edited.Path}, []Doc{edited}); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, errNotInPlace) {
				t.Fatal(err)
			}
		}
	})
}

// TestDeltaWhileRead: readers opening the cache while a writer refreshes it
// over and over, as deltas and now and then whole, always read one state the
// writer wrote, intact: never a delta beside a cache it was not made for.
func TestDeltaWhileRead(t *testing.T) {
	docs := fixtureDocs(t)
	path := filepath.Join(t.TempDir(), "index-x.bin")
	state := func(ix *Index) string {
		var b bytes.Buffer
		for _, d := range ix.Docs() {
			b.WriteString(d.Body)
			b.WriteByte(0)
		}
		return b.String()
	}
	base := Build(docs)
	if err := base.WriteFile(path, nil); err != nil {
		t.Fatal(err)
	}
	var states sync.Map // every state written, before it is
	states.Store(state(base), true)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				ix, err := Open(path)
				if err != nil {
					t.Error(err)
					return
				}
				if err := ix.Verify(); err != nil {
					t.Error("a reader found the cache damaged:", err)
				} else if _, ok := states.Load(state(ix)); !ok {
					t.Error("a reader read a state nobody wrote")
				}
				ix.Close()
				reads.Add(1)
			}
		})
	}
	for round := range 60 {
		ix, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		i := round % len(docs)
		d := docs[i]
		d.Body = fmt.Sprintf("%s (round %d)", docs[i].Body, round)
		full, err := Replace(ix, []string{d.Path}, []Doc{d})
		if err != nil {
			t.Fatal(err)
		}
		states.Store(state(full), true)
		if round%7 == 6 {
			err = full.WriteFile(path, nil)
			os.Remove(DeltaPath(path))
		} else {
			var delta *Delta
			if delta, err = ReplaceDelta(ix, []string{d.Path}, []Doc{d}); err == nil {
				err = delta.WriteFile(path, nil)
			}
		}
		ix.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	if reads.Load() < 10 {
		t.Fatalf("only %d reads while the writer ran", reads.Load())
	}
}
