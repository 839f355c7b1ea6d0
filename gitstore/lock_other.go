//go:build !unix

package gitstore

import (
	"context"
	"errors"
)

// Lock is not implemented on this platform.
func (s *Store) Lock(ctx context.Context) (unlock func(), err error) {
	return nil, errors.New("lock store: not supported on this platform")
}

// LockNamed is not implemented on this platform.
func (s *Store) LockNamed(ctx context.Context, name string) (unlock func(), err error) {
	return nil, errors.New("lock " + name + ": not supported on this platform")
}

// TryLockNamed is not implemented on this platform.
func (s *Store) TryLockNamed(name string) (unlock func(), ok bool, err error) {
	return nil, false, errors.New("lock " + name + ": not supported on this platform")
}
