//go:build unix

package background

import "syscall"

// detached puts the child in its own session.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
