package gitstore

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// A tree git wrote reads back into its entries, in git's order, and encodes
// to the same bytes.
func TestParseTreeRoundTrip(t *testing.T) {
	repo, s := newRepo(t)
	for _, name := range []string{"x.md", "x-y.md", "x/z.md", "x0.md"} {
		write(t, filepath.Join(s.Root, name), name+"\n")
	}
	run(t, repo, "add", "-A")
	tree := run(t, repo, "write-tree", "--prefix=.claude/agent-memory/")
	cmd := exec.Command("git", "cat-file", "tree", tree)
	cmd.Dir = repo
	data, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	entries, sorted, err := parseTree(data)
	if err != nil || !sorted {
		t.Fatalf("parseTree: sorted %v, %v", sorted, err)
	}
	if got, want := treeNames(entries), "x-y.md x.md x/ x0.md"; got != want {
		t.Errorf("entries %q, want %q", got, want)
	}
	if got := encodeTree(entries); !bytes.Equal(got, data) {
		t.Errorf("encoded again:\n%q\nwant\n%q", got, data)
	}
	if h := plumbing.ComputeHash(plumbing.TreeObject, encodeTree(entries)).String(); h != tree {
		t.Errorf("hash %s, want %s", h, tree)
	}
}

func TestParseTreeMalformed(t *testing.T) {
	hash := strings.Repeat("\x01", 20)
	for _, data := range []string{
		"100644",                   // no space
		" a\x00" + hash,            // no mode
		"100644 \x00" + hash,       // no name
		"100644 a" + hash,          // no NUL
		"100644 a\x00" + hash[:19], // short hash
	} {
		if _, _, err := parseTree([]byte(data)); err == nil {
			t.Errorf("parseTree(%q): no error", data)
		}
	}
	if es, sorted, err := parseTree([]byte("100644 b\x00" + hash + "100644 a\x00" + hash)); err != nil || sorted || len(es) != 2 {
		t.Errorf("unsorted tree: %d entries, sorted %v, %v", len(es), sorted, err)
	}
}

// setTreeEntry keeps git's order: a directory sorts as if its name ended
// in "/".
func TestSetTreeEntry(t *testing.T) {
	file := func(name string) treeEntry { return treeEntry{mode: []byte("100644"), name: []byte(name)} }
	dir := func(name string) treeEntry { return treeEntry{mode: dirMode, name: []byte(name)} }
	tests := []struct {
		name   string
		start  []treeEntry
		set    treeEntry
		remove bool
		want   string
	}{
		{"into nothing", nil, file("a"), false, "a"},
		{"a file before a longer name", []treeEntry{file("a.md")}, file("a"), false, "a a.md"},
		{"a directory after it", []treeEntry{file("a.md")}, dir("a"), false, "a.md a/"},
		{"a directory before 0", []treeEntry{file("a0")}, dir("a"), false, "a/ a0"},
		{"replaces the entry of its name", []treeEntry{file("a"), file("b")}, dir("a"), false, "a/ b"},
		{"removes", []treeEntry{file("a"), file("b")}, file("a"), true, "b"},
		{"removes nothing missing", []treeEntry{file("a")}, file("z"), true, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := treeNames(setTreeEntry(slices.Clone(tt.start), tt.set, tt.remove)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// treeNames lists entries' names in order, a directory's ending in "/".
func treeNames(entries []treeEntry) string {
	var names []string
	for _, e := range entries {
		n := string(e.name)
		if e.isDir() {
			n += "/"
		}
		names = append(names, n)
	}
	return strings.Join(names, " ")
}

// FuzzParseTree: a tree object from anywhere never panics the parser, and
// what it reads encodes back to the same bytes.
func FuzzParseTree(f *testing.F) {
	hash := strings.Repeat("\xab", 20)
	f.Add([]byte("100644 a.md\x00" + hash + "40000 x\x00" + hash))
	f.Add([]byte("100644 a\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _, err := parseTree(data)
		if err != nil {
			return
		}
		if got := encodeTree(entries); !bytes.Equal(got, data) {
			t.Errorf("encoded again: %q, want %q", got, data)
		}
	})
}
