package mem

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/capture"
	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/internal/model"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Captured is what a capture run wrote and what it passed over.
type Captured struct {
	Written []Written         `json:"written"`
	Skipped []capture.Skipped `json:"skipped"`
}

// Capture asks the model what a session decided or learned, skips what the
// store already holds, and stores at most max memories, one commit each.
func (r *Repo) Capture(ctx context.Context, a model.Asker, transcriptPath string, max int) (Captured, error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return Captured{}, err
	}
	defer ix.Close()
	held := func(query string) (string, float64) {
		res := ix.Search(search.ParseQuery(query, ""), search.Options{Limit: 1, All: true, Now: r.Now()})
		if len(res) == 0 {
			return "", 0
		}
		return res[0].Slug, res[0].Score
	}
	keep, skipped, err := capture.Propose(ctx, a, transcriptPath, held, max)
	if err != nil {
		return Captured{Skipped: skipped}, err
	}
	out := Captured{Skipped: skipped}
	for _, p := range keep {
		w, err := r.Store(ctx, Note{
			Name: p.Name, Description: p.Description, Class: p.Class, Importance: p.Importance,
			Tags: p.Tags, Body: p.Text(), Action: "capture",
		})
		var sec *secrets.Error
		switch {
		case errors.Is(err, ErrExists), errors.As(err, &sec):
			out.Skipped = append(out.Skipped, capture.Skipped{Proposal: p, Reason: err.Error()})
			continue
		case err != nil:
			return out, err
		}
		out.Written = append(out.Written, w)
	}
	return out, nil
}

// Enriched is one memory's new aliases.
type Enriched struct {
	Slug    string            `json:"slug"`
	Aliases []string          `json:"aliases"`
	Dropped map[string]string `json:"dropped,omitempty"`
	Commit  string            `json:"commit,omitempty"`
}

// Enrich writes `aliases:` (the words a person would type when they need a
// memory) on the named memories, or on every current memory that has none
// (all of them with force), one commit per memory.
func (r *Repo) Enrich(ctx context.Context, a model.Asker, slugs []string, force bool, progress func(done, total int)) ([]Enriched, error) {
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	mems, paths, err := r.memories(nil)
	if err != nil {
		return nil, err
	}
	for _, s := range slugs {
		if mems[strings.TrimSuffix(s, ".md")] == nil {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, s)
		}
	}
	var todo []string
	var all []enrich.Note
	for slug, m := range mems {
		asked := slices.Contains(slugs, slug) || slices.Contains(slugs, slug+".md")
		if asked || len(slugs) == 0 && (force || len(m.Aliases) == 0) && m.SupersededBy == "" {
			todo = append(todo, slug)
		}
		if m.SupersededBy == "" || asked {
			all = append(all, enrich.Note{Slug: slug, Memory: m})
		}
	}
	sort.Strings(todo)
	sort.Slice(all, func(i, j int) bool { return all[i].Slug < all[j].Slug })
	var out []Enriched
	defer r.refreshLocked()
	done := 0
	for _, b := range enrich.Plan(all, todo) {
		if progress != nil {
			progress(done, len(todo))
		}
		results, err := enrich.Ask(ctx, a, b)
		if err != nil {
			return out, err
		}
		for _, n := range b.Targets {
			done++
			res := results[n.Slug]
			if err := secrets.Check(n.Slug+" aliases", strings.Join(res.Kept, "\n")); err != nil {
				return out, err
			}
			e := Enriched{Slug: n.Slug, Aliases: res.Kept, Dropped: res.Dropped}
			if len(res.Kept) > 0 {
				if err := n.Memory.Set(mdparse.KeyAliases, res.Kept); err != nil {
					return out, err
				}
				c, err := r.files.Apply(ctx, []gitstore.Change{{Path: paths[n.Slug], Data: n.Memory.Bytes()}},
					gitstore.CommitInfo{Action: "enrich", Slug: n.Slug})
				if err != nil {
					return out, err
				}
				e.Commit = c.Commit
			}
			out = append(out, e)
		}
	}
	if progress != nil {
		progress(len(todo), len(todo))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out, nil
}
