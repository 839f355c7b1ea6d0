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
