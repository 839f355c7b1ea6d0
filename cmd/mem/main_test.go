package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mem-dev/mem/internal/shared"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mem":        func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"fake-model": func() { os.Exit(fakeModel()) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: the real mem
// binary (this test binary, re-executed) against real git repositories in
// temporary directories.
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
			e.Setenv("SHARED", shared.Path())
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "shared" {
				_, err := os.Stat(shared.Path())
				return err == nil, nil
			}
			return false, nil
		},
	})
}
