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

// TestCodexExec runs a whole `codex exec` session, offline: the model is a
// fake Responses API on loopback, configured as Codex's users configure a
// provider (model_provider and [model_providers.NAME] in
// $CODEX_HOME/config.toml). The scripted model calls mem's context_query,
// then memory_store, then answers; so the test holds that Codex found mem's
// server where mem install put it, started `mem mcp`, offered its tools,
// and sent mem's answers back to the model, and that the store commit
// landed in git.
//
// Codex reads a project's .codex/config.toml only once the person has
// trusted the project, which Codex records in the user's config.toml as
// [projects."<root>"] trust_level = "trusted" (what its trust prompt
// writes). The cases cover the project trusted, not trusted (the user's
// config alone, which mem install also writes), trusted by a teammate
// whose own config has no mem block (the committed project file alone),
// and neither: then Codex offers no mem tool, as its docs say.
func TestCodexExec(t *testing.T) {
	tests := []struct {
		name      string
		trusted   bool
		userBlock bool // keep the block mem install adds to ~/.codex/config.toml
		connects  bool
	}{
		{"trusted project", true, true, true},
		{"untrusted project", false, true, true},
		{"teammate trusts the committed project file", true, false, true},
		{"teammate has not trusted the project", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := codexScript
			if !tt.connects {
				script = nil
			}
			dir, env, api := codexRepo(t, script, tt.trusted, tt.userBlock)
			before := strings.TrimSpace(run(t, dir, env, "git", "rev-parse", "HEAD"))

			stdout, stderr := codexExec(t, dir, env, api, "why are spanish orders one cent off after the VAT rounding?")
			reqs := api.Requests()
			if !tt.connects {
				if len(reqs) != 1 {
					t.Fatalf("%d requests, want one\n%s", len(reqs), stderr)
				}
				if names := reqs[0].ToolNames(); slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp__mem/") }) {
					t.Fatalf("the request offers %q: want none of mem's tools", names)
				}
				return
			}
			if len(reqs) != 3 {
				t.Fatalf("the model got %d requests, want 3\n%s", len(reqs), stderr)
			}
			if names := reqs[0].ToolNames(); !slices.Contains(names, "mcp__mem/context_query") || !slices.Contains(names, "mcp__mem/memory_store") {
				t.Fatalf("the first request offers %q, not mem's tools: Codex did not connect to mem mcp\n%s", names, stderr)
			}
			if text := reqs[0].Text(); !strings.Contains(text, "mem's MCP tool `context_query`") {
				t.Errorf("the first request lacks the memory rules mem install wrote to AGENTS.md")
			}
			query, ok := reqs[1].Output("call_query")
			if !ok {
				t.Fatalf("the second request carries no output of context_query\n%s", reqs[1].Raw)
			}
			if got := query.Text(); !strings.Contains(got, `"slug":"spanish-vat-rounds-per-line"`) || !strings.Contains(got, "Rounding the total is off by one cent") {
				t.Fatalf("context_query's output the model received: %q, want the VAT memory", got)
			}
			t.Logf("context_query's output the model received:\n%s", query.Text())
			stored, ok := reqs[2].Output("call_store")
			if !ok || !strings.Contains(stored.Text(), `"slug":"refunds-reuse-the-vat-of-the-order-line"`) || !strings.Contains(stored.Text(), `"committed":true`) {
				t.Fatalf("memory_store's output the model received: %q", stored.Text())
			}
			t.Logf("memory_store's output the model received:\n%s", stored.Text())
			if got := strings.TrimSpace(run(t, dir, env, "git", "log", "--format=%s", before+"..HEAD")); got != "mem: store refunds-reuse-the-vat-of-the-order-line" {
				t.Fatalf("commits since the session started: %q", got)
			}
			if got := strings.TrimSpace(stdout); got != "Done." {
				t.Errorf("codex exec printed %q, want the model's last message", got)
			}
		})
	}
}

