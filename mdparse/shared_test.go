package mdparse

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// sharedFiles returns the .md files under dirs (in the shared data), or
// skips the test when the shared data is not there.
func sharedFiles(t testing.TB, dirs ...string) []string {
	t.Helper()
	var files []string
	for _, d := range dirs {
		root := shareddata.Need(t, d)
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".md") && e.Type().IsRegular() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

func TestSharedFilesRoundTrip(t *testing.T) {
	files := sharedFiles(t, filepath.Join("external", "memory-files"), filepath.Join("eval", "store"))
	if len(files) < 100 {
		t.Fatalf("found only %d .md files", len(files))
	}
	classes := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(f, data)
		if err != nil {
			t.Errorf("parse: %v", err)
			continue
		}
		if !bytes.Equal(m.Bytes(), data) {
			t.Errorf("%s: round trip is not byte-exact", f)
		}
		if m.Name == "" {
			t.Errorf("%s: no name", f)
		}
		classes[m.Class]++
		// An edit touches only its own line.
		if m.HasFrontmatter() {
			if err := m.Set(KeyUnverified, []string{"path x/y.go does not exist (2026-11-21)"}); err != nil {
				t.Errorf("%s: set: %v", f, err)
				continue
			}
			if err := m.Unset(KeyUnverified); err != nil {
				t.Errorf("%s: unset: %v", f, err)
				continue
			}
			if !bytes.Equal(m.Bytes(), data) {
				t.Errorf("%s: set then unset of a new key changed the file:\n%s", f, m.Bytes())
			}
		}
		ExtractBody(m.Body)
	}
	t.Logf("%d files; classes: %v", len(files), classes)
}

func TestSharedStoreOverBudget(t *testing.T) {
	path := shareddata.Need(t, "eval", "store", "MEMORY.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b := MeasureCatalog("MEMORY.md", data)
	if b.Fits {
		t.Fatalf("eval store MEMORY.md fits: %+v", b)
	}
	lines := strings.Split(string(data), "\n")
	if b.CutLine < 2 || b.CutLine > 201 || b.CutLine > len(lines) {
		t.Fatalf("cut line %d out of range", b.CutLine)
	}
	// Everything above the cut is within both limits.
	above := strings.Join(lines[:b.CutLine-1], "\n") + "\n"
	if len(above) > CatalogMaxBytes {
		t.Errorf("%d bytes above the cut", len(above))
	}
	if len(b.Hidden) == 0 {
		t.Fatal("nothing hidden")
	}
	t.Logf("lines=%d bytes=%d cut=%d hidden=%d first=%q line=%q", b.Lines, b.Bytes, b.CutLine, len(b.Hidden), b.Hidden[0], lines[b.CutLine-1])
}

// TestSharedCatalogs measures the real MEMORY.md and CLAUDE.md files:
// each budget must agree with the file and with the other kind's.
func TestSharedCatalogs(t *testing.T) {
	files := sharedFiles(t, filepath.Join("external", "memory-files"))
	measured := 0
	for _, f := range files {
		base := filepath.Base(f)
		if base != "MEMORY.md" && base != "CLAUDE.md" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		measured++
		mem, claude, warn := checkMeasure(t, f, data)
		if base == "MEMORY.md" && !mem.Fits {
			t.Logf("%s: over: lines=%d bytes=%d cut=%d hidden=%d", f, mem.Lines, mem.Bytes, mem.CutLine, len(mem.Hidden))
		}
		if base == "CLAUDE.md" && (warn || !claude.Fits) {
			t.Logf("%s: lines=%d bytes=%d warn=%v", f, claude.Lines, claude.Bytes, warn)
		}
	}
	if measured == 0 {
		t.Fatal("no MEMORY.md or CLAUDE.md in the shared data")
	}
}
