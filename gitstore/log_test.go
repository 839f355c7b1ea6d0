package gitstore

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/text"
)

func TestParseTrailers(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      []Trailer
	}{
		{"mem", "mem: store x\n\nMem-Action: store\nMem-Confidence: 0.82\n", []Trailer{{"Mem-Action", "store"}, {"Mem-Confidence", "0.82"}}},
		{"with body", "subject\n\nbody line\nmore: body\n\nMem-Action: forget\n", []Trailer{{"Mem-Action", "forget"}}},
		{"continuation", "s\n\nMem-Reason: one\n  two\n", []Trailer{{"Mem-Reason", "one two"}}},
		{"crlf", "s\r\n\r\nMem-Action: store\r\n", []Trailer{{"Mem-Action", "store"}}},
		{"subject only", "Mem-Action: store\n", nil},
		{"not all trailers", "s\n\nMem-Action: store\nplain text\n", nil},
		{"key with space", "s\n\nMem Action: store\n", nil},
		{"no trailers", "s\n\nbody\n", nil},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ParseTrailers(tc.msg); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzParseTrailers(f *testing.F) {
	f.Add("mem: store x\n\nMem-Action: store\nMem-Confidence: 0.82\n")
	f.Add("s\n\nMem-Reason: one\n  two\n")
	f.Add("s\n\n\n\nA: b\n\n")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, tr := range ParseTrailers(msg) {
			if !trailerKey.MatchString(tr.Key) || strings.Contains(tr.Value, "\n") {
				t.Fatalf("bad trailer %q from %q", tr, msg)
			}
		}
		// What message builds, ParseTrailers reads back.
		info := CommitInfo{Action: "store", Subject: msg, Body: msg, Trailers: []Trailer{{"Mem-Reason", msg}}}
		built, _, err := message(info)
		if err != nil {
			t.Fatal(err)
		}
		got := ParseTrailers(built)
		if len(got) != 2 || got[0] != (Trailer{"Mem-Action", "store"}) || got[1].Value != text.OneLine(msg) {
			t.Fatalf("built %q, parsed %q", built, got)
		}
	})
}

func TestLog(t *testing.T) {
	repo, s := newRepo(t)
	if got, err := s.Log(context.Background(), 0); err != nil || len(got) != 0 {
		t.Fatalf("Log of a repository without mem commits: %v, %v", got, err)
	}
	apply(t, s, CommitInfo{Action: "store", Slug: "a"}, Change{Path: "a.md", Data: []byte("a\n")})
	write(t, filepath.Join(repo, "code.go"), "package x\n")
	run(t, repo, "add", "code.go")
	run(t, repo, "commit", "-q", "-m", "user work\n\nSigned-off-by: Someone <s@example.com>")
	res := apply(t, s, CommitInfo{Action: "supersede", Slug: "b", Trailers: []Trailer{{"Mem-Confidence", "0.9"}}}, Change{Path: "b.md", Data: []byte("b\n")})
	apply(t, s, CommitInfo{Action: "store", Subject: "mem: custom words", Trailers: []Trailer{{"Mem-Slug", "c"}}}, Change{Path: "c.md", Data: []byte("c\n")})

	entries, err := s.Log(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Action+" "+e.Slug)
	}
	if want := []string{"store c", "supersede b", "store a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Log = %q, want %q", got, want)
	}
	b := entries[1]
	if b.Commit != res.Commit || b.Subject != "mem: supersede b" || b.Author != "Test User <test@example.com>" || b.Time.IsZero() {
		t.Errorf("entry %+v", b)
	}
	if want := []Trailer{{"Mem-Action", "supersede"}, {"Mem-Confidence", "0.9"}}; !reflect.DeepEqual(b.Trailers, want) {
		t.Errorf("trailers %q", b.Trailers)
	}
	if entries, err := s.Log(context.Background(), 2); err != nil || len(entries) != 2 {
		t.Errorf("Log(2): %d entries, %v", len(entries), err)
	}

	t.Run("unborn", func(t *testing.T) {
		repo := t.TempDir()
		run(t, repo, "init", "-q")
		s, err := openAt(repo)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.Log(context.Background(), 0); err != nil || len(got) != 0 {
			t.Errorf("got %v, %v", got, err)
		}
	})
}

