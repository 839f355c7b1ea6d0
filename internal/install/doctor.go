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

// Problem is one thing wrong with the setup: which check found it, what is
// wrong, and how to fix it.
type Problem struct {
	Check, Message, Fix string
}

// Doctor checks that what install wires is in place and works: the Claude
// Code hooks and the binaries they run, the store, the git identity
// commits are made with, the cache directory, the errors the hooks logged
// while failing open this week, the pre-commit hook, the merge driver, and
// that install has nothing left to do. It returns only problems; none means
// healthy. Index freshness and the MEMORY.md budget are the caller's to
// check.
func Doctor(o Options) []Problem {
	var ps []Problem
	add := func(check, fix, format string, args ...any) {
		ps = append(ps, Problem{check, fmt.Sprintf(format, args...), fix})
	}
	p := o.Place
	if p.WorkTree == "" {
		add("repository", "run mem inside a git work tree", "not inside a git work tree")
		return ps
	}
	reinstall := "run `mem install`"

	if len(o.Agents) == 0 || slices.Contains(o.Agents, Claude) { // no agents means claude, as for install
		ps = append(ps, doctorHooks(o)...)
	}

	if fi, err := os.Stat(p.Store); err != nil || !fi.IsDir() {
		add("store", "run `mem init`", "no memory store at %s", p.Rel(p.Store))
	}

	var missing []string
	for _, key := range []string{"user.name", "user.email"} {
		if v, err := git(p.WorkTree, "config", "--get", key); err != nil || v == "" {
			missing = append(missing, key)
		}
	}
	if len(missing) > 0 {
		verb := "are"
		if len(missing) == 1 {
			verb = "is"
		}
		add("identity", `git config --global user.name "Your Name" && git config --global user.email you@example.com`,
			"git %s %s not set: mem cannot commit memories", strings.Join(missing, " and "), verb)
	}

	if err := writable(p.CacheDir()); err != nil {
		add("cache", "make "+p.CacheDir()+" writable by you", "cache directory not writable: %v", err)
	}

	// Hooks fail open, so their errors show nowhere but in this log.
	hookLog := filepath.Join(p.CacheDir(), logfile.HookErrors)
	if n, last := logfile.Since(hookLog, time.Now().Add(-hookLogWindow)); n > 0 {
		errs := "1 error"
		if n > 1 {
			errs = fmt.Sprintf("%d errors", n)
		}
		add("hook-log", "fix what it says, then delete "+p.Rel(hookLog),
			"the hooks logged %s in the last %d days and carried on without mem; the last: %s",
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

// doctorHooks checks .claude/settings.json.
func doctorHooks(o Options) []Problem {
	path := settingsPath(o)
	fix := "run `mem install`"
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []Problem{{"hooks", path + " does not exist: Claude Code does not call mem", fix}}
	}
	if err != nil {
		return []Problem{{"hooks", err.Error(), fix}}
	}
	d, err := parseObject(path, src)
	if err != nil {
		return []Problem{{"hooks", err.Error(), "fix the JSON, then run `mem install`"}}
	}
	var ps []Problem
	var bins []string
	events := map[string][]string{}
	found := ourHooks(d)
	for _, s := range o.hookSpecs() {
		i := slices.IndexFunc(found, func(l hookLoc) bool { return l.eventName == s.event && l.kind == s.kind })
		if i < 0 {
			ps = append(ps, Problem{"hooks", fmt.Sprintf("no %s hook runs mem (%s)", s.event, s.kind), fix})
			continue
		}
		bin := commandBinary(found[i].command, o.Place.WorkTree)
		if !executable(bin) {
			if events[bin] == nil {
				bins = append(bins, bin)
			}
			events[bin] = append(events[bin], s.event)
		}
	}
	for _, bin := range bins {
		ps = append(ps, Problem{"hooks",
			fmt.Sprintf("the %s hooks run %s, which is not an executable file", strings.Join(events[bin], ", "), bin),
			"run `mem install` with the mem you use now"})
	}
	return ps
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
