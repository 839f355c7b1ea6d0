package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/install"
)

// mem install, run from where mem is not on PATH, names no path of this
// machine in the files a team commits, and says the hooks need mem on PATH.
// A teammate who has not installed mem then runs Claude Code in the
// repository: every hook exits 0 and says nothing, and the session works.
func TestTeammateWithoutMem(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.setPath(false)
	if out := w.mem("install", "--mcp"); !strings.Contains(out, "mem: hint: mem is not on PATH") {
		t.Fatalf("install said:\n%s", out)
	}
	for _, f := range []string{".claude/settings.json", ".mcp.json"} {
		if text := w.read(f); strings.Contains(text, binDir) {
			t.Fatalf("the committed %s names this machine's binaries:\n%s", f, text)
		}
	}
	w.git("add", ".")
	w.git("commit", "-q", "-m", "install mem")

	s := w.claude(".", "fix the spanish VAT rounding in checkout", steps(editThenStop(`echo no mem here`)...))
	ran := 0
	for _, event := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"} {
		for _, h := range s.hooks(event) {
			ran++
			if h.ExitCode != 0 || h.Stdout != "" || h.Stderr != "" {
				t.Errorf("%s without mem: exit %d, stdout %q, stderr %q; want 0 and silence", h.Name, h.ExitCode, h.Stdout, h.Stderr)
			}
		}
	}
	if ran < 4 {
		t.Fatalf("only %d hooks ran", ran)
	}
	if got := s.contexts(t, "UserPromptSubmit"); len(got) != 0 {
		t.Fatalf("context without mem: %q", got)
	}
	if !strings.Contains(s.stdout, `"result":"Done: VAT is rounded per line now."`) {
		t.Fatalf("the session did not end as the model said:\n%s", clipOut(s.stdout))
	}
}

