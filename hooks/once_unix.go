//go:build unix

package hooks

import (
	"os"
	"syscall"
)

// lockClaims takes an exclusive lock of the claims file f, released when f
// is closed.
func lockClaims(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
