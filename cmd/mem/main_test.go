package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mem-dev/mem/hooks"
	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/shareddata"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mem":        func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"mem-hook":   func() { os.Exit(hooks.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"fake-model": func() { os.Exit(fakeModel()) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: the real mem
// and mem-hook binaries (this test binary, copied beside itself under both
// names and re-executed, so mem-hook finds mem next to it as installed)
// against real git repositories in temporary directories.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(e *testscript.Env) error {
			// A machine's global git config must not leak into the scripts.
			e.Setenv("HOME", e.WorkDir)
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			e.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(e.WorkDir, ".gitconfig"))
			e.Setenv("MEM_STORE", "")
			// No script reaches a real model: passes use fake-model or --no-model.
			e.Setenv("MEM_MODEL_CMD", "fake-model")
			// Nothing runs detached unless a script asks for it: a pass in
			// the background would race the script's own checks.
			e.Setenv(background.Env, "off")
			e.Setenv("SHARED", shareddata.Path())
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitfile":       waitFile,
			"waitbackground": waitBackground,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "shared" {
				_, err := os.Stat(shareddata.Path())
				return err == nil, nil
			}
			return false, nil
		},
	})
}

// waitFile waits for a file to exist: `waitfile PATH`. It gives up, failing
// the script, after a minute.
func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	ts.Fatalf("%s did not appear in a minute", args[0])
}

// waitBackground waits until the detached passes of a repository are done:
// `waitbackground GITDIR/mem` returns once no enrichment is asked for
// (enrich-*.pending) and none holds its lock, nor the sweep or learning
// theirs, nor anyone the model lock. It gives up after a minute.
func waitBackground(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitbackground STATEDIR")
	}
	dir := ts.MkAbs(args[0])
	busy := func() bool {
		if pending, _ := filepath.Glob(filepath.Join(dir, "*.pending")); len(pending) > 0 {
			return true
		}
		locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
		for _, l := range locks {
			if filepath.Base(l) == "store.lock" {
				continue
			}
			f, err := os.Open(l)
			if err != nil {
				continue
			}
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			f.Close() // releases it
			if err != nil {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !busy() {
			return
		}
	}
	ts.Fatalf("the detached passes in %s did not finish in a minute", args[0])
}
