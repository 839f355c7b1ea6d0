package search

import (
	"os/exec"
	"strings"
	"testing"
)

// The prompt path links search and eval: they must import only the standard
// library, each other, internal/atomicfile, internal/class, internal/document and
// internal/rawfile.
func TestStdlibOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go list in -short mode")
	}
	out, err := exec.Command("go", "list", "-deps", ".", "../internal/eval").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(p, "/")
		if strings.Contains(first, ".") && p != "github.com/mem-dev/mem/search" && p != "github.com/mem-dev/mem/internal/eval" &&
			p != "github.com/mem-dev/mem/internal/atomicfile" && p != "github.com/mem-dev/mem/internal/class" &&
			p != "github.com/mem-dev/mem/internal/document" &&
			p != "github.com/mem-dev/mem/internal/rawfile" {
			t.Errorf("search/eval depend on %s", p)
		}
	}
}
