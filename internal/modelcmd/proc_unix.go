//go:build unix

package modelcmd

import (
	"os/exec"
	"syscall"
)

// killGroup runs the command in its own process group and, on timeout, kills
// the whole group, so a model that spawned helpers leaves nothing behind.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
