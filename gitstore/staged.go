package gitstore

import (
	"bytes"
	"context"
	"os"
	"strings"
)

// StagedFile is a store file as the index holds it, about to be committed.
type StagedFile struct {
	Path string // as git names it, from the top of the work tree
	Data []byte
}

// Staged returns the files under the store, whatever their names, that the
// index has added or modified relative to HEAD, with their staged content. Inside a git hook
// it honours the index git points the hook at (GIT_INDEX_FILE), which is
// how `git commit -a` and `git commit PATH` commit.
func (s *Store) Staged(ctx context.Context) ([]StagedFile, error) {
	if s.WorkTree == "" {
		return nil, nil
	}
	var env []string
	if idx := os.Getenv("GIT_INDEX_FILE"); idx != "" {
		env = append(env, "GIT_INDEX_FILE="+idx)
	}
	prefix := s.GitPath(".")
	out, err := s.git(ctx, env, nil, "diff", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=AM", "--", prefix)
	if err != nil {
		return nil, err
	}
	var files []StagedFile
	for _, p := range strings.Split(string(bytes.TrimRight(out, "\x00")), "\x00") {
		if p == "" {
			continue
		}
		data, err := s.git(ctx, env, nil, "cat-file", "blob", ":"+p)
		if err != nil {
			return nil, err
		}
		files = append(files, StagedFile{Path: p, Data: data})
	}
	return files, nil
}
