package gitstore

import (
	"context"
	"errors"
)

// ErrStale means a write was refused because what it was decided on has
// changed since: a form drawn from files that another writer has rewritten.
var ErrStale = errors.New("changed since it was read")

type preconditionKey struct{}

// WithPrecondition returns a context whose writes first run check. Apply
// (and so Undo) calls it before writing anything, while the caller holds
// Lock, so a check that compares files with what a person saw cannot race
// another writer; an error from it fails the write and nothing is written.
// It lets a caller that decides outside the lock (a web form, drawn minutes
// earlier) refuse to act on a stale view, whichever verb does the write.
func WithPrecondition(ctx context.Context, check func() error) context.Context {
	return context.WithValue(ctx, preconditionKey{}, check)
}

func precondition(ctx context.Context) error {
	if check, ok := ctx.Value(preconditionKey{}).(func() error); ok && check != nil {
		return check()
	}
	return nil
}