// codexRepo makes a repository with the VAT memory, mem installed for
// Codex and Codex's config pointing at a fake Responses API that answers
// with script; the project is trusted as Codex's trust prompt records it
// when trusted, and the user's config keeps mem's block when userBlock.
func codexRepo(t *testing.T, script responsesapi.Script, trusted, userBlock bool) (string, []string, *responsesapi.Server) {
	t.Helper()
	dir, home, env := newRepo(t, "codex")
	mem := filepath.Join(binDir, "mem")
	run(t, dir, env, mem, "store", "--class", "gotcha", "--name", "Spanish VAT rounds per line",
		"--description", "VAT is rounded per order line, never on the order total",
		"Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py.")

	api, err := responsesapi.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	config := fmt.Sprintf("model = \"gpt-fake\"\nmodel_provider = \"fake\"\n\n"+
		"[model_providers.fake]\nname = \"fake\"\nbase_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", api.URL)
	if trusted {
		config += fmt.Sprintf("\n[projects.%q]\ntrust_level = \"trusted\"\n", dir)
	}
	userConfig := filepath.Join(home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(userConfig), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userConfig, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, env, mem, "install", "--agents", "codex")
	installed, err := os.ReadFile(userConfig)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(installed), config) || !strings.Contains(string(installed), "[mcp_servers.mem]") {
		t.Fatalf("mem install left ~/.codex/config.toml as\n%s", installed)
	}
	if !userBlock {
		if err := os.WriteFile(userConfig, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, env, api
}

// codexExec runs `codex exec PROMPT` in dir and returns its stdout and
// stderr; it fails the test when codex fails. The environment's
// MEM_BACKGROUND=off reaches mem's server only through the env_vars mem
// install writes: Codex starts MCP servers with a few variables of its own
// choosing. Without it a store starts a detached enrichment that runs the
// machine's `claude -p` and outlives the test (seen: it wrote into the
// test's home while the test removed it).
func codexExec(t *testing.T, dir string, env []string, api *responsesapi.Server, prompt string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"exec", prompt}
	c := exec.CommandContext(ctx, "codex", args...)
	c.Dir, c.Env = dir, append(env, "FAKE_API_KEY=sk-test")
	var stdout, stderr strings.Builder
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("codex exec: %v (%d model requests)\n%s\n%s", err, len(api.Requests()), stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// codexScript is the model of TestCodexExec: query mem, store a memory,
// answer.
func codexScript(n int, r responsesapi.Request) responsesapi.Reply {
	switch n {
	case 0:
		return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_query", Namespace: "mcp__mem", Name: "context_query",
			Arguments: map[string]any{"query": "spanish VAT rounding on checkout orders"}}}}
	case 1:
		return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_store", Namespace: "mcp__mem", Name: "memory_store",
			Arguments: map[string]any{"name": "Refunds reuse the VAT of the order line",
				"content": "A refund takes the VAT of its order line, not a new rounding.", "class": "fact", "tags": []string{"checkout", "refund"}}}}}
	}
	return responsesapi.Reply{Text: "Done."}
}

// TestCodexShell: the AGENTS.md rules name the CLI too, and Codex runs
// shell commands in its sandbox, as `bash -lc` (a login shell, so mem is
// on the PATH the person's ~/.profile sets, as the README asks). The
// sandbox keeps .git read-only: `mem search` still answers, from the files
// as they are when the cache is stale and cannot be refreshed (here a
// memory the agent wrote after the cache), but `mem store` cannot commit
// (nor lock), which is why the rules name mem's MCP tools first. Held here
// so that a change on either side shows.
func TestCodexShell(t *testing.T) {
	dir, env, api := codexRepo(t, func(n int, r responsesapi.Request) responsesapi.Reply {
		switch n {
		case 0:
			return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_search", Name: "exec_command",
				Arguments: map[string]any{"cmd": `printf -- '---\nname: Gift cards carry no VAT\nclass: fact\n---\nGift cards are left out of the spanish VAT rounding.\n' > .claude/agent-memory/gift-cards-carry-no-vat.md && mem search "spanish VAT rounding gift cards"`}}}}
		case 1:
			return responsesapi.Reply{Calls: []responsesapi.Call{{CallID: "call_store", Name: "exec_command",
				Arguments: map[string]any{"cmd": `mem store --class fact --name "Refunds reuse the VAT of the order line" "A refund takes the VAT of its order line."`}}}}
		}
		return responsesapi.Reply{Text: "Done."}
	}, true, true)
	var home string
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = h
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte("export PATH=\""+binDir+":$PATH\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, env, filepath.Join(binDir, "mem"), "index") // a fresh cache: the sandbox could not write one
	before := strings.TrimSpace(run(t, dir, env, "git", "rev-parse", "HEAD"))
	_, stderr := codexExec(t, dir, env, api, "why are spanish orders one cent off?")
	reqs := api.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3\n%s", len(reqs), stderr)
	}
	search, _ := reqs[1].Output("call_search")
	if s := search.Text(); strings.Contains(s, "bwrap") || strings.Contains(s, "sandbox") && !strings.Contains(s, "spanish-vat") {
		t.Skipf("skipping: Codex's sandbox does not run on this machine:\n%s", s)
	}
	if s := search.Text(); !strings.Contains(s, "gift-cards-carry-no-vat.md") {
		t.Fatalf("mem search in Codex's sandbox gave the model:\n%s", s)
	}
	t.Logf("mem search's output the model received:\n%s", search.Text())
	store, _ := reqs[2].Output("call_store")
	if s := store.Text(); !strings.Contains(s, "read-only file system") {
		t.Fatalf("mem store in Codex's sandbox gave the model (want a read-only .git):\n%s", s)
	}
	t.Logf("mem store's output the model received:\n%s", store.Text())
	if after := strings.TrimSpace(run(t, dir, env, "git", "rev-parse", "HEAD")); after != before {
		t.Fatalf("a commit was made from Codex's sandbox: %s", run(t, dir, env, "git", "log", "-1", "--stat"))
	}
}
