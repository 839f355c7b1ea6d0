//go:build !unix

package hooks

import "syscall"

// detachedAttr has nothing to add where there are no sessions.
func detachedAttr() *syscall.SysProcAttr { return nil }
