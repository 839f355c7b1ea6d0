// Package install wires mem into a repository and the coding agents that
// work in it, and takes it out again.
//
// Install is planned, then applied: Plan and PlanUninstall read the files
// and return the changes as whole-file contents (before and after), write
// nothing, and can be shown with Diff for a dry run; Apply writes them.
//
// # What install writes
//
//   - .claude/settings.json (agent claude): hooks UserPromptSubmit (prompt),
//     Stop (gate), PostToolUse on Edit|Write|MultiEdit (post-tool) and
//     SessionStart (session-start); with Capture also SessionEnd and
//     PreCompact (capture --detach). Each command runs mem-hook or mem from
//     PATH and does nothing when neither is there (HookCommand), so the file
//     can be committed for a team. Other keys and hooks are left byte for
//     byte as they were. With User, the same hooks go to the user's
//     settings.json instead, and nothing else is written; with Local, to
//     .claude/settings.local.json, with a line of <common git dir>/info/exclude
//     keeping it out of git when nothing else does.
//   - The git pre-commit hook, in core.hooksPath when it is set and in
//     <common git dir>/hooks otherwise. A hook that was there before is kept
//     as pre-commit.mem-chained and runs first; its failure stops the commit.
//   - MCP server "mem" (running "mem mcp"): opencode.json (opencode), and
//     with MCP .mcp.json (claude), shared, by the bare name;
//     ~/.kimi/mcp.json (kimi) and ~/.codex/config.toml (codex), the
//     person's own, by the binary's path when it is not on PATH; next to any
//     other servers. Claude Code gets it only when asked: its hooks and
//     CLAUDE.md's rules use the mem command, and Claude Code charges every
//     stdio server a session about 120 ms (bench/session.sh), connecting to
//     it and then waiting for it to exit. Uninstall removes it either way.
//   - Two lines telling the agent to search memory before exploring and to
//     store what it learned: in CLAUDE.md (claude) and AGENTS.md (opencode,
//     kimi, codex).
//   - The MEMORY.md merge driver: a .gitattributes line routing the store's
//     MEMORY.md files to merge=mem-memory-index, and the driver itself in
//     <common git dir>/config.
//
// # Invariants
//
// Running install twice changes nothing the second time. Uninstall removes
// exactly what install added: a file install created is deleted, a file it
// edited gets back its bytes from before, provided nobody edited the same
// spot in between. Install recognises its own work without keeping state:
// JSON entries by the command they run (a binary named mem or mem-hook, so
// a moved binary is updated rather than duplicated), text by marker
// comments ("# >>> mem" … "# <<< mem", or the same inside "<!-- -->"), and
// the pre-commit hook by its header. Files are written atomically
// (temp file, fsync, rename) and keep their mode.
//
// Two limits of the state-free design: a JSON file left with nothing but
// "{}" once mem's entries are gone is deleted, even if it was "{}" before
// install; and an empty object or array that held only mem's entry goes
// with it.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/internal/locate"
)

// Options says where to install and what.
type Options struct {
	Place locate.Place
	// Mem is the mem binary for the files of this machine only (git's
	// pre-commit hook and merge driver, the per-user MCP configs): its
	// absolute path, or its bare name when it is on PATH. Files a team
	// shares always name the bare "mem".
	Mem string
	// Agents is a subset of claude, opencode, kimi and codex; empty means
	// claude.
	Agents []string
	// Capture also wires SessionEnd and PreCompact to "mem capture --detach".
	Capture bool
	// MCP also registers mem's MCP server for Claude Code (.mcp.json); the
	// other agents get it always, since their rules name its tools.
	MCP bool
	// Home is the user's home directory, for ~/.kimi/mcp.json; empty means
	// os.UserHomeDir.
	Home string
	// User installs the hooks for the person instead of the repository: in
	// their Claude Code settings (UserSettingsPath), where they run in every
	// directory of every repository and act only where a store is. Nothing
	// of the repository is touched, and none is needed.
	User bool
	// Local installs the hooks for the person in this repository only: in
	// .claude/settings.local.json (LocalSettingsPath), which nobody else
	// gets and which git is told to ignore when nothing ignores it yet.
	// Nothing else is written.
	Local bool
}

// Agent names.
const (
	Claude   = "claude"
	OpenCode = "opencode"
	Kimi     = "kimi"
	Codex    = "codex"
)

// Change is one file's change. Before is nil for a new file, After nil for a
// removal. Mode is the file's mode once written. A directory removal has
// fs.ModeDir in Mode and nil Before and After.
type Change struct {
	Path          string
	Before, After []byte
	Mode          os.FileMode
	Why           string
}

