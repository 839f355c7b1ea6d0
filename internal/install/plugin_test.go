package install

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestPluginFiles keeps the committed plugin and marketplace equal to what
// PluginFiles renders (refresh with -update).
func TestPluginFiles(t *testing.T) {
	files, err := PluginFiles()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	for name, want := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if *update {
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, want, 0o644))
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/install -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what PluginFiles renders (run go test ./internal/install -update):\n%s", name, got)
		}
	}
}
