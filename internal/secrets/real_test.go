package secrets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// expectedReal lists the findings the real memory files are known to hold,
// as "path:line: pattern", with the reason each is right to flag.
var expectedReal = map[string]string{}

// Memories written by others, and the project's own eval store, are what mem
// stores every day: none of them holds a credential, so none may be flagged.
func TestRealMemoryFiles(t *testing.T) {
	roots := []string{shareddata.Need(t, "eval", "store"), shareddata.Need(t, "external", "memory-files")}
	n := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n++
			rel, _ := filepath.Rel(shareddata.Path(), path)
			for _, f := range Scan(string(b)) {
				key := fmt.Sprintf("%s:%d: %s", rel, f.Line, f.Pattern)
				if _, ok := expectedReal[key]; ok {
					continue
				}
				t.Errorf("%s (%s)", key, f.Excerpt)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n == 0 {
		t.Fatalf("no memory files under %v: nothing was checked", roots)
	}
	t.Logf("scanned %d memory files", n)
}