// Plan returns the changes that install would make, and writes nothing.
func Plan(o Options) ([]Change, error) {
	pl, err := newPlanner(o, true)
	if err != nil {
		return nil, err
	}
	steps := []func(*planner) error{planSettings, planPreCommit, planMCP, planRules, planMergeDriver}
	switch {
	case o.User:
		steps = steps[:1]
	case o.Local:
		steps = []func(*planner) error{planSettings, planLocalExclude}
	}
	for _, step := range steps {
		if err := step(pl); err != nil {
			return nil, err
		}
	}
	return pl.changes(false), nil
}

// PlanUninstall returns the changes that take out what install added. Work
// inside the repository is removed whichever agents it was installed for;
// the per-user Kimi and Codex files only when kimi or codex is among
// o.Agents, since other projects may share them.
func PlanUninstall(o Options) ([]Change, error) {
	pl, err := newPlanner(o, false)
	if err != nil {
		return nil, err
	}
	pl.agents = []string{Claude, OpenCode, Codex}
	if slices.Contains(o.Agents, Kimi) {
		pl.agents = append(pl.agents, Kimi)
	}
	steps := []func(*planner) error{unplanSettings, unplanPreCommit, unplanMCP, unplanRules, unplanMergeDriver}
	switch {
	case o.User:
		steps = steps[:1]
	case o.Local:
		steps = []func(*planner) error{unplanSettings, unplanLocalExclude}
	}
	for _, step := range steps {
		if err := step(pl); err != nil {
			return nil, err
		}
	}
	return pl.changes(true), nil
}

// planner holds the planned content of each file it touched, so that two
// steps editing one file (CLAUDE.md linked to AGENTS.md) see each other.
type planner struct {
	o      Options
	agents []string
	order  []string
	files  map[string]*planned
}

type planned struct {
	before, after []byte
	existed       bool
	exists        bool
	mode          fs.FileMode
	why           []string
}

// newPlanner checks the options; install needs the binaries' paths,
// uninstall does not.
func newPlanner(o Options, install bool) (*planner, error) {
	if o.User && o.Local {
		return nil, errors.New("install: the hooks go to your settings (user) or this repository's local settings, not both")
	}
	if !o.User && (o.Place.WorkTree == "" || o.Place.CommonDir == "") {
		return nil, errors.New("install: not inside a git work tree")
	}
	// A bare name is looked up on PATH when the hook runs, which is what a
	// team sharing settings.json wants; anything else must be absolute.
	if install && !runnable(o.Mem) {
		return nil, fmt.Errorf("install: the mem binary must be an absolute path or a bare command name, not %q", o.Mem)
	}
	// Installed hooks are recognised by the binaries' names (ourKind): under
	// another name a second install would not see its own hooks.
	if install && binName(o.Mem) != "mem" {
		return nil, fmt.Errorf("install: the mem binary must be named mem, not %q: installed hooks are recognised by that name", binName(o.Mem))
	}
	pl := &planner{o: o, files: map[string]*planned{}}
	for _, a := range o.Agents {
		switch a {
		case Claude, OpenCode, Kimi, Codex:
			if !slices.Contains(pl.agents, a) {
				pl.agents = append(pl.agents, a)
			}
		default:
			return nil, fmt.Errorf("install: unknown agent %q (want claude, opencode, kimi or codex)", a)
		}
	}
	if len(pl.agents) == 0 {
		pl.agents = []string{Claude}
	}
	if pl.o.Home == "" && (slices.Contains(o.Agents, Kimi) || slices.Contains(o.Agents, Codex)) {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("install: find home directory: %w", err)
		}
		pl.o.Home = home
	}
	return pl, nil
}

func (pl *planner) has(agent string) bool { return slices.Contains(pl.agents, agent) }

// resolve follows a symbolic link at path, so that writing replaces the
// file it points at rather than the link.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("follow link %s: %w", path, err)
	}
	return real, nil
}

// read returns the planned content of path and whether it exists then.
func (pl *planner) read(path string) ([]byte, bool, error) {
	f, err := pl.load(path)
	if err != nil {
		return nil, false, err
	}
	return f.after, f.exists, nil
}

// load returns the plan of the file at path, behind a symbolic link: the
// plan is made once, from the disk, on first use.
func (pl *planner) load(path string) (*planned, error) {
	path, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if f, ok := pl.files[path]; ok {
		return f, nil
	}
	f := &planned{mode: 0o644}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case err == nil:
		f.before, err = os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f.after, f.existed, f.exists, f.mode = f.before, true, true, fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	pl.files[path] = f
	pl.order = append(pl.order, path)
	return f, nil
}

