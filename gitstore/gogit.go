package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// goGitMu serialises go-git use: it is not safe for concurrent use.
var goGitMu sync.Mutex

// goGitObjects implements objects in process with go-git: objects are read
// from the repository's loose objects and packs and written as loose
// objects, HEAD is read from its files. What go-git does not do as git
// does is left to cli: an identity configured beyond what identities reads,
// a revision ResolveRevision does not know, an index format readIndexEntries
// does not read.
//
// It uses go-git's storage and object packages only, not its repository
// type: that one brings the transports (ssh, http) and their start-up cost
// into every command, for a tool that never fetches.
type goGitObjects struct {
	s   *Store
	st  *filesystem.Storage
	cli cliObjects
}

// again runs f, and once more after reading the repository's packs afresh
// when an object was not found: go-git lists the packs once, and a store
// kept open (mem mcp, mem serve) outlives the user's git gc, which packs and
// prunes the loose objects it had read. Call with goGitMu held.
func (g *goGitObjects) again(f func() error) error {
	err := f()
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		g.st.Reindex()
		err = f()
	}
	return err
}

var _ objects = (*goGitObjects)(nil)

// openGoGit opens the store's repository with go-git, from its git
// directories as locate found them (linked worktrees, GIT_DIR set apart).
// It fails for what go-git cannot read, SHA-256 repositories among them
// ("unknown extension: objectformat").
func openGoGit(s *Store) (*goGitObjects, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	fs := dotgit.NewRepositoryFilesystem(osfs.New(s.GitDir, osfs.WithBoundOS()), osfs.New(s.CommonDir, osfs.WithBoundOS()))
	st := filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
	// What git.Open checks: a configuration go-git reads, of a format
	// version it knows, with no extension but the no-ops (git.Open refuses
	// every other, objectformat=sha256 and worktreeConfig among them).
	cfg, err := st.Config()
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	if v := cfg.Core.RepositoryFormatVersion; v != "" && v != "0" && v != "1" {
		return nil, fmt.Errorf("open repository: repository format version %s not supported", v)
	}
	if cfg.Raw != nil && cfg.Raw.HasSection("extensions") {
		for _, o := range cfg.Raw.Section("extensions").Options {
			if k := strings.ToLower(o.Key); k != "noop" && k != "noop-v1" {
				return nil, fmt.Errorf("open repository: unknown extension: %s", k)
			}
		}
	}
	return &goGitObjects{s: s, st: st, cli: cliObjects{s}}, nil
}

// headRef is HEAD resolved to the reference it names.
func (g *goGitObjects) headRef() (*plumbing.Reference, error) {
	return storer.ResolveReference(g.st, plumbing.HEAD)
}

// resolve names the commit rev stands for: a full hash, HEAD, or a
// reference, whole or as a branch or tag name. What else git reads as a
// revision is left to the caller's fallback (an error here).
func (g *goGitObjects) resolve(rev string) (plumbing.Hash, error) {
	if plumbing.IsHash(rev) {
		return plumbing.NewHash(rev), nil
	}
	for _, name := range []string{rev, "refs/heads/" + rev, "refs/tags/" + rev} {
		if ref, err := storer.ResolveReference(g.st, plumbing.ReferenceName(name)); err == nil {
			return ref.Hash(), nil
		}
	}
	return plumbing.ZeroHash, plumbing.ErrReferenceNotFound
}

func (g *goGitObjects) head(ctx context.Context) (commit, tree string, err error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	ref, err := g.headRef()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("read HEAD: %w", err)
	}
	var c *object.Commit
	if err := g.again(func() (err error) { c, err = object.GetCommit(g.st, ref.Hash()); return err }); err != nil {
		return "", "", fmt.Errorf("read HEAD: %w", err)
	}
	return c.Hash.String(), c.TreeHash.String(), nil
}

func (g *goGitObjects) indexEntries(ctx context.Context, index string, paths []string) ([]entry, error) {
	entries, err := readIndexEntries(index, paths, 20)
	if errors.Is(err, errIndexFormat) {
		return g.cli.indexEntries(ctx, index, paths)
	}
	return entries, err
}

func (g *goGitObjects) indexStates(ctx context.Context, index string, paths []string) ([]pathState, error) {
	states, err := readIndexStates(index, paths, 20)
	if errors.Is(err, errIndexFormat) {
		return g.cli.indexStates(ctx, index, paths)
	}
	return states, err
}

