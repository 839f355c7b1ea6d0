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
	dir := s.StateDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock store: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "store.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock store: %w", err)
	}
	fd := int(f.Fd())
	wait := 500 * time.Microsecond
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
			return nil, fmt.Errorf("lock store: %w", err)
		}
		// flock cannot be interrupted by a context, so poll with a capped,
		// jittered backoff.
		timer := time.NewTimer(wait/2 + rand.N(wait))
		select {
		case <-ctx.Done():
			timer.Stop()
			f.Close()
			return nil, fmt.Errorf("lock store: %w", ctx.Err())
		case <-timer.C:
		}
		wait = min(2*wait, 10*time.Millisecond)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			syscall.Flock(fd, syscall.LOCK_UN)
			f.Close()
		})
	}, nil
}
