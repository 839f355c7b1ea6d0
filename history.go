package mem

import (
	"context"

	"github.com/mem-dev/mem/gitstore"
)

// History lists the commits that changed the project memory ref names
// (Resolve), newest first (at most limit; all when limit <= 0), each with
// the memory's diff and the commit's trailers: who or what changed it, and
// why.
func (r *Repo) History(_ context.Context, ref string, limit int) ([]gitstore.Revision, error) {
	rel, err := r.findMemory(ref)
	if err != nil {
		return nil, err
	}
	return r.files.History(rel, limit)
}

// Forgotten returns the memories that `mem forget` set aside, sorted by
// slug: List leaves them out, and the index does not hold them.
func (r *Repo) Forgotten(_ context.Context) ([]Entry, []error, error) {
	return r.list(true)
}
