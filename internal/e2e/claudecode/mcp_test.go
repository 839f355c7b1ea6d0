package claudecode

import (
	"slices"
	"strings"
	"testing"
)

// With mem's MCP server registered (mem install --mcp), the model finds its
// tools the way Claude Code offers them: listed by name, their schemas
// loaded by a ToolSearch; context_query answers with the memory and
// memory_store commits a new one.
func TestMCP(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("install", "--mcp")
	before := strings.TrimSpace(w.git("rev-parse", "HEAD"))

	s := w.claude(".", "hello", steps(
		call("ToolSearch", map[string]any{"query": "select:mcp__mem__context_query,mcp__mem__memory_store"}),
		call("mcp__mem__context_query", map[string]any{"query": "spanish VAT rounding on checkout orders"}),
		call("mcp__mem__memory_store", map[string]any{"name": "Refunds reuse the VAT of the order line",
			"content": "A refund takes the VAT of its order line, not a new rounding.", "class": "fact", "tags": []string{"checkout", "refund"}}),
		say("Done."),
	))
	first := s.reqs[0]
	if slices.Contains(first.ToolNames(), "mcp__mem__context_query") {
		t.Fatalf("the first request already had the MCP schemas: %q (Claude Code defers them)", first.ToolNames())
	}
	if !strings.Contains(allText(first), "mcp__mem__context_query") {
		t.Fatal("the first request does not list mcp__mem__context_query among the deferred tools")
	}
	if names := s.last().ToolNames(); !slices.Contains(names, "mcp__mem__context_query") || !slices.Contains(names, "mcp__mem__memory_store") {
		t.Fatalf("after ToolSearch the tools are %q, want mem's", names)
	}
	results := s.toolResults()
	if len(results) != 3 {
		t.Fatalf("tool results %q, want 3", results)
	}
	if !strings.Contains(results[1], "spanish-vat-rounds-per-line") || !strings.Contains(results[1], "Rounding the total is off by one cent") {
		t.Fatalf("context_query answered %q, want the VAT memory", results[1])
	}
	t.Logf("context_query's result the model received:\n%s", results[1])
	if !strings.Contains(results[2], `"slug":"refunds-reuse-the-vat-of-the-order-line"`) || !strings.Contains(results[2], `"committed":true`) {
		t.Fatalf("memory_store answered %q, want the new slug, committed", results[2])
	}
	t.Logf("memory_store's result the model received:\n%s", results[2])
	if got := strings.TrimSpace(w.git("log", "--format=%s", before+"..HEAD")); got != "mem: store refunds-reuse-the-vat-of-the-order-line" {
		t.Fatalf("commits since the session started: %q", got)
	}
}