func TestUndo(t *testing.T) {
	repo, s := newRepo(t)
	ctx := context.Background()
	created := apply(t, s, CommitInfo{Action: "store", Slug: "a"}, Change{Path: "a.md", Data: []byte("v1\n")})
	updated := apply(t, s, CommitInfo{Action: "store", Slug: "a"}, Change{Path: "a.md", Data: []byte("v2\n")})

	undo := func(ref string) (Result, error) {
		unlock, err := s.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		return s.Undo(ctx, ref)
	}

	// Undoing the update brings v1 back.
	res, err := undo(updated.Commit[:10])
	if err != nil || !res.Committed {
		t.Fatalf("%+v, %v", res, err)
	}
	if got, _ := s.ReadFile("a.md"); string(got) != "v1\n" {
		t.Errorf("after undo a.md = %q", got)
	}
	entries, err := s.Log(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if e := entries[0]; e.Action != "undo" || e.Slug != "a" || !reflect.DeepEqual(e.Trailers[1], Trailer{"Mem-Undo", updated.Commit}) {
		t.Errorf("undo entry %+v", e)
	}
	checkClean(t, repo)

	// With a.md back at v1, the creation can be undone too.
	if _, err := undo(created.Commit); err != nil {
		t.Fatalf("undo of the creation, with a.md back at v1: %v", err)
	}
	if s.Exists("a.md") {
		t.Error("undoing the creation left a.md")
	}
	checkClean(t, repo)

	initial := run(t, repo, "rev-list", "--max-parents=0", "HEAD")
	for _, tc := range []struct {
		name, ref, want string
	}{
		{"changed since", updated.Commit, "a.md has changed since"},
		{"not mem", initial, "not a mem commit"},
		{"unknown", "nope", "unknown commit"},
		{"option", "--all", "bad revision"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := run(t, repo, "rev-parse", "HEAD")
			_, err := undo(tc.ref)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
			if got := run(t, repo, "rev-parse", "HEAD"); got != head {
				t.Error("HEAD moved")
			}
		})
	}

	t.Run("edited since", func(t *testing.T) {
		res := apply(t, s, CommitInfo{Action: "store", Slug: "e"}, Change{Path: "e.md", Data: []byte("e\n")})
		write(t, filepath.Join(s.Root, "e.md"), "hand edit\n")
		if _, err := undo(res.Commit); err == nil || !strings.Contains(err.Error(), "e.md has changed since") {
			t.Errorf("err = %v", err)
		}
		if got, _ := s.ReadFile("e.md"); string(got) != "hand edit\n" {
			t.Errorf("e.md = %q", got)
		}
	})

	t.Run("merge", func(t *testing.T) {
		tree := run(t, repo, "rev-parse", "HEAD^{tree}")
		merge := run(t, repo, "commit-tree", tree, "-p", "HEAD", "-p", "HEAD~1", "-m", "mem: store m\n\nMem-Action: store")
		if _, err := undo(merge); err == nil || !strings.Contains(err.Error(), "merge commit") {
			t.Errorf("err = %v", err)
		}
	})

	t.Run("outside the store", func(t *testing.T) {
		write(t, filepath.Join(repo, "code.go"), "package x\n")
		run(t, repo, "add", "code.go")
		run(t, repo, "commit", "-q", "-m", "mem: store sneaky\n\nMem-Action: store")
		if _, err := undo("HEAD"); err == nil || !strings.Contains(err.Error(), "outside the store") {
			t.Errorf("err = %v", err)
		}
	})
}
