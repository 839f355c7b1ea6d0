package gitstore

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"sort"
	"strconv"
	"strings"
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
	c, err := s.objects().readCommit(ctx, ref)
	if err != nil {
		return Result{}, fmt.Errorf("undo: unknown commit %q", ref)
	}
	changes, info, err := s.revertOf(ctx, c)
	if err != nil {
		return Result{}, fmt.Errorf("undo %.12s: %w", c.Hash, err)
	}
	res, err := s.Apply(ctx, changes, info)
	if err != nil {
		return Result{}, fmt.Errorf("undo %.12s: %w", c.Hash, err)
	}
	return res, nil
}

// revertOf computes the changes that revert commit c, checking that it may
// be reverted.
func (s *Store) revertOf(ctx context.Context, c commitObject) ([]Change, CommitInfo, error) {
	obj := s.objects()
	e, ok := entryOf(c)
	if !ok {
		return nil, CommitInfo{}, errors.New("not a mem commit (it has no " + TrailerAction + " trailer)")
	}
	if len(c.Parents) > 1 {
		return nil, CommitInfo{}, errors.New("is a merge commit")
	}
	var from string
	if len(c.Parents) == 1 {
		p, err := obj.readCommit(ctx, c.Parents[0])
		if err != nil {
			return nil, CommitInfo{}, fmt.Errorf("read parent: %w", err)
		}
		from = p.Tree
	}
	diff, err := obj.diffTree(ctx, from, c.Tree)
	if err != nil {
		return nil, CommitInfo{}, err
	}
	prefix := s.GitPath("")
	if prefix != "" {
		prefix += "/"
	}
	// A derived file (a generated MEMORY.md) that the commit changed
	// beside the files it derives from is left to Also, which derives it
	// again from the files as the undo leaves them: reverting it would undo
	// what every later write put there, and refuse the undo once one had.
	derived := map[string]bool{}
	for _, d := range diff {
		rel, ok := strings.CutPrefix(d.Path, prefix)
		if !ok {
			return nil, CommitInfo{}, fmt.Errorf("changed %s, outside the store", d.Path)
		}
		if s.Derived != nil && d.To.Mode != 0 && s.Derived(rel) {
			derived[rel] = true
		}
	}
	if len(derived) == len(diff) {
		clear(derived) // the commit changed nothing else: undo it as it is
	}
	var changes []Change
	var olds []string
	var oldAt []int
	for _, d := range diff {
		rel, _ := strings.CutPrefix(d.Path, prefix)
		if derived[rel] {
			continue
		}
		// The file must still be as the commit left it.
		cur, err := s.ReadFile(rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if d.To.Mode != 0 {
				return nil, CommitInfo{}, fmt.Errorf("%s has changed since (it was removed)", rel)
			}
		case err != nil:
			return nil, CommitInfo{}, err
		case d.To.Mode == 0:
			return nil, CommitInfo{}, fmt.Errorf("%s has changed since (it was created again)", rel)
		case blobHash(cur, len(d.To.Hash)) != d.To.Hash:
			return nil, CommitInfo{}, fmt.Errorf("%s has changed since", rel)
		}
		if d.From.Mode == 0 {
			changes = append(changes, Change{Path: rel, Delete: true})
			continue
		}
		if d.From.Mode != 0o100644 && d.From.Mode != 0o100755 {
			return nil, CommitInfo{}, fmt.Errorf("%s was not a regular file", rel)
		}
		olds = append(olds, d.From.Hash)
		oldAt = append(oldAt, len(changes))
		changes = append(changes, Change{Path: rel})
	}
	if len(changes) == 0 {
		return nil, CommitInfo{}, errors.New("changed no files")
	}
	blobs, err := obj.readBlobs(ctx, olds)
	if err != nil {
		return nil, CommitInfo{}, err
	}
	for i, at := range oldAt {
		changes[at].Data = blobs[i]
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	info := CommitInfo{
		Action: ActionUndo,
		Slug:   e.Slug,
		Body:   fmt.Sprintf("Undo %.12s %q.", c.Hash, e.Subject),
		Trailers: []Trailer{
			{Key: TrailerUndo, Value: c.Hash},
		},
	}
	return changes, info, nil
}

// blobHash is the name git gives data as a blob, in the repository's hash:
// SHA-1 for names of 40 hex digits, SHA-256 for 64.
func blobHash(data []byte, hexLen int) string {
	var h hash.Hash = sha1.New()
	if hexLen == 64 {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
