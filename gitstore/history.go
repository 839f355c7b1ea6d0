package gitstore

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// errStopWalk ends a commit walk early.
var errStopWalk = errors.New("stop")

// Revision is one commit that changed a file, with the file's diff in it.
type Revision struct {
	Entry        // Action is "" for a commit mem did not make
	Diff  string // unified diff of the file alone, parent to commit
}

// History lists the commits reachable from HEAD that changed the store file
// rel, newest first, at most limit of them (all when limit <= 0), whether
// mem made them or a person did. Renames are not followed: a memory keeps
// its path for life.
func (s *Store) History(rel string, limit int) ([]Revision, error) {
	clean, err := s.confine(rel)
	if err != nil {
		return nil, err
	}
	gitPath := s.GitPath(clean)
	g, ok := s.objects().(*goGitObjects)
	if !ok {
		return nil, errors.New("history: not available for this repository (go-git cannot read it)")
	}
	goGitMu.Lock()
	defer goGitMu.Unlock()
	var out []Revision
	err = g.again(func() error {
		var err error
		out, err = g.history(gitPath, limit)
		return err
	})
	return out, err
}

// history is History's walk; the caller holds goGitMu.
func (g *goGitObjects) history(gitPath string, limit int) ([]Revision, error) {
	head, err := g.headRef()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	tip, err := object.GetCommit(g.st, head.Hash())
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	// git log --date-order -- PATH, as go-git's Repository.Log builds it.
	iter := object.NewCommitPathIterFromIter(func(p string) bool { return p == gitPath }, object.NewCommitIterCTime(tip, nil, nil), false)
	defer iter.Close()
	var out []Revision
	err = iter.ForEach(func(c *object.Commit) error {
		e, ok := entryOf(goGitCommit(c))
		if !ok {
			e = Entry{Commit: c.Hash.String(), Time: c.Author.When,
				Author:  fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
				Subject: strings.TrimSpace(strings.SplitN(c.Message, "\n", 2)[0])}
		}
		diff, err := fileDiff(c, gitPath)
		if err != nil {
			return err
		}
		out = append(out, Revision{Entry: e, Diff: diff})
		if limit > 0 && len(out) >= limit {
			return errStopWalk
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopWalk) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("history: %w", err)
	}
	return out, nil
}

// fileDiff is the unified diff of one file between c's first parent (or
// nothing, for a root commit) and c.
func fileDiff(c *object.Commit, gitPath string) (string, error) {
	tree, err := c.Tree()
	if err != nil {
		return "", err
	}
	var parentTree *object.Tree
	if c.NumParents() > 0 {
		p, err := c.Parent(0)
		if err != nil {
			return "", err
		}
		if parentTree, err = p.Tree(); err != nil {
			return "", err
		}
	}
	// Only the one entry is compared: a whole-tree diff of a store of
	// thousands of memories would cost more than the page that asked.
	var ch object.Change
	if parentTree != nil {
		if e, err := parentTree.FindEntry(gitPath); err == nil {
			ch.From = object.ChangeEntry{Name: gitPath, Tree: parentTree, TreeEntry: *e}
		}
	}
	if e, err := tree.FindEntry(gitPath); err == nil {
		ch.To = object.ChangeEntry{Name: gitPath, Tree: tree, TreeEntry: *e}
	}
	if ch.From.Name == "" && ch.To.Name == "" {
		return "", nil
	}
	p, err := ch.Patch()
	if err != nil {
		return "", err
	}
	return p.String(), nil
}
