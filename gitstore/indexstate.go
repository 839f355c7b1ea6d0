package gitstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// What the index says of a path can make git update-index stage something
// other than the file mem wrote: it takes a path marked skip-worktree for
// absent and removes it, skips a path marked assume-unchanged, and takes a
// conflicted path for resolved. So before it stages, a commit reads the
// state of its paths (pathState): a conflicted path is never committed, and
// the two flags are cleared on the paths it commits, which are then the
// files on disk, as any other. A write is refused before anything is
// written when it would create a file over a memory the work tree does not
// show (a sparse checkout without the store, or skip-worktree), or when its
// path is conflicted.

// ErrConflicted means a file holds git's conflict markers or its index
// entry is unmerged: it is not committed until the conflict is resolved.
var ErrConflicted = errors.New("has an unresolved git conflict")

// ErrHidden means a write would create a file over one that the
// repository holds and the work tree does not show.
var ErrHidden = errors.New("is in the repository but not in this work tree")

// vet refuses content that must never be committed: git's conflict
// markers, and whatever Check refuses. gitPath names the file.
func (s *Store) vet(gitPath string, data []byte) error {
	if line := conflictMarkers(data); line > 0 {
		return fmt.Errorf("%s %w (conflict markers from line %d): resolve it, then `git add` it", gitPath, ErrConflicted, line)
	}
	if s.Check != nil {
		return s.Check(gitPath, data)
	}
	return nil
}

// conflictMarkers returns the line of the first "<<<<<<<" marker that a
// ">>>>>>>" marker follows, as git writes them around a conflict, or 0.
func conflictMarkers(data []byte) int {
	open := 0
	for n, line := 1, data; len(line) > 0; n++ {
		var rest []byte
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, rest = line[:i], line[i+1:]
		} else {
			rest = nil
		}
		switch {
		case open == 0 && isMarker(line, '<'):
			open = n
		case open > 0 && isMarker(line, '>'):
			return open
		}
		line = rest
	}
	return 0
}

// isMarker reports whether line is a conflict marker of seven c, alone or
// followed by a space and a label.
func isMarker(line []byte, c byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) < 7 || bytes.Count(line[:7], []byte{c}) != 7 {
		return false
	}
	return len(line) == 7 || line[7] == ' '
}

// refuseIndexState refuses, before a write puts anything in place, a change
// of a conflicted path and the creation of a file over one the work tree
// does not show. It reads the user's index through the copy Apply started
// (early), or the index itself.
func (s *Store) refuseIndexState(ctx context.Context, r *os.Root, changes []Change, paths []string, early *earlyIndex) error {
	index := s.indexPath()
	if ix := early.peek(); ix != nil {
		index = ix.tmp
	}
	gitPaths := make([]string, len(paths))
	for i, p := range paths {
		gitPaths[i] = s.GitPath(p)
	}
	states, err := s.objects().indexStates(ctx, index, gitPaths)
	if err != nil {
		return nil // the commit reads them again, and fails there if it must
	}
	if ix := early.peek(); ix != nil {
		ix.states = states // the first attempt stages from the same copy
	}
	for i, st := range states {
		if st.Unmerged {
			return fmt.Errorf("%s %w in git's index (a merge or `git stash pop` left it unmerged): resolve it and `git add` it first", st.Path, ErrConflicted)
		}
		if st.SkipWorktree && !changes[i].Delete {
			if _, err := r.Lstat(paths[i]); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s %w (a sparse checkout or skip-worktree): `git sparse-checkout add %s` or `git update-index --no-skip-worktree %s` first, so that mem does not write over a memory this checkout cannot see", st.Path, ErrHidden, s.GitPath("."), st.Path)
			}
		}
	}
	return nil
}

// indexPath is the user's index file.
func (s *Store) indexPath() string { return filepath.Join(s.GitDir, "index") }

// stageStates stages gitPaths in the prepared index ix after reading their
// state there: it refuses a conflicted path and clears skip-worktree and
// assume-unchanged on the others first, so that update-index stages the
// files as they are on disk.
func (s *Store) stageStates(ctx context.Context, obj objects, ix *preparedIndex, gitPaths []string) error {
	states := ix.states
	if !slices.EqualFunc(states, gitPaths, func(st pathState, p string) bool { return st.Path == p }) {
		var err error
		if states, err = obj.indexStates(ctx, ix.tmp, gitPaths); err != nil {
			return err
		}
	}
	var skip, assume []string
	for _, st := range states {
		if st.Unmerged {
			return fmt.Errorf("%s %w in git's index: resolve it and `git add` it", st.Path, ErrConflicted)
		}
		if st.SkipWorktree {
			skip = append(skip, st.Path)
		}
		if st.AssumeUnchanged {
			assume = append(assume, st.Path)
		}
	}
	if len(skip) == 0 && len(assume) == 0 {
		return ix.stage(gitPaths)
	}
	// The started update-index stages nothing; more clear the flags, one
	// for each (update-index acts on the last flag option it is given),
	// then stage: a rare state, and the common commit keeps to two git
	// processes.
	if err := ix.stage(nil); err != nil {
		return err
	}
	env := []string{"GIT_INDEX_FILE=" + ix.tmp}
	for _, clear := range []struct {
		flag  string
		paths []string
	}{{"--no-skip-worktree", skip}, {"--no-assume-unchanged", assume}} {
		if len(clear.paths) == 0 {
			continue
		}
		if _, err := s.git(ctx, env, nulList(clear.paths), "update-index", clear.flag, "-z", "--stdin"); err != nil {
			return err
		}
	}
	_, err := s.git(ctx, env, nulList(gitPaths), updateIndex...)
	return err
}

func nulList(paths []string) []byte {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// sumOf is the SHA-256 of the store file rel as it is now, "" when it
// cannot be read (absent).
func (s *Store) sumOf(r *os.Root, rel string) string {
	data, err := r.ReadFile(rel)
	if err != nil {
		return ""
	}
	return sum(data)
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
