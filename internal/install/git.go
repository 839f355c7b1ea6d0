package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/internal/locate"
)

// git runs git in dir and returns its output without the final newline.
// `git config --get` of an unset key gives "" and no error.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitstore.RepoFreeEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && args[0] == "config" && stderr.Len() == 0 {
			return "", nil
		}
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// hooksDir is where git looks for hooks: core.hooksPath (relative to the
// work tree) when set, the common git dir's hooks otherwise.
func hooksDir(p locate.Place) (string, error) {
	v, err := git(p.WorkTree, "config", "--type=path", "--get", "core.hooksPath")
	if err != nil {
		return "", err
	}
	if v == "" {
		return filepath.Join(p.CommonDir, "hooks"), nil
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(p.WorkTree, v)
	}
	return filepath.Clean(v), nil
}

// The pre-commit hook.

const (
	preCommitHeader = "# mem pre-commit hook"
	chainedSuffix   = ".mem-chained"
)

func preCommitScript(mem string) []byte {
	return []byte(`#!/bin/sh
` + preCommitHeader + `: installed by mem install, removed by mem uninstall.
# A pre-commit hook that was here before is kept as pre-commit` + chainedSuffix + `;
# it runs first and, if it fails, stops the commit.
chained="$(dirname "$0")/pre-commit` + chainedSuffix + `"
if [ -x "$chained" ]; then
	"$chained" "$@" || exit $?
fi
exec ` + shellQuote(mem) + ` precommit
`)
}

func isOurPreCommit(data []byte) bool {
	return bytes.Contains(data, []byte("\n"+preCommitHeader+":"))
}

// preCommitMem is the mem binary an installed pre-commit hook runs.
func preCommitMem(data []byte) string {
	for line := range strings.Lines(string(data)) {
		if w := shellFields(line); len(w) == 3 && w[0] == "exec" && w[2] == "precommit" {
			return w[1]
		}
	}
	return ""
}

func preCommitPaths(p locate.Place) (hook, chained string, err error) {
	dir, err := hooksDir(p)
	if err != nil {
		return "", "", err
	}
	hook = filepath.Join(dir, "pre-commit")
	chained = hook + chainedSuffix
	// mem moves these two files into each other's place: a link would be
	// followed to somewhere else.
	for _, p := range []string{hook, chained} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", "", fmt.Errorf("%s is a symbolic link; mem will not move it: make it a file, or run %q from it yourself", p, "mem precommit")
		}
	}
	return hook, chained, nil
}

func planPreCommit(pl *planner) error {
	hook, chained, err := preCommitPaths(pl.o.Place)
	if err != nil {
		return err
	}
	hf, err := pl.load(hook)
	if err != nil {
		return err
	}
	data, exists := hf.after, hf.exists
	script := preCommitScript(pl.o.Mem)
	if exists && !isOurPreCommit(data) {
		if _, taken, err := pl.read(chained); err != nil || taken {
			if err == nil {
				err = fmt.Errorf("%s is not mem's and %s exists too; mem will not overwrite either: merge them by hand, then install again", hook, chained)
			}
			return err
		}
		if err := pl.write(chained, data, hf.mode, "keep the existing pre-commit hook; mem's hook runs it first"); err != nil {
			return err
		}
	}
	why := "add mem's pre-commit hook"
	if exists {
		why = "make the pre-commit hook mem's, calling the one that was there"
		if isOurPreCommit(data) {
			why = "update mem's pre-commit hook"
		}
	}
	if err := pl.write(hook, script, 0o755, why); err != nil {
		return err
	}
	return pl.chmod(hook, hf.mode|0o111, "make mem's pre-commit hook executable")
}

func unplanPreCommit(pl *planner) error {
	hook, chained, err := preCommitPaths(pl.o.Place)
	if err != nil {
		return err
	}
	data, exists, err := pl.read(hook)
	if err != nil || !exists || !isOurPreCommit(data) {
		return err
	}
	cf, err := pl.load(chained)
	if err != nil {
		return err
	}
	if !cf.exists {
		return pl.del(hook, "remove mem's pre-commit hook")
	}
	old, mode := cf.after, cf.mode
	if err := pl.write(hook, old, mode, "put back the pre-commit hook mem had chained"); err != nil {
		return err
	}
	if err := pl.chmod(hook, mode, ""); err != nil {
		return err
	}
	return pl.del(chained, "moved back to pre-commit")
}

// The MEMORY.md merge driver.

const mergeDriver = "mem-memory-index"

var (
	attrMarkers   = hashMarkers("MEMORY.md merge driver")
	configMarkers = markers{"# >>> mem: MEMORY.md merge driver (mem uninstall removes this section)", "", `[merge "` + mergeDriver + `"]`}
	// mergeSection finds a [merge "mem-memory-index"] section header.
	mergeSection = lazyregexp.New(`(?m)^[ \t]*\[[ \t]*merge[ \t]+"` + mergeDriver + `"[ \t]*\]`)
)

