//go:build !unix

package modelcmd

import "os/exec"

// killGroup is a no-op where process groups are not available: the command
// itself is killed on timeout, and WaitDelay bounds the wait for its pipes.
func killGroup(cmd *exec.Cmd) {}
