package mem_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/search"
)

// write puts a file in the store by hand, as an editor or an agent would.
func write(t *testing.T, r *mem.Repo, rel, data string) string {
	t.Helper()
	p := filepath.Join(r.Place.Store, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// docsOf are the index's entries as "slug: name", sorted.
func docsOf(t *testing.T, ix *search.Index) []string {
	t.Helper()
	var out []string
	for _, d := range ix.Docs() {
		out = append(out, d.Slug+": "+d.Name+" | "+d.Body)
	}
	ix.Close()
	slices.Sort(out)
	return out
}

// TestRefreshMatchesRebuild: after edits by hand of every kind (in place,
// added, deleted, in a subdirectory, a catalog's sections, a memory that no
// longer parses), the refreshed index holds what a rebuild from the files
// holds, and mem list lists what the files say.
func TestRefreshMatchesRebuild(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	for _, n := range []string{"Spanish VAT rounds per line", "Deploys wait for Monday", "Postgres listens on 5433", "Staging uses the blue cluster"} {
		store(t, r, mem.Note{Name: n, Body: n + ", as the team agreed."})
	}
	write(t, r, "MEMORY.md", "# Index\n\n## Notes\n- the on-call rota lives in the wiki\n")
	write(t, r, "PROFILE.md", "# Profile\n\n- Prefers short answers\n")
	list := func() []string {
		entries, bad, err := r.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Slug+" "+e.Class+" "+e.Name)
		}
		for _, b := range bad {
			out = append(out, "bad "+filepath.Base(strings.SplitN(b.Error(), ":", 2)[0]))
		}
		return out
	}
	check := func(step string) {
		t.Helper()
		ix, err := r.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := docsOf(t, ix)
		ix, err = r.Rebuild(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := docsOf(t, ix); !slices.Equal(got, want) {
			t.Errorf("%s: refreshed index\n%q\nrebuilt\n%q", step, got, want)
		}
	}
	check("stored")
	edits := []struct {
		step string
		do   func()
		list []string
	}{
		{"edited in place", func() {
			write(t, r, "deploys-wait-for-monday.md", "---\nname: Deploys wait for Tuesday\nclass: rule\n---\nNothing ships before Tuesday now.\n")
		}, nil},
		{"added in a subdirectory", func() {
			write(t, r, "reviewer/flaky-tests.md", "---\nname: Flaky tests retry twice\nclass: gotcha\n---\nCI retries a flaky test twice.\n")
		}, nil},
		{"a catalog's notes grow", func() {
			write(t, r, "MEMORY.md", "# Index\n\n## Notes\n- the on-call rota lives in the wiki\n\n## More\n- releases are tagged vYYYY.MM\n")
		}, nil},
		{"deleted", func() { os.Remove(filepath.Join(r.Place.Store, "staging-uses-the-blue-cluster.md")) }, nil},
		{"forgotten by hand", func() {
			write(t, r, "postgres-listens-on-5433.md", "---\nname: Postgres listens on 5433\nstatus: forgotten\n---\nPostgres listens on 5433.\n")
		}, nil},
		{"broken", func() { write(t, r, "spanish-vat-rounds-per-line.md", "---\nname: unclosed\n") }, []string{
			"deploys-wait-for-monday rule Deploys wait for Tuesday",
			"flaky-tests gotcha Flaky tests retry twice",
			"spanish-vat-rounds-per-line fact unclosed", // listed as far as it reads
			"bad spanish-vat-rounds-per-line.md",
		}},
	}
	for _, e := range edits {
		e.do()
		check(e.step)
		if e.list != nil {
			if got := list(); !slices.Equal(got, e.list) {
				t.Errorf("%s: mem list\n%q\nwant\n%q", e.step, got, e.list)
			}
		}
	}
	// From a cache that List's own refresh writes, the same.
	os.Remove(r.Place.IndexPath())
	if got, want := list(), edits[len(edits)-1].list; !slices.Equal(got, want) {
		t.Errorf("listed from a new cache:\n%q\nwant\n%q", got, want)
	}
}

// TestRefreshMarked: the hook's refresh (TryIndex) stats only the files the stale
// marker names; without a marker, or when the named files are unchanged,
// it checks every file.
func TestRefreshMarked(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	store(t, r, mem.Note{Name: "Deploys wait for Monday", Body: "Nothing ships on a Friday."})
	store(t, r, mem.Note{Name: "Postgres listens on 5433", Body: "docker compose maps it."})
	body := func(ix *search.Index, slug string) string {
		defer ix.Close()
		for _, d := range ix.Docs() {
			if d.Slug == slug {
				return d.Body
			}
		}
		return ""
	}
	// An edit in place that keeps the directory's stamp, announced.
	old := time.Now().Add(-time.Hour)
	p := write(t, r, "deploys-wait-for-monday.md", "---\nname: Deploys wait for Monday\n---\nNothing ships on a Thursday.\n")
	os.Chtimes(p, old, old)
	os.Chtimes(r.Place.Store, old, old)
	if err := search.MarkStale(r.Place.StateDir(), p); err != nil {
		t.Fatal(err)
	}
	ix, err := r.TryIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if b := body(ix, "deploys-wait-for-monday"); !strings.Contains(b, "Thursday") {
		t.Errorf("the marked file was not refreshed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(r.Place.StateDir(), search.StaleMarker)); err == nil {
		t.Error("the marker is still there")
	}
	// An unannounced edit, the marker naming another file: every file is
	// checked, since the named one did not change.
	p = write(t, r, "postgres-listens-on-5433.md", "---\nname: Postgres listens on 5433\n---\npgbouncer sits in front, on 6432.\n")
	os.Chtimes(p, old.Add(time.Minute), old.Add(time.Minute))
	os.Chtimes(r.Place.Store, old, old)
	search.MarkStale(r.Place.StateDir(), filepath.Join(r.Place.Store, "deploys-wait-for-monday.md"))
	if ix, err = r.TryIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if b := body(ix, "postgres-listens-on-5433"); !strings.Contains(b, "pgbouncer") {
		t.Errorf("an unannounced edit was missed: %q", b)
	}
}
