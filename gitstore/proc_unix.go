//go:build unix

package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mem-dev/mem/internal/locate"
)

// processStart names the start of process pid, so that a pid reused by a
// later process is not taken for the one that wrote a lock: the start time
// in clock ticks since boot from /proc (Linux), "-" where there is none.
func processStart(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "-"
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return "-"
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 {
		return "-"
	}
	return f[19] // field 22, starttime
}

// processAlive reports whether pid is a live process started at start (as
// processStart gave it; "-" matches any). A process that exists but that
// mem may not signal is alive.
func processAlive(pid int, start string) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if start == "-" || start == "" {
		return true
	}
	now := processStart(pid)
	return now == "-" || now == start
}

// detach makes cmd a git child that finishes its work whatever happens to
// mem: it runs in a process group of its own, so a kill of mem's group
// (Ctrl-C, a timeout, kill -9 -PGID) does not stop it holding git's locks,
// and when mem's context ends it is asked to stop with SIGTERM, on which git
// removes its lock files, not killed outright.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
}

// stopGroup makes a cancelled cmd stop its whole process group, the
// programs git started included (a signing program waiting on a
// passphrase), not git alone.
func stopGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = time.Second
}

// fileID names one version of a file: device, inode and modification time.
func fileID(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
	}
	return fmt.Sprintf("%d:%d:%d", st.Dev, st.Ino, fi.ModTime().UnixNano())
}

// gitsStartedBefore lists the git processes whose working directory lies in
// workTree and that started before since (to the clock tick): the ones that
// may have read the index before mem changed it. Where there is no /proc it
// lists none.
func gitsStartedBefore(workTree string, since time.Time) []int {
	uptime, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return nil
	}
	up, err := strconv.ParseFloat(strings.Fields(string(uptime))[0], 64)
	if err != nil {
		return nil
	}
	// Ticks since boot at since; /proc counts start times in 1/100 s on Linux.
	sinceTicks := int64((up-time.Since(since).Seconds())*100) + 1
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil
	}
	self := strconv.Itoa(os.Getpid())
	root := []byte(filepath.Clean(workTree))
	var pids []int
	var link [4096]byte
	var argv [256]byte
	for _, name := range names {
		if name == self || name == "" || name[0] < '0' || name[0] > '9' {
			continue
		}
		// This runs for every process of the machine (hundreds on a
		// desktop) after each commit, with bare system calls: the working
		// directory first, one readlink that rules out almost all of
		// them, where reading a command line means reading the process's
		// memory (at 500 processes the scan took 5 ms that way, 2 ms
		// this way).
		n, err := syscall.Readlink("/proc/"+name+"/cwd", link[:])
		// A prefix of bytes first, which allocates nothing; Within decides.
		if err != nil || !bytes.HasPrefix(link[:n], root) || !locate.Within(workTree, string(link[:n])) {
			continue
		}
		argv0, _, _ := bytes.Cut(readStart("/proc/"+name+"/cmdline", argv[:]), []byte{0})
		if string(argv0) != "git" && !bytes.HasSuffix(argv0, []byte("/git")) {
			continue
		}
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if start, err := strconv.ParseInt(processStart(pid), 10, 64); err == nil && start <= sinceTicks {
			pids = append(pids, pid)
		}
	}
	return pids
}

// readStart reads the first len(buf) bytes of the file at path into buf,
// nothing when it cannot.
func readStart(path string, buf []byte) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	n, err := syscall.Read(fd, buf)
	if err != nil || n < 0 {
		return nil
	}
	return buf[:n]
}
