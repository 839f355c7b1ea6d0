//go:build !unix

package hooks

import (
	"errors"
	"os"
)

// lockClaims is not implemented on this platform: every claim acts.
func lockClaims(*os.File) error { return errors.New("claims: no file lock on this platform") }
