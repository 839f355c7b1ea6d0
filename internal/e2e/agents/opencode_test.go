package agents

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/e2e/responsesapi"
)

// TestOpenCodeRun runs a whole `opencode run` session, offline: the model
// is the fake Responses API, reached through OpenCode's openai provider
// with options.baseURL in the user's config, as its users point it at
// another endpoint. After `mem install --agents opencode`, the scripted
// model calls mem's context_query, then memory_store, then answers; so the
// test holds that OpenCode started `mem mcp` from the project's
// opencode.json, offered its tools, and sent mem's answers back to the
// model, and that the store commit landed. OpenCode also asks a small
// model for the session's title, without tools; that request gets a title.
func TestOpenCodeRun(t *testing.T) {
	dir, home, env := newRepo(t, "opencode")
	mem := filepath.Join(binDir, "mem")
	run(t, dir, env, mem, "store", "--class", "gotcha", "--name", "Spanish VAT rounds per line",
		"--description", "VAT is rounded per order line, never on the order total",
		"Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py.")
	run(t, dir, env, mem, "install", "--agents", "opencode")

	api, err := responsesapi.Start(func(n int, r responsesapi.Request) responsesapi.Reply {
		if !slices.Contains(r.ToolNames(), "mem_context_query") {
			return responsesapi.Reply{Text: "Spanish VAT rounding"}
		}
		_, queried := r.Output("call_query")
		_, stored := r.Output("call_store")
		switch {
		case !queried:
			return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_query", Name: "mem_context_query",
				Arguments: map[string]any{"query": "spanish VAT rounding on checkout orders"}}}}
		case !stored:
			return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_store", Name: "mem_memory_store",
				Arguments: map[string]any{"name": "Refunds reuse the VAT of the order line",
					"content": "A refund takes the VAT of its order line, not a new rounding.", "class": "fact"}}}}
		}
		return responsesapi.Reply{Text: "Done."}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	config := filepath.Join(home, ".config", "opencode", "opencode.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	provider := fmt.Sprintf(`{"$schema": "https://opencode.ai/config.json", "provider": {"openai": {"options": {"baseURL": "%s/v1", "apiKey": "sk-test"}}}}`, api.URL)
	if err := os.WriteFile(config, []byte(provider), 0o644); err != nil {
		t.Fatal(err)
	}
	before := strings.TrimSpace(run(t, dir, env, "git", "rev-parse", "HEAD"))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, "opencode", "run", "-m", "openai/gpt-4o", "why are spanish orders one cent off after the VAT rounding?")
	c.Dir, c.Env = dir, env
	out, err := c.CombinedOutput()
	var main []responsesapi.Request
	for _, r := range api.Requests() {
		if slices.Contains(r.ToolNames(), "mem_context_query") {
			main = append(main, r)
		}
	}
	if err != nil {
		t.Fatalf("opencode run: %v (%d model requests with mem's tools)\n%s", err, len(main), out)
	}
	if len(main) != 3 {
		t.Fatalf("%d requests offered mem's tools, want 3: OpenCode did not connect to mem mcp, or the session went otherwise\n%s", len(main), out)
	}
	if !strings.Contains(main[0].Text(), "mem's MCP tool `context_query`") {
		t.Errorf("the first request lacks the memory rules mem install wrote to AGENTS.md")
	}
	query, _ := main[1].Output("call_query")
	// OpenCode passes on the tool's text content (Codex, its structured
	// content).
	if got := query.Text(); !strings.Contains(got, "1. spanish-vat-rounds-per-line (gotcha") || !strings.Contains(got, "Rounding the total is off by one cent") {
		t.Fatalf("context_query's output the model received: %q, want the VAT memory", got)
	}
	t.Logf("context_query's output the model received:\n%s", query.Text())
	stored, _ := main[2].Output("call_store")
	if !strings.Contains(stored.Text(), "Stored refunds-reuse-the-vat-of-the-order-line in .claude/agent-memory/refunds-reuse-the-vat-of-the-order-line.md and committed it") {
		t.Fatalf("memory_store's output the model received: %q", stored.Text())
	}
	t.Logf("memory_store's output the model received:\n%s", stored.Text())
	if got := strings.TrimSpace(run(t, dir, env, "git", "log", "--format=%s", before+"..HEAD")); got != "mem: store refunds-reuse-the-vat-of-the-order-line" {
		t.Fatalf("commits since the session started: %q", got)
	}
	if !strings.Contains(string(out), "Done.") {
		t.Errorf("opencode run printed %q, want the model's last message", out)
	}
}
