package search

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStatterMatchesStat: the stamps a full check takes through an open
// directory are the stamps Stat takes, whatever the path names, so a cache
// built with one is judged fresh by the other.
func TestStatterMatchesStat(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, "a.md"), "one")
	write(filepath.Join(sub, "b.md"), "two two")
	if err := os.Symlink(filepath.Join(sub, "b.md"), filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone.md"), filepath.Join(dir, "dangling.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sub, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		kind SourceKind
	}{
		{"file", filepath.Join(dir, "a.md"), SourceFile},
		{"file in another directory", filepath.Join(sub, "b.md"), SourceFile},
		{"back to the first directory", filepath.Join(dir, "a.md"), SourceFile},
		{"missing file", filepath.Join(dir, "missing.md"), SourceFile},
		{"missing directory", filepath.Join(dir, "nodir", "c.md"), SourceFile},
		{"symbolic link, followed", filepath.Join(dir, "link.md"), SourceFile},
		{"dangling link", filepath.Join(dir, "dangling.md"), SourceFile},
		{"file through a linked directory", filepath.Join(dir, "linkdir", "b.md"), SourceFile},
		{"directory", sub, SourceDir},
		{"directory as a file", sub, SourceFile},
		{"trailing slash", sub + "/", SourceDir},
		{"relative", "a.md", SourceFile},
		{"root", "/", SourceDir},
		{"a file as a directory", filepath.Join(dir, "a.md", "x.md"), SourceFile},
	}
	st := newStatter()
	defer st.close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := st.stat(tt.path, tt.kind), Stat(tt.path, tt.kind); got != want {
				t.Errorf("statter %+v, Stat %+v", got, want)
			}
		})
	}
	var paths []string
	for _, tt := range tests {
		paths = append(paths, tt.path)
	}
	for i, got := range StatFiles(paths) {
		if want := Stat(paths[i], SourceFile); got != want {
			t.Errorf("StatFiles %q: %+v, Stat %+v", paths[i], got, want)
		}
	}
	// A file replaced under an open directory is seen as it is now.
	p := filepath.Join(dir, "a.md")
	before := st.stat(p, SourceFile)
	write(p+".tmp", "replaced, longer")
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
	if got, want := st.stat(p, SourceFile), Stat(p, SourceFile); got != want || got == before {
		t.Errorf("after a rename: statter %+v, Stat %+v, before %+v", got, want, before)
	}
}