// write plans path to hold data. mode applies to a new file; an existing
// one keeps its own.
func (pl *planner) write(path string, data []byte, mode fs.FileMode, why string) error {
	f, err := pl.load(path)
	if err != nil {
		return err
	}
	if f.exists && bytes.Equal(f.after, data) {
		return nil
	}
	if !f.exists {
		f.mode = mode
	}
	f.after, f.exists = data, true
	f.why = append(f.why, why)
	return nil
}

// chmod plans a mode for an existing or planned file.
func (pl *planner) chmod(path string, mode fs.FileMode, why string) error {
	f, err := pl.load(path)
	if err != nil {
		return err
	}
	if f.mode != mode {
		f.mode = mode
		f.why = append(f.why, why)
	}
	return nil
}

// del plans the removal of path.
func (pl *planner) del(path string, why string) error {
	f, err := pl.load(path)
	if err != nil {
		return err
	}
	if f.exists {
		f.after, f.exists = nil, false
		f.why = append(f.why, why)
	}
	return nil
}

// changes lists what differs from the disk, in the order the files were
// first touched. On uninstall, directories left empty by removals follow.
func (pl *planner) changes(uninstall bool) []Change {
	var out []Change
	var removed []string
	for _, path := range pl.order {
		f := pl.files[path]
		c := Change{Path: path, Mode: f.mode, Why: joinWhy(f.why)}
		switch {
		case f.existed && !f.exists:
			c.Before = f.before
			removed = append(removed, path)
		case !f.existed && f.exists:
			c.After = nonNil(f.after)
		case f.existed && f.exists && (!bytes.Equal(f.before, f.after) || f.mode != pl.diskMode(path)):
			c.Before, c.After = f.before, f.after
		default:
			continue
		}
		out = append(out, c)
	}
	if uninstall {
		out = append(out, pl.emptyDirs(removed)...)
	}
	return out
}

func (pl *planner) diskMode(path string) fs.FileMode {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Mode().Perm()
}

// emptyDirs returns the removals of directories that the removed files
// leave empty, deepest first. It never climbs to the work tree, the home
// directory or the git directory, nor removes git's own hooks directory.
func (pl *planner) emptyDirs(removed []string) []Change {
	stop := map[string]bool{
		filepath.Clean(string(filepath.Separator)):   true,
		filepath.Clean(pl.o.Place.WorkTree):          true,
		filepath.Clean(pl.o.Place.CommonDir):         true,
		filepath.Clean(pl.o.Place.GitDir):            true,
		filepath.Join(pl.o.Place.CommonDir, "hooks"): true,
	}
	if pl.o.Home != "" {
		stop[filepath.Clean(pl.o.Home)] = true
	}
	gone := map[string]bool{}
	for _, p := range removed {
		gone[p] = true
	}
	// Climb only inside the places install writes to; elsewhere (a
	// core.hooksPath outside the repository) only a removed file's own
	// directory may go.
	inside := func(dir string) bool {
		for _, root := range []string{pl.o.Place.WorkTree, pl.o.Place.CommonDir, pl.o.Home} {
			if root != "" && locate.Within(root, dir) {
				return true
			}
		}
		return false
	}
	var dirs []string
	for changed := true; changed; {
		changed = false
		for _, p := range slices.Concat(removed, dirs) {
			dir := filepath.Dir(p)
			if gone[dir] || stop[dir] || slices.Contains(dirs, p) && !inside(dir) {
				continue
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			empty := true
			for _, e := range entries {
				if !gone[filepath.Join(dir, e.Name())] {
					empty = false
					break
				}
			}
			if empty {
				gone[dir] = true
				dirs = append(dirs, dir)
				changed = true
			}
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	var out []Change
	for _, d := range dirs {
		out = append(out, Change{Path: d, Mode: fs.ModeDir | 0o755, Why: "remove the directory install created, now empty"})
	}
	return out
}

func joinWhy(whys []string) string {
	var uniq []string
	for _, w := range whys {
		if w != "" && !slices.Contains(uniq, w) {
			uniq = append(uniq, w)
		}
	}
	return strings.Join(uniq, "; ")
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// runnable reports whether bin names a binary the same way from any
// directory: an absolute path, or a bare name found on PATH.
func runnable(bin string) bool {
	return filepath.IsAbs(bin) || bin != "" && !strings.ContainsRune(bin, filepath.Separator) && !strings.HasPrefix(bin, ".")
}
