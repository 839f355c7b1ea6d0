package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Undo reverts one mem commit as a new commit (Mem-Action: undo, Mem-Undo:
// <hash>): every store file the commit changed gets back its content from the
// commit's parent, or is removed when it did not exist there. It refuses a
// commit without a Mem-Action trailer, a merge commit, a commit that touched
// anything outside the store, and a commit whose files have changed since (the
// error names the file). The caller holds Lock. As with Apply, a busy
// repository gets the files but no commit.
func (s *Store) Undo(ctx context.Context, ref string) (Result, error) {
	if s.WorkTree == "" {
		return Result{}, errors.New("undo: the store is not in a git repository")
	}
	if ref == "" || strings.HasPrefix(ref, "-") {
		return Result{}, fmt.Errorf("undo: bad revision %q", ref)
	}
	out, err := s.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return Result{}, fmt.Errorf("undo: unknown commit %q", ref)
	}
	hash := strings.TrimSpace(string(out))

	changes, info, err := s.revertOf(hash)
	if err != nil {
		return Result{}, fmt.Errorf("undo %.12s: %w", hash, err)
	}
	res, err := s.Apply(ctx, changes, info)
	if err != nil {
		return Result{}, fmt.Errorf("undo %.12s: %w", hash, err)
	}
	return res, nil
}

// revertOf computes the changes that revert commit hash, checking that it may be
// reverted.
func (s *Store) revertOf(hash string) ([]Change, CommitInfo, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	repo, err := s.openRepo()
	if err != nil {
		return nil, CommitInfo{}, err
	}
	c, err := repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		return nil, CommitInfo{}, fmt.Errorf("read commit: %w", err)
	}
	e, ok := entryOf(c)
	if !ok {
		return nil, CommitInfo{}, errors.New("not a mem commit (it has no Mem-Action trailer)")
	}
	if c.NumParents() > 1 {
		return nil, CommitInfo{}, errors.New("is a merge commit")
	}
	to, err := c.Tree()
	if err != nil {
		return nil, CommitInfo{}, fmt.Errorf("read tree: %w", err)
	}
	var from *object.Tree
	if c.NumParents() == 1 {
		parent, err := c.Parent(0)
		if err != nil {
			return nil, CommitInfo{}, fmt.Errorf("read parent: %w", err)
		}
		if from, err = parent.Tree(); err != nil {
			return nil, CommitInfo{}, fmt.Errorf("read tree: %w", err)
		}
	}
	diff, err := object.DiffTree(from, to)
	if err != nil {
		return nil, CommitInfo{}, fmt.Errorf("diff: %w", err)
	}
	prefix := s.GitPath("")
	if prefix != "" {
		prefix += "/"
	}
	var changes []Change
	for _, d := range diff {
		name := d.To.Name
		if name == "" {
			name = d.From.Name
		}
		rel, ok := strings.CutPrefix(name, prefix)
		if !ok {
			return nil, CommitInfo{}, fmt.Errorf("changed %s, outside the store", name)
		}
		// The file must still be as the commit left it.
		cur, err := s.ReadFile(rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if d.To.Name != "" {
				return nil, CommitInfo{}, fmt.Errorf("%s has changed since (it was removed)", rel)
			}
		case err != nil:
			return nil, CommitInfo{}, err
		case d.To.Name == "":
			return nil, CommitInfo{}, fmt.Errorf("%s has changed since (it was created again)", rel)
		case plumbing.ComputeHash(plumbing.BlobObject, cur) != d.To.TreeEntry.Hash:
			return nil, CommitInfo{}, fmt.Errorf("%s has changed since", rel)
		}
		if d.From.Name == "" {
			changes = append(changes, Change{Path: rel, Delete: true})
			continue
		}
		if !d.From.TreeEntry.Mode.IsFile() || d.From.TreeEntry.Mode == filemode.Symlink {
			return nil, CommitInfo{}, fmt.Errorf("%s was not a regular file", rel)
		}
		data, err := blobBytes(repo, d.From.TreeEntry.Hash)
		if err != nil {
			return nil, CommitInfo{}, fmt.Errorf("read %s: %w", rel, err)
		}
		changes = append(changes, Change{Path: rel, Data: data})
	}
	if len(changes) == 0 {
		return nil, CommitInfo{}, errors.New("changed no files")
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	info := CommitInfo{
		Action: "undo",
		Slug:   e.Slug,
		Body:   fmt.Sprintf("Undo %.12s %q.", hash, e.Subject),
		Trailers: []Trailer{
			{Key: "Mem-Undo", Value: hash},
		},
	}
	return changes, info, nil
}

func blobBytes(repo interface {
	BlobObject(plumbing.Hash) (*object.Blob, error)
}, h plumbing.Hash) ([]byte, error) {
	b, err := repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
