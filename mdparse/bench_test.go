package mdparse

import (
	"fmt"
	"testing"
	"time"
)

// corpus is n small memory files like the ones mem stores.
func corpus(n int) [][]byte {
	files := make([][]byte, n)
	for i := range files {
		files[i] = New(Fields{
			Name:        fmt.Sprintf("Memory number %d about checkout", i),
			Description: "VAT is rounded per order line, never on the order total",
			Class:       "gotcha",
			Importance:  7,
			Modified:    time.Date(2026, 11, 20, 10, 31, 0, 0, time.UTC),
			Tags:        []string{"checkout", "vat"},
		}, "Rounding the total is off by one cent on **multi-item** orders.\n"+
			"See `shop/checkout/tax.py` and [the ADR](docs/adr/0003-rounding.md).\n\n"+
			"- run `make check`\n- deploy with ./scripts/deploy.sh\n").Bytes()
	}
	return files
}

// BenchmarkParse500 parses and extracts 500 small memories, as an index
// rebuild does.
func BenchmarkParse500(b *testing.B) {
	files := corpus(500)
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			m, err := Parse("m.md", f)
			if err != nil {
				b.Fatal(err)
			}
			ExtractBody(m.Body)
		}
	}
}

func BenchmarkSet(b *testing.B) {
	f := corpus(1)[0]
	for range b.N {
		m, _ := Parse("m.md", f)
		if err := m.Set(KeyUnverified, []string{"path x does not exist"}); err != nil {
			b.Fatal(err)
		}
	}
}