// Started in a subdirectory, Claude Code 2.1.328 reads no hooks from the
// root's .claude/settings.json; with mem installed for the user as well
// (`mem install --user`) the topical prompt gets its memory and the gate
// fires there, and at the root, where both files hold the hooks, each
// runs once.
func TestSubdirectory(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("install")
	w.write("shop/checkout/README.md", "checkout\n")
	prompt := "why are spanish orders one cent off after the VAT rounding in checkout?"

	s := w.claude("shop/checkout", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 0 {
		t.Fatalf("with the project install only, %d prompt hooks ran from the subdirectory; Claude Code changed: revisit the subdirectory notes", n)
	}

	w.mem("install", "--user")
	s = w.claude("shop/checkout", prompt, steps(say("Per line.")))
	if got := s.contexts(t, "UserPromptSubmit"); len(got) != 1 || !strings.Contains(got[0], "spanish-vat-rounds-per-line.md") {
		t.Fatalf("from the subdirectory the model was sent %q, want the VAT memory", got)
	}
	store := `mem store --class decision --name "VAT per line in tax.py" "tax.py rounds VAT per line"`
	s = w.claude("shop/checkout", "fix the spanish VAT rounding in checkout", steps(editThenStop(store)...))
	if gates := s.hooks("Stop"); len(gates) != 2 || gates[0].ExitCode != 2 {
		t.Fatalf("from the subdirectory the Stop hooks ran %+v, want the gate's block, then a stop", gates)
	}
	if out := w.mem("doctor"); !strings.Contains(out, "mem doctor: all good") {
		t.Fatalf("mem doctor after the sessions in the subdirectory:\n%s", out)
	}

	s = w.claude(".", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 1 {
		t.Fatalf("at the root with project and user installs the prompt hook ran %d times, want 1", n)
	}
	w.mem("uninstall", "--user")
	s = w.claude("shop/checkout", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 0 {
		t.Fatalf("after uninstall --user %d prompt hooks ran from the subdirectory", n)
	}
}

// mem's plugin installs from a marketplace directory with Claude Code's
// own commands, from mem's repository itself and from a copy; its hooks
// fire in a subdirectory; next to the project's hooks each event is
// answered once; and it uninstalls.
func TestPlugin(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	copyDir := filepath.Join(t.TempDir(), "team-marketplace")
	files, err := install.PluginFiles()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(copyDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, marketplace := range []string{root, copyDir} {
		t.Run(filepath.Base(marketplace), func(t *testing.T) {
			w := newWorld(t)
			w.storeVAT()
			w.write("shop/checkout/README.md", "checkout\n")
			w.runIn(w.repo, claudeBin, "plugin", "marketplace", "add", marketplace)
			out := w.runIn(w.repo, claudeBin, "plugin", "install", "mem@mem")
			if !strings.Contains(out, "Successfully installed plugin: mem@mem") {
				t.Fatalf("plugin install said:\n%s", out)
			}
			if list := w.runIn(w.repo, claudeBin, "plugin", "list"); !strings.Contains(list, "mem@mem") {
				t.Fatalf("plugin list:\n%s", list)
			}
			prompt := "why are spanish orders one cent off after the VAT rounding in checkout?"
			s := w.claude("shop/checkout", prompt, steps(say("Per line.")))
			if got := s.contexts(t, "UserPromptSubmit"); len(got) != 1 || !strings.Contains(got[0], "spanish-vat-rounds-per-line.md") {
				t.Fatalf("the plugin's prompt hook sent %q, want the VAT memory", got)
			}
			if got := s.contexts(t, "SessionStart"); len(got) != 1 || !strings.Contains(got[0], "mem: 1 memories") {
				t.Fatalf("the plugin's SessionStart sent %q", got)
			}
			t.Logf("MCP servers: %q; tools in the request: %q", s.mcpServers(), s.reqs[0].ToolNames())
			if !strings.Contains(allText(s.reqs[0]), "__context_query") {
				t.Fatalf("the plugin's MCP server: servers %q, and no context_query tool is offered", s.mcpServers())
			}
			store := `mem store --class decision --name "VAT per line in tax.py" "tax.py rounds VAT per line"`
			s = w.claude("shop/checkout", "fix the spanish VAT rounding in checkout", steps(editThenStop(store)...))
			if gates := s.hooks("Stop"); len(gates) != 2 || gates[0].ExitCode != 2 {
				t.Fatalf("the plugin's Stop hooks ran %+v, want the gate's block, then a stop", gates)
			}

			// With the project's hooks too, Claude Code runs both; mem
			// answers once.
			w.mem("install")
			s = w.claude(".", prompt, steps(say("Per line.")))
			if n := len(s.hooks("UserPromptSubmit")); n != 2 {
				t.Fatalf("plugin and project: %d prompt hooks ran, want 2 (Claude Code does not merge a plugin's hooks with the settings')", n)
			}
			if got := s.contexts(t, "UserPromptSubmit"); len(got) != 1 || countSent(s, "spanish-vat-rounds-per-line.md") != 1 {
				t.Fatalf("plugin and project: the model was sent the memory %d times (%q), want once", countSent(s, "spanish-vat-rounds-per-line.md"), got)
			}
			if got := s.contexts(t, "SessionStart"); countSent(s, "memories in .claude/agent-memory;") != 1 {
				t.Fatalf("plugin and project: SessionStart context %q sent %d times", got, countSent(s, "memories in .claude/agent-memory;"))
			}
			w.mem("uninstall")

			w.runIn(w.repo, claudeBin, "plugin", "uninstall", "mem@mem")
			w.runIn(w.repo, claudeBin, "plugin", "marketplace", "remove", "mem")
			s = w.claude("shop/checkout", prompt, steps(say("Per line.")))
			if n := len(s.hooks("UserPromptSubmit")); n != 0 {
				t.Fatalf("after the plugin's removal %d prompt hooks ran", n)
			}
		})
	}
}

// countSent counts the system messages of the last main request that hold
// text.
func countSent(s *session, text string) int {
	n := 0
	for _, m := range s.last().Messages {
		if m.Role == "system" {
			n += strings.Count(m.Content.Text(), text)
		}
	}
	return n
}

// Started in a subdirectory, Claude Code 2.1.328 runs the hooks of the
// root's .claude/settings.local.json, which `mem install --local` writes for
// the person installing: the prompt gets its memory and the gate fires
// there, git shows nothing new, and at the root, where settings.json holds
// the same hooks, the prompt gets one injection. When the two files name
// the hook differently Claude Code runs both, and the prompt's claim
// (prompt_id) still lets only one inject. `mem uninstall --local` gives
// every file back.
func TestLocalInstall(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("install")
	w.git("add", ".")
	w.git("commit", "-q", "-m", "install mem")
	w.write("shop/checkout/README.md", "checkout\n")
	w.git("add", ".")
	w.git("commit", "-q", "-m", "checkout")
	before := w.snapshot(t)
	prompt := "why are spanish orders one cent off after the VAT rounding in checkout?"

	w.mem("install", "--local")
	if st := w.git("status", "--porcelain"); st != "" {
		t.Fatalf("after install --local git status shows:\n%s", st)
	}
	s := w.claude("shop/checkout", prompt, steps(say("Per line.")))
	if got := s.contexts(t, "UserPromptSubmit"); len(got) != 1 || !strings.Contains(got[0], "spanish-vat-rounds-per-line.md") {
		t.Fatalf("from the subdirectory the model was sent %q, want the VAT memory (%s)", got, w.hookLog())
	}
	store := `mem store --class decision --name "VAT per line in tax.py" "tax.py rounds VAT per line"`
	s = w.claude("shop/checkout", "fix the spanish VAT rounding in checkout", steps(editThenStop(store)...))
	if gates := s.hooks("Stop"); len(gates) != 2 || gates[0].ExitCode != 2 {
		t.Fatalf("from the subdirectory the Stop hooks ran %+v, want the gate's block, then a stop", gates)
	}

	s = w.claude(".", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 1 || countSent(s, "spanish-vat-rounds-per-line.md") != 1 {
		t.Fatalf("at the root with settings.json and settings.local.json: %d prompt hooks ran, the memory sent %d times; want 1 and 1",
			n, countSent(s, "spanish-vat-rounds-per-line.md"))
	}
	// The same hook under another command line: Claude Code runs both.
	local := w.read(".claude/settings.local.json")
	w.write(".claude/settings.local.json", strings.Replace(local, "exec mem-hook prompt;", "exec mem-hook  prompt;", 1))
	s = w.claude(".", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 2 || countSent(s, "spanish-vat-rounds-per-line.md") != 1 {
		t.Fatalf("two command lines of the prompt hook: %d ran, the memory sent %d times; want 2 and 1",
			n, countSent(s, "spanish-vat-rounds-per-line.md"))
	}
	w.write(".claude/settings.local.json", local)
	if out := w.mem("doctor"); !strings.Contains(out, "mem doctor: all good") {
		t.Fatalf("mem doctor with the local install:\n%s", out)
	}

	w.mem("uninstall", "--local")
	// What the sessions made (the agent's file, its memory) is theirs.
	for _, p := range []string{"shop/checkout/shop", ".claude/agent-memory/vat-per-line-in-tax-py.md"} {
		if err := os.RemoveAll(filepath.Join(w.repo, p)); err != nil {
			t.Fatal(err)
		}
	}
	if d := diffSnapshots(before, w.snapshot(t)); len(d) > 0 {
		t.Fatalf("after uninstall --local:\n%s", strings.Join(d, "\n"))
	}
	s = w.claude("shop/checkout", prompt, steps(say("Per line.")))
	if n := len(s.hooks("UserPromptSubmit")); n != 0 {
		t.Fatalf("after uninstall --local %d prompt hooks ran from the subdirectory", n)
	}
}
