package claudecode

import (
	"strings"
	"testing"
)

// storeVAT stores the memory the topical prompts are about.
func (w *world) storeVAT() {
	w.t.Helper()
	w.mem("store", "--class", "gotcha", "--name", "Spanish VAT rounds per line",
		"--description", "VAT is rounded per order line, never on the order total", "--tags", "checkout,vat",
		"Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py.")
}

// A topical prompt gets its memory in the request the model is sent, next
// to the prompt; chit-chat gets nothing; SessionStart brings the profile.
func TestPromptInjection(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("profile", "add", "--said", "Prefers short answers without a summary at the end")
	w.mem("install")

	s := w.claude(".", "why are spanish orders one cent off after the VAT rounding in checkout?", steps(say("Because VAT is rounded per line.")))
	got := s.contexts(t, "UserPromptSubmit")
	if len(got) != 1 || !strings.Contains(got[0], ".claude/agent-memory/spanish-vat-rounds-per-line.md") ||
		!strings.Contains(got[0], "Rounding the total is off by one cent") {
		t.Fatalf("topical prompt: the model was sent %q, want the VAT memory", got)
	}
	t.Logf("UserPromptSubmit context the model received:\n%s", got[0])
	start := s.contexts(t, "SessionStart")
	if len(start) != 1 || !strings.Contains(start[0], "Prefers short answers without a summary at the end") ||
		!strings.Contains(start[0], "mem: 1 memories in .claude/agent-memory") {
		t.Fatalf("SessionStart: the model was sent %q, want the profile and the health line", start)
	}
	t.Logf("SessionStart context the model received:\n%s", start[0])

	s = w.claude(".", "thanks, that looks good to me", steps(say("Glad to help.")))
	if got := s.contexts(t, "UserPromptSubmit"); len(got) != 0 {
		t.Fatalf("chit-chat: the model was sent %q, want no memory", got)
	}
	if runs := s.hooks("UserPromptSubmit"); len(runs) != 1 || runs[0].ExitCode != 0 {
		t.Fatalf("chit-chat: the prompt hook ran %+v, want once, exit 0", runs)
	}
}
