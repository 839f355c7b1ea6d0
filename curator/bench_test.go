package curator

import (
	"context"
	"testing"
)

func BenchmarkRunFixture(b *testing.B) {
	mems, _ := fixture(b)
	for b.Loop() {
		if _, err := Run(context.Background(), mems, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
