package mcptool

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		name, want string
		ok         bool
	}{
		{"mcp__mem__memory_store", Store, true},
		{"mcp__plugin_mem_mem__context_query", Query, true},
		{"mcp__memory_show", Show, true},
		{"memory_store", "", false},             // not an MCP tool's name
		{"mcp__other__search", "", false},       // another server's tool
		{"mcp__mem__memory_storage", "", false}, // not one of ours
		{"Bash", "", false},
	} {
		got, ok := Of(c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("Of(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
