package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mem-dev/mem/internal/install"
	"github.com/mem-dev/mem/internal/locate"
)

type installCmd struct {
	Agents  []string `help:"Agents to wire: claude, opencode, kimi, codex." default:"claude" sep:","`
	Capture bool     `help:"Also run mem capture at session end and before compaction."`
	DryRun  bool     `help:"Show the changes without writing them."`
}

func (c installCmd) Run(e *env) error {
	o, err := installOptions(e, c.Agents, c.Capture)
	if err != nil {
		return err
	}
	changes, err := install.Plan(o)
	if err != nil {
		return err
	}
	return applyChanges(e, changes, c.DryRun, "installed")
}

type uninstallCmd struct {
	Agents []string `help:"Also remove user-level configs of these agents (e.g. kimi's ~/.kimi/mcp.json)." default:"claude" sep:","`
	DryRun bool     `help:"Show the changes without writing them."`
}

func (c uninstallCmd) Run(e *env) error {
	o, err := installOptions(e, c.Agents, false)
	if err != nil {
		return err
	}
	changes, err := install.PlanUninstall(o)
	if err != nil {
		return err
	}
	return applyChanges(e, changes, c.DryRun, "removed")
}

func applyChanges(e *env, changes []install.Change, dryRun bool, verb string) error {
	if len(changes) == 0 {
		fmt.Fprintln(e.stdout, "nothing to change")
		return nil
	}
	if dryRun {
		for _, ch := range changes {
			fmt.Fprint(e.stdout, install.Diff(ch))
		}
		return nil
	}
	if err := install.Apply(changes); err != nil {
		return err
	}
	for _, ch := range changes {
		fmt.Fprintf(e.stdout, "%s %s: %s\n", verb, e.shown(ch.Path), ch.Why)
	}
	return nil
}

// installOptions opens the store and finds the binaries to wire in. The
// settings files are shared through git, so a binary that is on PATH is
// written by its bare name; only one that is not gets its absolute path.
// install.Plan checks the agents.
func installOptions(e *env, agents []string, capture bool) (install.Options, error) {
	r, err := e.open()
	if err != nil {
		return install.Options{}, err
	}
	return placeOptions(r.Place, agents, capture)
}

// placeOptions are the install options for a place, naming this mem binary
// and the mem-hook beside it.
func placeOptions(place locate.Place, agents []string, capture bool) (install.Options, error) {
	self, err := os.Executable()
	if err != nil {
		return install.Options{}, fmt.Errorf("find the mem binary: %w", err)
	}
	self, _ = filepath.EvalSymlinks(self)
	memBin := portable(self, "mem")
	hookBin := ""
	if sibling := filepath.Join(filepath.Dir(self), "mem-hook"); isExecutable(sibling) {
		hookBin = portable(sibling, "mem-hook")
	}
	home, _ := os.UserHomeDir()
	return install.Options{Place: place, Mem: memBin, Hook: hookBin, Agents: agents, Capture: capture, Home: home}, nil
}

// portable returns name when PATH finds the same file as abs, else abs.
func portable(abs, name string) string {
	found, err := exec.LookPath(name)
	if err != nil {
		return abs
	}
	if f, err := filepath.EvalSymlinks(found); err == nil && f == abs {
		return name
	}
	return abs
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