func (g *goGitObjects) writeTree(ctx context.Context, base string, entries []entry) (string, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	byDir := map[string][]entry{} // dir ("" for the top) -> its entries
	for _, e := range entries {
		byDir[path.Dir(e.Path)] = append(byDir[path.Dir(e.Path)], e)
	}
	var h plumbing.Hash
	err := g.again(func() (err error) {
		h, _, err = g.updateTree(plumbing.NewHash(base), base == "", "", byDir)
		return err
	})
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// updateTree writes the tree at dir (hash h, or none when absent) with the
// entries of byDir under it applied, and returns it; empty reports a tree
// left with no entries, which its parent drops as git does.
func (g *goGitObjects) updateTree(h plumbing.Hash, absent bool, dir string, byDir map[string][]entry) (plumbing.Hash, bool, error) {
	var tes []treeEntry
	if !absent {
		data, err := g.readTree(h)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s: %w", dir, err)
		}
		var sorted bool
		if tes, sorted, err = parseTree(data); err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s: %w", dir, err)
		}
		if !sorted {
			slices.SortStableFunc(tes, compareTreeEntries)
		}
	}
	key := dir
	if key == "" {
		key = "."
	}
	for _, e := range byDir[key] {
		tes = setTreeEntry(tes, treeEntry{mode: modeBytes(e.Mode), name: []byte(path.Base(e.Path)), hash: plumbing.NewHash(e.Hash)}, e.Mode == 0)
	}
	// Subdirectories that hold changed entries, at any depth.
	subs := map[string]bool{}
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	for d := range byDir {
		if d == "." || !strings.HasPrefix(d, prefix) || d == dir {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(d, prefix), "/")
		subs[name] = true
	}
	for name := range subs {
		var cur plumbing.Hash
		present := false
		for _, te := range tes {
			if string(te.name) == name && te.isDir() {
				cur, present = te.hash, true
			}
		}
		if !present {
			// A file of that name gives way to the directory, as in git.
			tes = setTreeEntry(tes, treeEntry{name: []byte(name)}, true)
		}
		sh, empty, err := g.updateTree(cur, !present, path.Join(dir, name), byDir)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		tes = setTreeEntry(tes, treeEntry{mode: dirMode, name: []byte(name), hash: sh}, empty)
	}
	sh, err := writeLoose(filepath.Join(g.s.CommonDir, "objects"), plumbing.TreeObject, encodeTree(tes))
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("write tree: %w", err)
	}
	return sh, len(tes) == 0, nil
}

func (g *goGitObjects) writeCommit(ctx context.Context, tree, parent, msg string) (string, error) {
	author, committer, ok := g.s.identities(time.Now())
	if !ok {
		return g.cli.writeCommit(ctx, tree, parent, msg)
	}
	goGitMu.Lock()
	defer goGitMu.Unlock()
	c := &object.Commit{Author: author, Committer: committer, Message: msg, TreeHash: plumbing.NewHash(tree)}
	if parent != "" {
		c.ParentHashes = []plumbing.Hash{plumbing.NewHash(parent)}
	}
	h, err := g.write(c)
	if err != nil {
		return "", fmt.Errorf("write commit: %w", err)
	}
	return h.String(), nil
}

// write encodes o and writes it as a loose object (writeLoose).
func (g *goGitObjects) write(o interface {
	Encode(plumbing.EncodedObject) error
}) (plumbing.Hash, error) {
	obj := &plumbing.MemoryObject{}
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	r, err := obj.Reader()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return writeLoose(filepath.Join(g.s.CommonDir, "objects"), obj.Type(), data)
}

func (g *goGitObjects) readCommit(ctx context.Context, rev string) (commitObject, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return commitObject{}, fmt.Errorf("bad revision %q", rev)
	}
	goGitMu.Lock()
	var c *object.Commit
	err := g.again(func() error {
		h, err := g.resolve(rev)
		if err == nil {
			c, err = object.GetCommit(g.st, h)
		}
		return err
	})
	goGitMu.Unlock()
	if err != nil {
		return g.cli.readCommit(ctx, rev) // git knows more revisions than go-git
	}
	return goGitCommit(c), nil
}

// goGitCommit is a go-git commit as mem reads one.
func goGitCommit(c *object.Commit) commitObject {
	co := commitObject{
		Hash: c.Hash.String(), Tree: c.TreeHash.String(),
		Author: fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email), Time: inOffset(c.Author.When), Message: c.Message,
	}
	for _, p := range c.ParentHashes {
		co.Parents = append(co.Parents, p.String())
	}
	return co
}

func (g *goGitObjects) diffTree(ctx context.Context, from, to string) ([]change, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	tree := func(h string) (*object.Tree, error) {
		if h == "" {
			return nil, nil
		}
		return object.GetTree(g.st, plumbing.NewHash(h))
	}
	var diff object.Changes
	err := g.again(func() error {
		ft, err := tree(from)
		if err != nil {
			return fmt.Errorf("read tree: %w", err)
		}
		tt, err := tree(to)
		if err != nil {
			return fmt.Errorf("read tree: %w", err)
		}
		diff, err = object.DiffTree(ft, tt)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	var changes []change
	for _, d := range diff {
		ch := change{Path: d.To.Name}
		if ch.Path == "" {
			ch.Path = d.From.Name
		}
		if d.From.Name != "" {
			ch.From = entry{Path: d.From.Name, Mode: uint32(d.From.TreeEntry.Mode), Hash: d.From.TreeEntry.Hash.String()}
		}
		if d.To.Name != "" {
			ch.To = entry{Path: d.To.Name, Mode: uint32(d.To.TreeEntry.Mode), Hash: d.To.TreeEntry.Hash.String()}
		}
		changes = append(changes, ch)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

func (g *goGitObjects) readBlobs(ctx context.Context, hashes []string) ([][]byte, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	blobs := make([][]byte, len(hashes))
	for i, h := range hashes {
		var b *object.Blob
		err := g.again(func() (err error) { b, err = object.GetBlob(g.st, plumbing.NewHash(h)); return err })
		if err != nil {
			return nil, fmt.Errorf("read blob %s: %w", h, err)
		}
		r, err := b.Reader()
		if err != nil {
			return nil, err
		}
		blobs[i], err = io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, err
		}
	}
	return blobs, nil
}

func (g *goGitObjects) blobName(data []byte) (string, bool) {
	return plumbing.ComputeHash(plumbing.BlobObject, data).String(), true
}

func (g *goGitObjects) close() {}
