//go:build unix

package hooks

import "syscall"

// detachedAttr puts a child in its own session so it outlives the hook.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
