package gitstore

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestWriteLoose: a loose object mem writes is the object git writes for
// the same content (same name, and git reads it back byte for byte), a
// second write of it leaves the first alone, and no temporary file stays.
func TestWriteLoose(t *testing.T) {
	repo, s := newRepo(t)
	objects := filepath.Join(s.CommonDir, "objects")
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"text", "the release job times out after 30s\n"},
		{"large", strings.Repeat("a memory of many lines\n", 20000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := writeLoose(objects, plumbing.BlobObject, []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			src := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(src, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSpace(run(t, repo, "hash-object", src)); h.String() != want {
				t.Fatalf("name %s, git names it %s", h, want)
			}
			if got := run(t, repo, "cat-file", "blob", h.String()); got != strings.TrimSpace(tt.data) { // run trims
				t.Fatalf("git reads back %d bytes, want %d", len(got), len(tt.data))
			}
			path := filepath.Join(objects, h.String()[:2], h.String()[2:])
			before, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := writeLoose(objects, plumbing.BlobObject, []byte(tt.data)); err != nil {
				t.Fatal(err)
			}
			after, _ := os.Stat(path)
			if !os.SameFile(before, after) {
				t.Error("a second write replaced the object")
			}
			left, _ := filepath.Glob(filepath.Join(objects, "*", "tmp_obj_*"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestReadLoose: readLoose reads back the objects git and mem write, and
// refuses, rather than misreads, one of another type or one that is cut
// short or damaged; an object that is not loose is fs.ErrNotExist.
func TestReadLoose(t *testing.T) {
	repo, s := newRepo(t)
	objects := filepath.Join(s.CommonDir, "objects")
	large := strings.Repeat("a memory of many lines\n", 20000)
	mine, err := writeLoose(objects, plumbing.BlobObject, []byte(large))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "f")
	write(t, src, "written by git\n")
	gits := plumbing.NewHash(run(t, repo, "hash-object", "-w", src))
	for _, tc := range []struct {
		name string
		h    plumbing.Hash
		want string
	}{{"mem's", mine, large}, {"git's", gits, "written by git\n"}} {
		if got, err := readLoose(objects, plumbing.BlobObject, tc.h); err != nil || string(got) != tc.want {
			t.Errorf("%s object: %d bytes, %v; want %d bytes", tc.name, len(got), err, len(tc.want))
		}
	}
	if _, err := readLoose(objects, plumbing.TreeObject, gits); !errors.Is(err, errLooseFormat) {
		t.Errorf("a blob read as a tree: %v, want errLooseFormat", err)
	}
	if _, err := readLoose(objects, plumbing.BlobObject, plumbing.NewHash(strings.Repeat("ab", 20))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing object: %v, want fs.ErrNotExist", err)
	}
	// Damaged copies of mem's object, in place of git's.
	path := func(h plumbing.Hash) string { return filepath.Join(objects, h.String()[:2], h.String()[2:]) }
	whole, err := os.ReadFile(path(mine))
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)-1] ^= 0xff // the checksum's last byte
	for name, data := range map[string][]byte{"cut short": whole[:len(whole)/2], "checksum": flipped} {
		os.Chmod(path(gits), 0o644)
		if err := os.WriteFile(path(gits), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := readLoose(objects, plumbing.BlobObject, gits); err == nil {
			t.Errorf("%s: read %d bytes without an error", name, len(got))
		}
	}
}

// FuzzReadLoose: whatever a loose object file inflates to, readLoose
// returns an error or exactly the bytes its header announces.
func FuzzReadLoose(f *testing.F) {
	f.Add([]byte("tree 3\x00abc"))
	f.Add([]byte("tree 10\x00abc"))
	f.Add([]byte("tree\x00"))
	f.Add([]byte("tree 999999999999999\x00abc"))
	f.Fuzz(func(t *testing.T, content []byte) {
		objects := t.TempDir()
		h := plumbing.NewHash(strings.Repeat("cd", 20))
		dir := filepath.Join(objects, "cd")
		var buf bytes.Buffer
		zw := zlib.NewWriter(&buf)
		zw.Write(content)
		zw.Close()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.Repeat("cd", 19)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := readLoose(objects, plumbing.TreeObject, h)
		if err != nil {
			return
		}
		head, body, _ := bytes.Cut(content, []byte{0})
		if want := "tree " + strconv.Itoa(len(body)); string(head) != want || !bytes.Equal(data, body) {
			t.Errorf("read %q from %q", data, content)
		}
	})
}
