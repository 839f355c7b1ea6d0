//go:build unix

package main

import "syscall"

// detached puts the child in its own session so it outlives the hook.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
