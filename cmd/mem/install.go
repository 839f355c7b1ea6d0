package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/install"
	"github.com/mem-dev/mem/internal/locate"
)

type installCmd struct {
	Agents  []string `help:"Agents to wire: claude, opencode, kimi, codex." default:"claude" sep:","`
	Capture bool     `help:"Also run mem capture at session end and before compaction."`
	MCP     bool     `help:"Also register mem's MCP server for Claude Code (.mcp.json). Claude Code charges every such server about 120 ms a session; its hooks and CLAUDE.md's rules use the mem command without it."`
	User    bool     `help:"Install Claude Code's hooks for you, in every directory of every repository (they act where a store is), instead of in this repository."`
	Local   bool     `help:"Install Claude Code's hooks for you in this repository only, in every directory of it: in .claude/settings.local.json, kept out of git."`
	DryRun  bool     `help:"Show the changes without writing them."`
}

func (c installCmd) Run(e *env) error {
	o, err := installOptions(e, c.Agents, c.Capture, c.User, c.Local)
	if err != nil {
		return err
	}
	o.MCP = c.MCP
	changes, err := install.Plan(o)
	if err != nil {
		return err
	}
	if err := applyChanges(e, changes, c.DryRun, "installed"); err != nil || c.DryRun {
		return err
	}
	if !c.User {
		if p, ok := install.StoreIgnored(o.Place); ok {
			note(e, p)
		}
		// The team gets mem from these files once they are committed,
		// which is the person's to do.
		unshared, share, err := install.Unshared(o, changes)
		if err != nil {
			return err
		}
		if len(unshared) > 0 {
			fmt.Fprintf(e.stdout, "not committed yet, for the team: %s\n", strings.Join(unshared, " "))
			fmt.Fprintf(e.stdout, "to share them: %s\n", share)
		}
	}
	// The hooks find mem on PATH: say so when they will not.
	if _, err := exec.LookPath("mem"); err != nil {
		fmt.Fprintf(e.stderr, "mem: hint: mem is not on PATH, so the hooks and the MCP server do nothing yet; %s\n", install.HookPath(o).Hint(o.Mem))
	}
	if !c.User && !c.Local && slices.Contains(o.Agents, install.Claude) && !install.UserCovered() {
		fmt.Fprintln(e.stderr, "mem: hint: Claude Code started in a subdirectory reads no hooks from this repository's settings.json; `mem install --local` runs them from any directory of it for you, `mem install --user` (or mem's plugin) from any directory of any repository")
	}
	return nil
}

type uninstallCmd struct {
	Agents []string `help:"Also remove user-level configs of these agents (e.g. kimi's ~/.kimi/mcp.json)." default:"claude" sep:","`
	User   bool     `help:"Remove the hooks of mem install --user from your Claude Code settings."`
	Local  bool     `help:"Remove the hooks of mem install --local from this repository's .claude/settings.local.json."`
	DryRun bool     `help:"Show the changes without writing them."`
}

func (c uninstallCmd) Run(e *env) error {
	o, err := installOptions(e, c.Agents, false, c.User, c.Local)
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
		v := verb
		if verb == "removed" && ch.After != nil {
			v = "edited" // mem's part of it is gone, the file stays
		}
		fmt.Fprintf(e.stdout, "%s %s: %s\n", v, e.shown(ch.Path), ch.Why)
	}
	return nil
}

// installOptions opens the store and finds the binaries to wire in. The
// settings files are shared through git, so a binary that is on PATH is
// written by its bare name; only one that is not gets its absolute path.
// install.Plan checks the agents.
func installOptions(e *env, agents []string, capture, user, local bool) (install.Options, error) {
	if user {
		o, err := placeOptions(locate.Place{}, []string{install.Claude}, capture)
		o.User, o.Local = true, local
		return o, err
	}
	r, err := e.open()
	if err != nil {
		return install.Options{}, err
	}
	if local {
		agents = []string{install.Claude}
	}
	o, err := placeOptions(r.Place, agents, capture)
	o.Local = local
	return o, err
}

// placeOptions are the install options for a place, naming this mem binary
// for the files of this machine.
func placeOptions(place locate.Place, agents []string, capture bool) (install.Options, error) {
	self, err := os.Executable()
	if err != nil {
		return install.Options{}, fmt.Errorf("find the mem binary: %w", err)
	}
	self, _ = filepath.EvalSymlinks(self)
	home, _ := os.UserHomeDir()
	return install.Options{Place: place, Mem: portable(self, "mem"), Agents: agents, Capture: capture, Home: home}, nil
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
