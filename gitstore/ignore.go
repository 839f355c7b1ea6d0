package gitstore

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/locate"
)

// Ignored says which ignore rule of git's (.gitignore, info/exclude,
// core.excludesFile) covers the store, as "<file>:<line>: <pattern>", or ""
// when none does or the store is the top of its work tree or outside git.
// Apply commits the store's files whatever the rules say (it stages by
// path, as `git add -f` would): the store is meant to be shared, so this is
// for saying so, not for refusing. It runs one git process.
func (s *Store) Ignored(ctx context.Context) (string, error) {
	dir := s.GitPath("")
	if s.WorkTree == "" || dir == "" {
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
