package gitstore

import (
	"os"
	"path/filepath"
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
