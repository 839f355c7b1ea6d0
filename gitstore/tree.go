package gitstore

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// A tree object as git encodes it, read and written here without go-git's
// Tree: a store's directory holds an entry per memory, and decoding the tree
// into objects and encoding it back through fmt took a third of a commit's
// object writing at a thousand memories. Each entry is "<octal mode> <name>",
// a NUL and the 20 bytes of the object's name; entries are ordered by name,
// a directory's compared as if it ended in "/".

// treeEntry is one entry of a tree; mode and name point into the tree's data.
type treeEntry struct {
	mode, name []byte
	hash       plumbing.Hash
}

// dirMode is a subtree's mode as git writes it.
var dirMode = []byte("40000")

func (e treeEntry) isDir() bool { return bytes.Equal(e.mode, dirMode) }

var errTreeFormat = errors.New("malformed tree object")

// parseTree reads a tree object's entries; sorted reports whether they are in
// git's order (a tree another tool wrote may not be).
func parseTree(data []byte) (entries []treeEntry, sorted bool, err error) {
	// Counted first, to be allocated once: a store's tree has thousands.
	n := 0
	for rest := data; ; n++ {
		nul := bytes.IndexByte(rest, 0)
		if nul < 0 || len(rest) < nul+1+len(plumbing.Hash{}) {
			break
		}
		rest = rest[nul+1+len(plumbing.Hash{}):]
	}
	entries = make([]treeEntry, 0, n+1) // +1: the entry a commit adds
	sorted = true
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, false, errTreeFormat
		}
		nul := bytes.IndexByte(data[sp+1:], 0)
		if nul <= 0 || len(data) < sp+1+nul+1+len(plumbing.Hash{}) {
			return nil, false, errTreeFormat
		}
		e := treeEntry{mode: data[:sp], name: data[sp+1 : sp+1+nul]}
		rest := data[sp+1+nul+1:]
		copy(e.hash[:], rest)
		data = rest[len(e.hash):]
		if n := len(entries); n > 0 && compareTreeEntries(entries[n-1], e) >= 0 {
			sorted = false
		}
		entries = append(entries, e)
	}
	return entries, sorted, nil
}

// compareTreeEntries orders entries as git does.
func compareTreeEntries(a, b treeEntry) int {
	n := min(len(a.name), len(b.name))
	if c := bytes.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nextKeyByte(a, n), nextKeyByte(b, n))
}

// nextKeyByte is the byte of e's sort key at i, past its name: "/" for a
// directory, 0 (the end) otherwise.
func nextKeyByte(e treeEntry, i int) int {
	switch {
	case i < len(e.name):
		return int(e.name[i])
	case i == len(e.name) && e.isDir():
		return '/'
	}
	return 0
}

// encodeTree is the tree object of entries.
func encodeTree(entries []treeEntry) []byte {
	size := 0
	for _, e := range entries {
		size += len(e.mode) + 1 + len(e.name) + 1 + len(e.hash)
	}
	out := make([]byte, 0, size)
	for _, e := range entries {
		out = append(out, e.mode...)
		out = append(out, ' ')
		out = append(out, e.name...)
		out = append(out, 0)
		out = append(out, e.hash[:]...)
	}
	return out
}

// setTreeEntry puts e in entries, replacing the entry of its name, in git's
// order; remove drops the entry of e's name instead.
func setTreeEntry(entries []treeEntry, e treeEntry, remove bool) []treeEntry {
	if i := slices.IndexFunc(entries, func(x treeEntry) bool { return bytes.Equal(x.name, e.name) }); i >= 0 {
		entries = slices.Delete(entries, i, i+1)
	}
	if remove {
		return entries
	}
	i, _ := slices.BinarySearchFunc(entries, e, compareTreeEntries)
	return slices.Insert(entries, i, e)
}

// modeBytes is mode as a tree writes it, in octal without leading zeros.
func modeBytes(mode uint32) []byte { return strconv.AppendUint(nil, uint64(mode), 8) }

// readTree is the data of the tree object h: loose, as mem's own commits
// leave the store's tree, read directly (readLoose), else through go-git.
func (g *goGitObjects) readTree(h plumbing.Hash) ([]byte, error) {
	data, err := readLoose(filepath.Join(g.s.CommonDir, "objects"), plumbing.TreeObject, h)
	if !errors.Is(err, fs.ErrNotExist) {
		return data, err
	}
	o, err := g.st.EncodedObject(plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data = make([]byte, o.Size())
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return data, nil
}
