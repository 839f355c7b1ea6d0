package mcpserver

import "testing"

// BenchmarkNew measures what building the server costs each `mem mcp`
// before it can answer: the tools and their schemas.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		New(nil, "bench")
	}
}
