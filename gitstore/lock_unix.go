//go:build unix

package gitstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Lock takes the store's exclusive inter-process lock, an flock on
// <StateDir>/store.lock, waiting until it is free or ctx is done. Call unlock
// (safe to call more than once) to release it. The lock is per open file, so
// goroutines of one process exclude each other as well.
func (s *Store) Lock(ctx context.Context) (unlock func(), err error) {
	unlock, _, err = s.flock(ctx, "store.lock", true)
	if err != nil {
		return nil, fmt.Errorf("lock store: %w", err)
	}
	return unlock, nil
}

// LockNamed takes another lock of the repository, <StateDir>/NAME, as Lock
// takes the store's: for work that must not run twice at once but must
// never make a writer wait (the offline passes' model calls). Taking it
// twice in one process waits on itself.
func (s *Store) LockNamed(ctx context.Context, name string) (unlock func(), err error) {
	unlock, _, err = s.flock(ctx, name, true)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", name, err)
	}
	return unlock, nil
}

// TryLockNamed takes the lock NAME if it is free and reports false,
// without waiting, when another holder has it.
func (s *Store) TryLockNamed(name string) (unlock func(), ok bool, err error) {
	unlock, ok, err = s.flock(context.Background(), name, false)
	if err != nil {
		return nil, false, fmt.Errorf("lock %s: %w", name, err)
	}
	return unlock, ok, nil
}

// flock takes an flock on <StateDir>/name, waiting for it when wait is set.
func (s *Store) flock(ctx context.Context, name string, wait bool) (unlock func(), ok bool, err error) {
	dir := s.StateDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	fd := int(f.Fd())
	backoff := 500 * time.Microsecond
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, false, err
		}
		if !wait {
			f.Close()
			return nil, false, nil
		}
		// flock cannot be interrupted by a context, so poll with a capped,
		// jittered backoff.
		timer := time.NewTimer(backoff/2 + rand.N(backoff))
		select {
		case <-ctx.Done():
			timer.Stop()
			f.Close()
			return nil, false, ctx.Err()
		case <-timer.C:
		}
		backoff = min(2*backoff, 10*time.Millisecond)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			syscall.Flock(fd, syscall.LOCK_UN)
			f.Close()
		})
	}, true, nil
}
