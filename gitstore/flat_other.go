//go:build !unix

package gitstore

// Flat cannot tell here: no store is taken for flat.
func (s *Store) Flat() bool { return false }
