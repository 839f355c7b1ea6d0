package enrich

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
)

// On every memory of the eval store, the memory's own name, description and
// tags, offered back as aliases, are all dropped.
func TestFilterDropsOwnTermsOnEvalStore(t *testing.T) {
	dir := shareddata.Need(t, "eval", "store")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".md") || e.Name() == "MEMORY.md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := mdparse.Parse(e.Name(), data)
		if err != nil {
			continue
		}
		n++
		own := []string{m.Name, strings.ToUpper(m.Name), strings.Join(m.Tags, " ")}
		if len(m.Description) <= MaxAliasLen {
			own = append(own, m.Description)
		}
		if kept, _ := Filter(m, own); len(kept) > 0 {
			t.Errorf("%s: kept its own terms %q", e.Name(), kept)
		}
	}
	if n == 0 {
		t.Fatal("no memories read")
	}
}
