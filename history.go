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

// Undo reverts one mem commit as a new commit.
func (r *Repo) Undo(ctx context.Context, ref string) (gitstore.Result, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return gitstore.Result{}, err
	}
	defer unlock()
	res, err := r.files.Undo(ctx, ref)
	if err != nil {
		return res, err
	}
	r.refreshLocked()
	return res, nil
}

// PendingWrites lists the writes whose files are in place and whose commit
// is still to be made (git was busy or failed), oldest first; the next
// write commits them.
func (r *Repo) PendingWrites() ([]gitstore.PendingWrite, error) {
	return r.files.Pending()
}

// Log lists mem's commits, newest first.
func (r *Repo) Log(ctx context.Context, limit int) ([]gitstore.Entry, error) {
	return r.files.Log(ctx, limit)
}
