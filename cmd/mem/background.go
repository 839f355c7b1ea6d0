package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/internal/modelcmd"
)

// startDetached starts this binary with args in a session of its own, for
// the given store, and returns at once: the process outlives the command or
// hook that started it, and its standard streams are /dev/null.
func startDetached(r *mem.Repo, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	full := append([]string{"--store", r.Place.Store, "-C", r.Place.WorkTree}, args...)
	cmd := exec.Command(self, full...)
	cmd.SysProcAttr = background.Detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", args[0], err)
	}
	return cmd.Process.Release()
}

// enrichAfterWrite is Repo.AfterWrite for the CLI and the MCP server: it
// marks the store as having memories to enrich and starts a detached
// `mem enrich --background`, which returns at once when one is already
// running (that one picks up the mark). Without a model it starts
// nothing: a process that can only fail would read the whole store after
// every write (400 ms of CPU at 500 memories), beside the writer; the
// daily sweep enriches once a model is there, and mem doctor says there is
// none. Failures go to the hook log, named after the command (cmd, e.g.
// "store") whose write it follows; that write has succeeded.
func enrichAfterWrite(r *mem.Repo, cmd string) func() {
	return func() {
		if background.Off() {
			return
		}
		if _, why := backgroundModel(); why != nil {
			return
		}
		err := r.RequestEnrich()
		if err == nil {
			err = startDetached(r, "enrich", "--background", "--after", cmd)
		}
		if err != nil {
			hookLog(r, "mem "+cmd+": start the background enrich: "+err.Error())
		}
	}
}

// hookLog appends one dated line to the hook log, where the hooks and the
// detached passes, which have no terminal, leave their errors for
// `mem doctor`.
func hookLog(r *mem.Repo, msg string) {
	logfile.AppendDated(filepath.Join(r.Place.StateDir(), logfile.HookErrors), time.Now(), msg)
}

// lockModel takes the repository's model lock for a pass run by hand,
// saying on stderr when it has to wait for another pass (a detached
// enrichment, a sweep) to finish. Without a model there is nothing to lock.
func lockModel(e *env, r *mem.Repo, m modelcmd.Asker) (unlock func(), err error) {
	if m == nil {
		return func() {}, nil
	}
	unlock, ok, err := r.TryLockModel()
	if err != nil || ok {
		return unlock, err
	}
	fmt.Fprintln(e.stderr, "mem: waiting for another model pass of this repository to finish")
	return r.LockModel(e.ctx)
}

// backgroundModel is the model for a detached pass: the configured one, or
// nil with the reason when none can run.
func backgroundModel() (modelcmd.Asker, error) {
	m := modelcmd.FromEnv()
	if err := m.Available(); err != nil {
		return nil, err
	}
	return m, nil
}
