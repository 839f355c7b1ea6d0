package gitstore

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/locate"
)

// Ignored says which ignore rule of git's (.gitignore, info/exclude,
// core.excludesFile) covers the store, as "<file>:<line>: <pattern>", or ""
// when none does or the store is the top of its work tree or outside git.
// Apply commits the store's files whatever the rules say (it stages by
// path, as `git add -f` would): the store is meant to be shared, so this is
// for saying so, not for refusing. Every write asks it, so it runs git (one
// process) only when a rule git reads may cover the store (mayBeIgnored).
func (s *Store) Ignored(ctx context.Context) (string, error) {
	dir := s.GitPath("")
	if s.WorkTree == "" || dir == "" || !s.mayBeIgnored(dir) {
		return "", nil
	}
	// The directory, for rules such as ".claude/", and a memory in it, for
	// rules such as "*.md".
	out, err := s.git(ctx, nil, nil, "check-ignore", "--no-index", "--verbose", "--", dir+"/", dir+"/memory.md")
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return "", nil // nothing ignored
	}
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(out)) {
		// <source>:<line>:<pattern><TAB><path>
		rule, _, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		source, rest, ok1 := strings.Cut(rule, ":")
		num, pattern, ok2 := strings.Cut(rest, ":")
		if ok1 && ok2 && !strings.HasPrefix(pattern, "!") {
			if rel, err := filepath.Rel(s.WorkTree, source); err == nil && filepath.IsAbs(source) && locate.Within(s.WorkTree, source) {
				source = filepath.ToSlash(rel) // .git/info/exclude
			}
			return source + ":" + num + ": " + pattern, nil
		}
	}
	return "", nil
}

// mayBeIgnored reports whether a rule in the files git reads its ignore
// rules from (each .gitignore from the top of the work tree down to the
// store's directory dir, info/exclude, core.excludesFile) may match dir or
// a memory in it. It answers no only when it can tell: each rule, anchored
// or not, for directories or not, is taken to match wherever each of its
// segments matches some name on the path, case aside; an excluding rule
// that cannot is no cover, and a re-including one never is. Anything it
// does not read as git does (a bracket or an escape in a rule, a config
// that includes another, core.excludesFile given on the command line) is
// a maybe, for git to settle. The system config is read at /etc/gitconfig
// (or $GIT_CONFIG_SYSTEM), where Linux distributions' git has it.
func (s *Store) mayBeIgnored(dir string) bool {
	if dir == ".." || strings.HasPrefix(dir, "../") {
		return true // outside the work tree: git says what it says of that
	}
	names := append(strings.Split(dir, "/"), "memory.md")
	files, sure := s.ignoreFiles(names)
	if !sure {
		return true
	}
	for _, f := range files {
		if mayMatch(f, names) {
			return true
		}
	}
	return false
}

// ignoreFiles lists the files git may read ignore rules from for the path
// of names, and whether it could tell which they are.
func (s *Store) ignoreFiles(names []string) (files []string, sure bool) {
	d := s.WorkTree
	files = append(files, filepath.Join(d, ".gitignore"))
	for _, n := range names[:len(names)-1] {
		d = filepath.Join(d, n)
		files = append(files, filepath.Join(d, ".gitignore"))
	}
	files = append(files, filepath.Join(s.CommonDir, "info", "exclude"))
	if os.Getenv("GIT_CONFIG_PARAMETERS") != "" || os.Getenv("GIT_CONFIG_COUNT") != "" {
		return nil, false
	}
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "ignore")) // the default core.excludesFile
	}
	var configs []string
	if sys := os.Getenv("GIT_CONFIG_SYSTEM"); sys != "" {
		configs = append(configs, sys)
	} else if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		configs = append(configs, "/etc/gitconfig")
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		configs = append(configs, g)
	} else {
		if xdg != "" {
			configs = append(configs, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			configs = append(configs, filepath.Join(home, ".gitconfig"))
		}
	}
	configs = append(configs, filepath.Join(s.CommonDir, "config"), filepath.Join(s.GitDir, "config.worktree"))
	for _, c := range configs {
		named, ok := excludesFiles(c, home)
		if !ok {
			return nil, false
		}
		files = append(files, named...)
	}
	return files, true
}

// excludesFiles returns every file the git config file at path names as an
// excludesFile, in any section; ok is false when the file includes others
// or names one in a way it does not read. A missing file names none.
func excludesFiles(path, home string) (files []string, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, os.IsNotExist(err)
	}
	if strings.Contains(strings.ToLower(string(data)), "include") {
		return nil, false
	}
	for line := range strings.Lines(string(data)) {
		key, value, found := strings.Cut(line, "=")
		if !strings.Contains(strings.ToLower(key), "excludesfile") {
			continue
		}
		value = strings.Trim(strings.TrimSpace(value), `"`)
		if !found || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			return nil, false
		}
		if strings.HasPrefix(value, "~/") && home != "" {
			value = filepath.Join(home, value[2:])
		}
		if !filepath.IsAbs(value) || strings.ContainsAny(value, `"\;#`) {
			return nil, false
		}
		files = append(files, value)
	}
	return files, true
}

// mayMatch reports whether a rule of the ignore file at file may exclude
// the path of names (see mayBeIgnored); a missing file holds none.
func mayMatch(file string, names []string) bool {
	f, err := os.Open(file)
	if err != nil {
		return !os.IsNotExist(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rule := strings.TrimRight(strings.TrimSuffix(sc.Text(), "\r"), " ")
		if rule == "" || rule[0] == '#' || rule[0] == '!' {
			continue
		}
		if strings.ContainsAny(rule, `[\\`) {
			return true
		}
		if ruleMayMatch(strings.ToLower(strings.Trim(rule, "/")), names) {
			return true
		}
	}
	return sc.Err() != nil
}

// ruleMayMatch reports whether each segment of rule but "**" matches one
// of names, lowercase both.
func ruleMayMatch(rule string, names []string) bool {
	for seg := range strings.SplitSeq(rule, "/") {
		if seg == "**" || seg == "" {
			continue
		}
		matched := false
		for _, n := range names {
			if ok, err := path.Match(seg, strings.ToLower(n)); ok || err != nil {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	return true
}