// memoryPattern is the .gitattributes pattern for the store's MEMORY.md
// files, or "" when the store is outside the work tree. "a/**/MEMORY.md"
// matches a/MEMORY.md too.
func memoryPattern(p locate.Place) string {
	rel := p.Rel(p.Store) // absolute when the store is outside the work tree
	if filepath.IsAbs(filepath.FromSlash(rel)) {
		return ""
	}
	pat := "MEMORY.md" // at the top: any MEMORY.md in the work tree
	if rel != "." {
		pat = rel + "/**/MEMORY.md"
	}
	if strings.ContainsAny(pat, " \t\"\\") {
		pat = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(pat) + `"`
	}
	return pat
}

// gitConfigValue quotes v for a git config file when it needs it.
func gitConfigValue(v string) string {
	if !strings.ContainsAny(v, "#;\"\\") && strings.TrimSpace(v) == v {
		return v
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
}

func (o Options) driverCmd() string {
	return shellQuote(o.Mem) + " budget --fix --merge %O %A %B %P"
}

func planMergeDriver(pl *planner) error {
	pat := memoryPattern(pl.o.Place)
	if pat == "" {
		return nil
	}
	attrs := filepath.Join(pl.o.Place.WorkTree, ".gitattributes")
	src, _, err := pl.read(attrs)
	if err != nil {
		return err
	}
	out, err := attrMarkers.upsert(src, pat+" merge="+mergeDriver+"\n")
	if err != nil {
		return fmt.Errorf("%s: %w", attrs, err)
	}
	if err := pl.write(attrs, out, 0o644, "merge MEMORY.md files with mem's driver"); err != nil {
		return err
	}

	config := filepath.Join(pl.o.Place.CommonDir, "config")
	src, _, err = pl.read(config)
	if err != nil {
		return err
	}
	rest, err := configMarkers.strip(src)
	if err != nil {
		return fmt.Errorf("%s: %w", config, err)
	}
	if mergeSection.Match(rest) {
		return nil // configured by hand: the user's to keep
	}
	body := "[merge \"" + mergeDriver + "\"]\n" +
		"\tname = mem MEMORY.md regenerator\n" +
		"\tdriver = " + gitConfigValue(pl.o.driverCmd()) + "\n"
	if out, err = configMarkers.upsert(src, body); err != nil {
		return fmt.Errorf("%s: %w", config, err)
	}
	return pl.write(config, out, 0o644, "define mem's MEMORY.md merge driver")
}

func unplanMergeDriver(pl *planner) error {
	if err := unplanBlock(pl, filepath.Join(pl.o.Place.WorkTree, ".gitattributes"), attrMarkers, "remove the MEMORY.md merge driver"); err != nil {
		return err
	}
	return unplanBlock(pl, filepath.Join(pl.o.Place.CommonDir, "config"), configMarkers, `remove the section of mem's MEMORY.md merge driver, [merge "`+mergeDriver+`"]`)
}

// localExcludeMarkers delimit the line of info/exclude that keeps a local
// install's settings out of git.
var localExcludeMarkers = hashMarkers("local Claude Code settings")

func localExcludePath(p locate.Place) string {
	return filepath.Join(p.CommonDir, "info", "exclude")
}

// planLocalExclude keeps .claude/settings.local.json out of git with a line
// of <common git dir>/info/exclude, the repository's own ignore list, which
// nobody shares; unless git ignores the file already (Claude Code, making
// the file itself, names it in the user's global ignore file).
func planLocalExclude(pl *planner) error {
	path := localExcludePath(pl.o.Place)
	src, _, err := pl.read(path)
	if err != nil {
		return err
	}
	if _, _, ours, err := localExcludeMarkers.find(src); err != nil || ours {
		return err
	}
	ignored, err := gitIgnores(pl.o.Place.WorkTree, ".claude/settings.local.json")
	if err != nil || ignored {
		return err
	}
	out, err := localExcludeMarkers.upsert(src, "/.claude/settings.local.json\n")
	if err != nil {
		return errors.New(path + ": " + err.Error())
	}
	return pl.write(path, out, 0o644, "keep your local Claude Code settings out of git")
}

func unplanLocalExclude(pl *planner) error {
	return unplanBlock(pl, localExcludePath(pl.o.Place), localExcludeMarkers, "remove the line keeping your local Claude Code settings out of git")
}

// gitIgnores reports whether git ignores rel in the work tree.
func gitIgnores(workTree, rel string) (bool, error) {
	cmd := exec.Command("git", "-C", workTree, "check-ignore", "-q", "--", rel)
	cmd.Env = gitstore.RepoFreeEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	}
	return false, fmt.Errorf("git check-ignore %s: %v: %s", rel, err, strings.TrimSpace(stderr.String()))
}
