package claudecode

import (
	"github.com/mem-dev/mem/internal/e2e/messagesapi"
	"strings"
	"testing"
)

// editThenStop is an agent that edits a file, looks around, and stops
// without storing anything; sent back, it stores a memory and stops.
func editThenStop(store string) []messagesapi.Reply {
	return []messagesapi.Reply{
		call("Write", map[string]any{"file_path": "shop/checkout/tax.py", "content": "def vat(lines):\n    return sum(round(l * 0.21, 2) for l in lines)\n"}),
		bash("ls shop/checkout"),
		bash("true"),
		say("Done: VAT is rounded per line now."),
		bash(store),
		say("Stored."),
	}
}

// The gate sends the agent back (exit 2) when it edited files and stored
// nothing: Claude Code passes its message on to the model, and the store
// the model then makes lets the session end, as a commit of store paths
// only, with the user's staged work still staged.
func TestGate(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("install")
	w.git("add", ".")
	w.git("commit", "-q", "-m", "install mem")
	w.write("README.md", "# shop\n\nStaged by the user, not to be committed by mem.\n")
	w.git("add", "README.md")
	before := strings.TrimSpace(w.git("rev-parse", "HEAD"))

	store := `mem store --class decision --name "VAT per line in tax.py" "shop/checkout/tax.py rounds VAT per order line, as Spanish orders need"`
	s := w.claude(".", "fix the spanish VAT rounding in checkout", steps(editThenStop(store)...))

	gates := s.hooks("Stop")
	if len(gates) != 2 || gates[0].ExitCode != 2 || gates[1].ExitCode != 0 {
		t.Fatalf("Stop hooks ran %+v, want exit 2 then exit 0\n%s\n%s", gates, w.hookLog(), w.gateStates())
	}
	var feedback string
	for _, u := range s.userTexts() {
		if strings.HasPrefix(u, "Stop hook feedback:") {
			feedback = u
		}
	}
	if !strings.Contains(feedback, "mem gate: you edited shop/checkout/tax.py and stored no memory about it.") {
		t.Fatalf("the model was not sent the gate's message; user messages: %q", s.userTexts())
	}
	t.Logf("the model received:\n%s", feedback)

	if got := w.git("rev-list", "--count", before+"..HEAD"); strings.TrimSpace(got) != "1" {
		t.Fatalf("%s commits since the session started, want 1", got)
	}
	if files := strings.Fields(w.git("show", "--name-only", "--format=", "HEAD")); len(files) != 1 ||
		!strings.HasPrefix(files[0], ".claude/agent-memory/vat-per-line-in-tax-py") {
		t.Fatalf("mem's commit touched %q, want the one new memory", files)
	}
	if staged := strings.Fields(w.git("diff", "--cached", "--name-only")); len(staged) != 1 || staged[0] != "README.md" {
		t.Fatalf("staged after the session: %q, want README.md as the user left it", staged)
	}
	if st := w.git("status", "--porcelain", "--", "shop"); !strings.Contains(st, "?? shop/") {
		t.Fatalf("the agent's edit: status %q, want it untracked, untouched", st)
	}
	// A normal session leaves nothing for doctor to report.
	if out := w.mem("doctor"); !strings.Contains(out, "mem doctor: all good") {
		t.Fatalf("mem doctor after the session:\n%s", out)
	}
}
