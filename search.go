package mem

import (
	"context"

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
	q := search.ParseQuery(prompt, previous)
	if opt.Now.IsZero() {
		opt.Now = r.Now()
	}
	return ix.Search(q, opt), q, nil
}
