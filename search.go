package mem

import (
	"context"
	"time"

	"github.com/mem-dev/mem/search"
)

// Search answers a raw prompt the way the prompt hook does: the same query
// building, the same threshold (nothing when nothing clears it). previous
// is the assistant's last turn, which may refine the prompt's topic.
func (r *Repo) Search(ctx context.Context, prompt, previous string, opt search.Options) ([]search.Result, search.Query, error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return nil, search.Query{}, err
	}
	defer ix.Close() // results hold copies, not views of the mapped file
	q := search.ParseQuery(prompt, previous)
	if opt.Now.IsZero() {
		opt.Now = r.Now()
	}
	return ix.Search(q, opt), q, nil
}

// Hit is a search result as programs read it: `mem search --json` and the
// MCP tool context_query print the same objects.
type Hit struct {
	Slug     string    `json:"slug"`
	Path     string    `json:"path"`
	Store    string    `json:"store"`
	Name     string    `json:"name"`
	Class    string    `json:"class"`
	Score    float64   `json:"score"`
	Labels   []string  `json:"labels" jsonschema:"warnings such as \"superseded by SLUG\" or \"unverified: REASON\""`
	Modified time.Time `json:"modified,omitzero"`
	Line     int       `json:"line,omitempty" jsonschema:"the line the entry starts at, for a section of a MEMORY.md"`
	Snippet  string    `json:"snippet,omitempty"`
}

// Hits converts results, never returning nil (an empty search prints []).
func Hits(results []search.Result) []Hit {
	hits := make([]Hit, 0, len(results))
	for _, r := range results {
		labels := r.Labels
		if labels == nil {
			labels = []string{}
		}
		hits = append(hits, Hit{Slug: r.Slug, Path: r.Path, Store: r.Store, Name: r.Name, Class: r.Class,
			Score: r.Score, Labels: labels, Modified: r.Modified, Line: r.Line, Snippet: r.Snippet})
	}
	return hits
}
