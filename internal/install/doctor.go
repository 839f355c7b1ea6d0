package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/internal/text"
)

// Problem is one thing doctor found: which check found it, what is wrong,
// and how to fix it. Info marks a state worth knowing in which mem works
// (no model, mem's own git identity, an ignored store): doctor says it and
// still exits 0.
type Problem struct {
	Check, Message, Fix string
	Info                bool
}

// Doctor checks that what install wires is in place and works: the Claude
// Code hooks and the binaries they run, the store and whether git ignores
// it, the git identity commits are made with, the state directory, the
// errors logged this week by what mem runs unattended (hooks, background
// passes), the pre-commit hook, the merge driver, and that install has
// nothing left to do. It returns problems and Info findings; no problem
// means healthy. Index freshness, the model and the MEMORY.md budget are
// the caller's to check.
func Doctor(o Options) []Problem {
	var ps []Problem
	add := func(check, fix, format string, args ...any) {
		ps = append(ps, Problem{Check: check, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	p := o.Place
	if p.WorkTree == "" {
		add("repository", "run mem inside a git work tree", "not inside a git work tree")
		return ps
	}
	reinstall := "run `mem install`"

	// plugin: mem's Claude Code plugin is enabled.
	plugin := false
	if len(o.Agents) == 0 || slices.Contains(o.Agents, Claude) { // no agents means claude, as for install
		var hps []Problem
		hps, plugin = doctorHooks(o)
		ps = append(ps, hps...)
	}

	if fi, err := os.Stat(p.Store); err != nil || !fi.IsDir() {
		add("store", "run `mem init`", "no memory store at %s", p.Rel(p.Store))
	}

	if id, ok := Identity(p); ok {
		ps = append(ps, id)
	}
	if ig, ok := StoreIgnored(p); ok {
		ps = append(ps, ig)
	}

	if err := writable(p.StateDir()); err != nil {
		add("cache", "make "+p.StateDir()+" writable by you", "cache directory not writable: %v", err)
	}

	// Hooks fail open, so their errors show nowhere but in this log.
	hookLog := filepath.Join(p.StateDir(), logfile.HookErrors)
	if n, last := logfile.Since(hookLog, time.Now().Add(-hookLogWindow)); n > 0 {
		errs := "1 error"
		if n > 1 {
			errs = fmt.Sprintf("%d errors", n)
		}
		add("hook-log", "fix what it says, then delete "+p.Rel(hookLog),
			"%s in the last %d days from what mem runs unattended (hooks, passes in the background), which carried on without it; the last: %s",
			errs, int(hookLogWindow.Hours()/24), text.Clip(last, 200))
	}

	hook, chained, err := preCommitPaths(p)
	switch data, rerr := os.ReadFile(hook); {
	case err != nil:
		add("pre-commit", reinstall, "%v", err)
	case errors.Is(rerr, fs.ErrNotExist):
		add("pre-commit", reinstall, "no pre-commit hook at %s: nothing stops a commit that breaks the MEMORY.md budget", hook)
	case rerr != nil:
		add("pre-commit", reinstall, "read pre-commit hook: %v", rerr)
	case !isOurPreCommit(data):
		fix := reinstall + " (it keeps the current hook as " + filepath.Base(chained) + " and runs it first)"
		add("pre-commit", fix, "the pre-commit hook at %s is not mem's", hook)
	case !executable(hook):
		add("pre-commit", "chmod +x "+shellQuote(hook), "the pre-commit hook at %s is not executable: git skips it", hook)
	default:
		if bin := onPath(preCommitMem(data)); !executable(bin) {
			add("pre-commit", reinstall, "the pre-commit hook runs %s, which is not an executable file", bin)
		}
	}

	if pat := memoryPattern(p); pat != "" {
		driver, err := git(p.WorkTree, "config", "--get", "merge."+mergeDriver+".driver")
		switch {
		case err != nil:
			add("merge-driver", reinstall, "%v", err)
		case driver == "":
			add("merge-driver", reinstall, "merge driver %s is not configured: concurrent MEMORY.md edits will conflict", mergeDriver)
		default:
			if bin := commandBinary(driver, p.WorkTree); !executable(bin) {
				add("merge-driver", reinstall, "merge driver %s runs %s, which is not an executable file", mergeDriver, bin)
			}
		}
		probe := filepath.ToSlash(filepath.Join(p.Rel(p.Store), "MEMORY.md"))
		out, err := git(p.WorkTree, "check-attr", "merge", "--", probe)
		if err == nil && !strings.HasSuffix(out, ": merge: "+mergeDriver) {
			add("merge-driver", reinstall, ".gitattributes does not send %s to merge driver %s", probe, mergeDriver)
		}
	}

	// Whatever else install would still change (MCP servers, rules).
	if o.Mem != "" {
		covered := map[string]bool{settingsPath(o): true, hook: true, chained: true,
			filepath.Join(p.WorkTree, ".gitattributes"): true, filepath.Join(p.CommonDir, "config"): true}
		if plugin {
			// The plugin brings Claude Code the MCP server, and its hooks
			// bring the memories and ask for new ones, which is what
			// .mcp.json and CLAUDE.md's rules would do.
			for _, f := range pluginCovers(o) {
				covered[f] = true
			}
		}
		changes, err := Plan(o)
		if err != nil {
			add("install", "fix the file named, then "+reinstall, "%v", err)
		}
		for _, c := range changes {
			if !covered[c.Path] {
				add("install", reinstall, "%s is not set up: install would %s", c.Path, c.Why)
			}
		}
	}
	return dedupe(ps)
}

// doctorHooks checks that Claude Code calls mem: hooks in the project's
// .claude/settings.json, the user's settings (mem install --user) or mem's
// plugin, and that they find mem on the PATH Claude Code gives them. It
// also reports whether either settings file enables mem's plugin.
func doctorHooks(o Options) ([]Problem, bool) {
	path := settingsPath(o)
	fix := "run `mem install`"
	var found []hookLoc
	plugin := false
	exists := true // the project's settings file
	read := func(p string) *Problem {
		src, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			if p == path {
				exists = false
			}
			return nil
		}
		if err != nil {
			return &Problem{Check: "hooks", Message: err.Error(), Fix: fix}
		}
		d, err := parseObject(p, src)
		if err != nil {
			return &Problem{Check: "hooks", Message: err.Error(), Fix: "fix the JSON, then run `mem install`"}
		}
		found = append(found, ourHooks(d)...)
		plugin = plugin || pluginEnabled(d)
		return nil
	}
	if p := read(path); p != nil {
		return []Problem{*p}, plugin
	}
	if user, err := UserSettingsPath(); err == nil {
		if p := read(user); p != nil {
			return []Problem{*p}, plugin
		}
	}
	if len(found) == 0 && !plugin && !exists {
		return []Problem{{Check: "hooks", Message: path + " does not exist and no user install or plugin runs mem: Claude Code does not call mem", Fix: fix}}, false
	}
	var ps []Problem
	hp := HookPath(o)
	var dead []string // events whose hook finds no binary
	for _, s := range o.hookSpecs() {
		i := slices.IndexFunc(found, func(l hookLoc) bool { return l.eventName == s.event && l.kind == s.kind })
		cmd := s.command // the plugin's
		switch {
		case i >= 0:
			cmd = found[i].command
		case !plugin:
			ps = append(ps, Problem{Check: "hooks", Message: fmt.Sprintf("no %s hook runs mem (%s)", s.event, s.kind), Fix: fix})
			continue
		}
		if cmd != s.command {
			why := "an older form that fails when mem is missing"
			if bins := hookBinaries(cmd); len(bins) > 0 && filepath.IsAbs(os.ExpandEnv(bins[0])) {
				why = "a path on this machine, in a file the team may share"
			}
			ps = append(ps, Problem{Check: "hooks", Message: fmt.Sprintf("the %s hook runs %q: %s", s.event, cmd, why), Fix: fix})
		}
		if !slices.ContainsFunc(hookBinaries(cmd), func(bin string) bool { return hp.find(bin, o.Place.WorkTree) != "" }) {
			dead = append(dead, s.event)
		}
	}
	if len(dead) > 0 {
		ps = append(ps, Problem{Check: "path",
			Message: fmt.Sprintf("neither mem-hook nor mem is on the PATH Claude Code gives its hooks (%s): the %s hooks do nothing", hp.From, strings.Join(dead, ", ")),
			Fix:     hp.Hint(o.Mem)})
	}
	return ps, plugin
}

// pluginCovers lists the files of a project install that mem's plugin
// stands in for: Claude Code's .mcp.json (the plugin has its own MCP
// server) and CLAUDE.md's memory rules.
func pluginCovers(o Options) []string {
	return []string{filepath.Join(o.Place.WorkTree, ".mcp.json"), filepath.Join(o.Place.WorkTree, "CLAUDE.md")}
}

// pluginEnabled reports whether a settings file enables mem's plugin
// ("enabledPlugins": {"mem@<marketplace>": true}).
func pluginEnabled(d *jdoc) bool {
	ep := d.root.member("enabledPlugins")
	if ep == nil || ep.kind != '{' {
		return false
	}
	for i, k := range ep.keys {
		if strings.HasPrefix(k.name, PluginName+"@") && string(d.text(ep.elems[i])) == "true" {
			return true
		}
	}
	return false
}

// writable checks that files can be created in dir, or in the nearest
// directory above it that exists (mem creates the rest).
func writable(dir string) error {
	for {
		if _, err := os.Stat(dir); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return errors.New("no directory exists on the way")
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".mem-doctor-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func dedupe(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// hookLogWindow is how far back doctor reads the hooks' error log.
const hookLogWindow = 7 * 24 * time.Hour
