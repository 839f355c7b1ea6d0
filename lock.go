package mem

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// How long a command waits for the store's lock: it says it waits after
// lockNotice, and gives up after lockTimeout (MEM_LOCK_TIMEOUT, a Go
// duration such as 90s, overrides it). A write holds the lock for
// milliseconds and a pass only while it applies its decisions, so a lock
// held past the timeout is a stuck process, not a queue.
const (
	lockNotice         = time.Second
	defaultLockTimeout = 30 * time.Second
)

// ErrBusy means another process holds the store's lock and the caller
// asked not to wait (TryIndex).
var ErrBusy = errors.New("another mem process holds the store's lock")

// LockedError is a lock waited for until the timeout.
type LockedError struct {
	Path string        // the lock file, as a person finds it
	Held time.Duration // how long it was waited for
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another process has held the store lock %s for %s: a long pass or a stuck process (`fuser %s` names it); try again once it is done", e.Path, e.Held, e.Path)
}

func lockTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("MEM_LOCK_TIMEOUT")); err == nil && d > 0 {
		return d
	}
	return defaultLockTimeout
}

// lock takes the store's lock for a command. One that cannot have it at
// once says so through Waiting after lockNotice, and gives up with a
// *LockedError after lockTimeout: a writer never waits for ever in
// silence behind a stuck process.
func (r *Repo) lock(ctx context.Context) (unlock func(), err error) {
	timeout := lockTimeout()
	first, cancel := context.WithTimeout(ctx, min(lockNotice, timeout))
	unlock, err = r.files.Lock(first)
	cancel()
	if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return unlock, err
	}
	path := r.lockPath()
	if timeout > lockNotice {
		if r.Waiting != nil {
			r.Waiting(fmt.Sprintf("waiting for the store lock %s, held by another process (giving up after %s)", path, timeout))
		}
		rest, cancel := context.WithTimeout(ctx, timeout-lockNotice)
		defer cancel()
		unlock, err = r.files.Lock(rest)
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return unlock, err
		}
	}
	return nil, &LockedError{Path: path, Held: timeout}
}

// tryLock takes the store's lock only if it is free, else returns ErrBusy.
func (r *Repo) tryLock(ctx context.Context) (unlock func(), err error) {
	done, cancel := context.WithCancel(ctx)
	cancel() // one attempt, no wait
	unlock, err = r.files.Lock(done)
	if errors.Is(err, context.Canceled) && ctx.Err() == nil {
		return nil, ErrBusy
	}
	return unlock, err
}

// lockPath is the store's lock file as a person finds it.
func (r *Repo) lockPath() string {
	return r.Place.Rel(filepath.Join(r.files.StateDir(), "store.lock"))
}
