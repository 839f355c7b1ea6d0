//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// Flat reports whether the store's directory is known to hold no
// subdirectory: its link count is 2 (ext4, xfs and tmpfs count a
// directory's subdirectories in it; APFS counts every entry, so 2 is an
// empty one there). A filesystem that counts otherwise (btrfs: 1) is never
// taken for flat.
func (s *Store) Flat() bool {
	fi, err := os.Stat(s.Root)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 2
}
