package secrets

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

func BenchmarkScanReal(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Need(b, "eval", "store"), "*.md"))
	var texts []string
	size := 0
	for _, f := range files {
		d, _ := os.ReadFile(f)
		texts = append(texts, string(d))
		size += len(d)
	}
	if len(texts) == 0 {
		b.Fatal("the eval store holds no memories")
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, t := range texts {
			Scan(t)
		}
	}
}
