//go:build !unix

package gitstore

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

func processStart(pid int) string { return "-" }

// processAlive cannot tell here: every process is taken for alive, so no
// lock is ever removed as stale.
func processAlive(pid int, start string) bool { return true }

func detach(cmd *exec.Cmd) {}

func stopGroup(cmd *exec.Cmd) {}

// fileID names one version of a file: its size and modification time.
func fileID(fi os.FileInfo) string { return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano()) }

func gitsStartedBefore(workTree string, since time.Time) []int { return nil }
