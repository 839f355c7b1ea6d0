package mem

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMapNamesEveryPackage keeps docs/architecture.md a map of the code as
// it is: every package (but the benchmarks' commands and the end-to-end
// suites, which the map names as internal/e2e) is named in it, so a package
// added or moved without its place on the map fails here.
func TestMapNamesEveryPackage(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goTool, "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, "github.com/mem-dev/mem/")
		if !ok || strings.HasPrefix(rel, "bench/") || strings.HasPrefix(rel, "internal/e2e/") {
			continue
		}
		if !regexp.MustCompile(`(^|[\s(` + "`" + `])` + regexp.QuoteMeta(rel) + `($|[\s),.:;` + "`" + `])`).Match(doc) {
			t.Errorf("docs/architecture.md does not name %s: give it its place on the map", rel)
		}
	}
}
