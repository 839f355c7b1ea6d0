package search

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/mdparse"
)

// loadStore reads every *.md memory under dir (MEMORY.md excepted,
// forgotten ones skipped) into Docs, as the product's indexer does
// (mdparse.Memory.Document).
func loadStore(t testing.TB, dir, store string) []Doc {
	t.Helper()
	var docs []Doc
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "MEMORY.md" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := mdparse.Parse(p, data)
		if err != nil || m.Status == "forgotten" {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		slug := strings.TrimSuffix(filepath.Base(p), ".md")
		docs = append(docs, m.Document(slug, filepath.ToSlash(filepath.Join(".claude/agent-memory", rel)), store))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

type battCase struct {
	ID, Prompt, Previous string
	Expect               []string
}

func loadBattery(t testing.TB, path string) []battCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []battCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c battCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	return cases
}

type metrics struct {
	hit1, hit2, silence, precision float64
	rank2                          float64 // hit@2 with the threshold ignored
	score                          int
}

// measure scores a battery like package eval does (which imports search, so
// these internal tests, which vary the ranking params, cannot use it). The
// product's own measure of the dev battery is eval's TestDevBattery.
func measure(ix *Index, cases []battCase, p *params) metrics {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	var m metrics
	var topical, h1, h2, quiet, silent, inj, rel int
	for _, c := range cases {
		q := ParseQuery(c.Prompt, c.Previous)
		res := ix.search(q, Options{Limit: MaxInjected, Now: now}, p)
		if len(c.Expect) > 0 {
			for i, r := range ix.search(q, Options{Limit: 2, Now: now, All: true}, p) {
				if slices.Contains(c.Expect, r.Slug) && i < 2 {
					m.rank2++
				}
			}
		}
		var got []string
		for _, r := range res {
			got = append(got, r.Slug)
			if slices.Contains(c.Expect, r.Slug) {
				rel++
			}
		}
		inj += len(got)
		expected := func(s string) bool { return slices.Contains(c.Expect, s) }
		if len(c.Expect) == 0 {
			silent++
			if len(got) == 0 {
				quiet++
				m.score++
			} else {
				m.score--
			}
		} else {
			topical++
			if len(got) > 0 && expected(got[0]) {
				h1++
			}
			if slices.ContainsFunc(got[:min(2, len(got))], expected) {
				h2++
				m.score++
			} else if len(got) > 0 && !slices.ContainsFunc(got, expected) {
				m.score--
			}
		}
	}
	m.hit1 = float64(h1) / float64(max(1, topical))
	m.hit2 = float64(h2) / float64(max(1, topical))
	m.rank2 /= float64(max(1, topical))
	m.silence = float64(quiet) / float64(max(1, silent))
	m.precision = 1
	if inj > 0 {
		m.precision = float64(rel) / float64(inj)
	}
	return m
}
