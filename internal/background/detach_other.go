//go:build !unix

package background

import "syscall"

// detached has nothing to add where there are no sessions.
func detached() *syscall.SysProcAttr { return nil }
