package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistory lists the commits that changed one file, mem's and a
// person's, newest first, each with that file's diff alone.
func TestHistory(t *testing.T) {
	repo, s := newRepo(t)
	ctx := context.Background()
	apply := func(changes []Change, info CommitInfo) {
		t.Helper()
		unlock, err := s.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
		if _, err := s.Apply(ctx, changes, info); err != nil {
			t.Fatal(err)
		}
	}
	apply([]Change{{Path: "a.md", Data: []byte("one\n")}, {Path: "b.md", Data: []byte("b\n")}}, CommitInfo{Action: "store", Slug: "a"})
	apply([]Change{{Path: "b.md", Data: []byte("b2\n")}}, CommitInfo{Action: "store", Slug: "b"})
	write(t, filepath.Join(s.Root, "a.md"), "two\n")
	run(t, repo, "commit", "-q", "-am", "a person's edit")
	apply([]Change{{Path: "a.md", Data: []byte("three\n")}}, CommitInfo{Action: "enrich", Slug: "a", Trailers: []Trailer{{Key: "Mem-Reason", Value: "aliases"}}})

	revs, err := s.History("a.md", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 3 {
		t.Fatalf("got %d revisions, want 3: %+v", len(revs), revs)
	}
	if revs[0].Action != "enrich" || revs[1].Action != "" || revs[1].Subject != "a person's edit" || revs[2].Action != "store" {
		t.Errorf("revisions = %q %q %q", revs[0].Action, revs[1].Subject, revs[2].Action)
	}
	if !strings.Contains(revs[0].Diff, "-two\n+three") || strings.Contains(revs[2].Diff, "b.md") || !strings.Contains(revs[2].Diff, "+one") {
		t.Errorf("diffs:\n%s\n---\n%s", revs[0].Diff, revs[2].Diff)
	}
	if len(revs[0].Trailers) == 0 || revs[0].Trailers[len(revs[0].Trailers)-1].Value != "aliases" {
		t.Errorf("trailers = %+v", revs[0].Trailers)
	}
	if revs, _ := s.History("a.md", 1); len(revs) != 1 {
		t.Errorf("limit 1 gave %d", len(revs))
	}
	if _, err := s.History("../README", 0); !errors.Is(err, ErrEscape) {
		t.Errorf("history outside the store: %v", err)
	}
}

// TestPrecondition: a write whose precondition fails writes nothing.
func TestPrecondition(t *testing.T) {
	_, s := newRepo(t)
	stale := errors.New("stale")
	ctx := WithPrecondition(context.Background(), func() error { return stale })
	unlock, err := s.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := s.Apply(ctx, []Change{{Path: "a.md", Data: []byte("x\n")}}, CommitInfo{Action: "store", Slug: "a"}); !errors.Is(err, stale) {
		t.Fatalf("Apply: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Root, "a.md")); err == nil {
		t.Error("a refused write wrote the file")
	}
	ok := WithPrecondition(context.Background(), func() error { return nil })
	if res, err := s.Apply(ok, []Change{{Path: "a.md", Data: []byte("x\n")}}, CommitInfo{Action: "store", Slug: "a"}); err != nil || !res.Committed {
		t.Fatalf("Apply: %+v %v", res, err)
	}
}
