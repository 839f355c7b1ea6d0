// Package gittest isolates a test binary's git commands from the
// machine's configuration.
package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// Main runs m's tests with HOME in a fresh temporary directory whose global
// git config holds gitconfig, no system config, and none of the variables
// that would give git an identity or point it at another repository (nor
// MEM_STORE); then it exits with the tests' status.
func Main(m *testing.M, gitconfig string) {
	home, err := os.MkdirTemp("", "mem-test-home-")
	if err != nil {
		panic(err)
	}
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, []byte(gitconfig), 0o644); err != nil {
		panic(err)
	}
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"EMAIL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "MEM_STORE", "CLAUDE_CONFIG_DIR"} {
		os.Unsetenv(k)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", global)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}
