package web

import (
	"testing"

	"github.com/mem-dev/mem/search"
)

// TestRowCacheFollowsTheIndex: the list's rows are kept while the index is
// the same and drawn again when it changed, whether the cache file was
// rewritten or a delta beside it was (the file itself then stays as it was).
func TestRowCacheFollowsTheIndex(t *testing.T) {
	doc := func(slug, name string) search.Doc {
		return search.Doc{Slug: slug, Path: ".claude/agent-memory/" + slug + ".md", Store: search.StoreProject, Name: name, Class: "fact"}
	}
	var s Server
	a := search.Build([]search.Doc{doc("a", "first"), doc("b", "second")})
	rows, _ := s.rows(a)
	again, _ := s.rows(a)
	if len(rows) != 2 || &again[0] != &rows[0] {
		t.Fatalf("the same index drew its rows again (%d rows)", len(rows))
	}
	b := search.Build([]search.Doc{doc("a", "first"), doc("b", "second, edited")})
	changed, _ := s.rows(b)
	if &changed[0] == &rows[0] {
		t.Fatal("a changed index kept the old rows")
	}
	names := map[string]bool{}
	for _, r := range changed {
		names[r.Name] = true
	}
	if !names["second, edited"] {
		t.Errorf("rows after the change: %+v", changed)
	}
}
