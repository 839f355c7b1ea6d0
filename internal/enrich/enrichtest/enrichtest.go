// Package enrichtest enriches a copy of a memory store from a cassette of a
// real model's answers, for the tests that measure retrieval on enriched
// stores. It writes what `mem enrich` writes (the same batches, prompts and
// filter) into the files, without the commits, which a measurement does
// not need and which cost seconds per store.
package enrichtest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
)

// Cassette returns the cassette of enrich answers (shareddata.EnrichCassette).
func Cassette(tb testing.TB) *modeltest.Cassette {
	tb.Helper()
	path, err := shareddata.EnrichCassette()
	if err != nil {
		tb.Fatal(err)
	}
	return load(tb, path)
}

// SecondCassette returns a second recording of answers to the same prompts
// (shareddata.SecondEnrichCassette): one draw of a model's aliases moves the
// dev battery's figures by up to three prompts, so a figure that holds on
// one recording and not on the other was luck. It skips the test while
// MEM_ENRICH_CASSETTE names a recording of other prompts.
func SecondCassette(tb testing.TB) *modeltest.Cassette {
	tb.Helper()
	path, ok := shareddata.SecondEnrichCassette()
	if !ok {
		tb.Skipf("skipping: %s names another recording; the second recording answers the shipped enrich prompt", shareddata.EnrichCassetteEnv)
	}
	return load(tb, path)
}

func load(tb testing.TB, path string) *modeltest.Cassette {
	tb.Helper()
	c, err := modeltest.LoadCassette(path)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Enrich writes aliases into every current memory of the store at dir that
// has none, as `mem enrich` does, answering from c. It skips the test when c
// holds no answer for a prompt: the enrich prompt changed since c was
// recorded, and the enriched figures cannot be measured until it is
// recorded again (set MEM_ENRICH_CASSETTE to a new recording).
func Enrich(tb testing.TB, c *modeltest.Cassette, dir string) {
	tb.Helper()
	var all []enrich.Note
	var todo []string
	paths := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		if rel, _ := filepath.Rel(dir, p); d.Name() == "MEMORY.md" || rel == "PROFILE.md" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := mdparse.Parse(p, data)
		if err != nil || m.Status == mdparse.StatusForgotten || m.SupersededBy != "" {
			return nil
		}
		slug := strings.TrimSuffix(d.Name(), ".md")
		all = append(all, enrich.Note{Slug: slug, Memory: m})
		paths[slug] = p
		if len(m.Aliases) == 0 {
			todo = append(todo, slug)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(all, func(a, b enrich.Note) int { return strings.Compare(a.Slug, b.Slug) })
	for _, b := range enrich.Plan(all, todo) {
		res, err := enrich.Ask(context.Background(), c, b)
		if errors.Is(err, modeltest.ErrNotRecorded) {
			tb.Skipf("skipping: the cassette was recorded for another enrich prompt (set %s to a recording of this one)", shareddata.EnrichCassetteEnv)
		}
		if err != nil {
			tb.Fatal(err)
		}
		for _, n := range b.Targets {
			if kept := res[n.Slug].Kept; len(kept) > 0 {
				if err := n.Memory.Set(mdparse.KeyAliases, kept); err != nil {
					tb.Fatal(err)
				}
				if err := os.WriteFile(paths[n.Slug], n.Memory.Bytes(), 0o644); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
}
