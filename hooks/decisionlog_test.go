package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/search"
)

// TestDecisions reads back, through package injections, what logDecision wrote, the moved log first, and
// passes over a line cut short.
func TestDecisions(t *testing.T) {
	dir := t.TempDir()
	if got, err := injections.Read(dir); err != nil || len(got) != 0 {
		t.Fatalf("no log: %v, %v", got, err)
	}
	older := `{"time":"2026-11-01T10:00:00Z","session":"s0","query":"old","injected":false}` + "\n" +
		`{"time":"2026-11-01T10:00:01Z","sess` + "\n"
	if err := os.WriteFile(filepath.Join(dir, injections.Log+".1"), []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	q := search.ParseQuery("why is spanish vat a cent off?", "")
	logDecision(dir, now, "s1", "why is spanish vat a cent off?", "we looked at tax.py", q, []search.Result{{Slug: "vat-rounding", Score: 0.5}})
	logDecision(dir, now.Add(time.Second), "s1", "ok go ahead", "", search.ParseQuery("ok go ahead", ""), nil)
	long := strings.Repeat("log line\n", injections.MaxPrompt)
	logDecision(dir, now.Add(2*time.Second), "s1", long, "", search.ParseQuery(long, ""), nil)

	got, err := injections.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("got %d decisions, want 4: %+v", len(got), got)
	}
	// The prompt and the previous turn's part that refined it are logged, so
	// that a decision can be replayed as a battery line; a paste is cut.
	if got[1].Prompt != "why is spanish vat a cent off?" || got[1].Previous != "we looked at tax.py" || got[1].Clipped {
		t.Errorf("decision 2 keeps prompt %q, previous %q, clipped %v", got[1].Prompt, got[1].Previous, got[1].Clipped)
	}
	if got[2].Prompt != "ok go ahead" || got[2].Previous != "" {
		t.Errorf("decision 3 keeps prompt %q, previous %q", got[2].Prompt, got[2].Previous)
	}
	if !got[3].Clipped || len(got[3].Prompt) > injections.MaxPrompt+len("…") || !strings.HasPrefix(long, strings.TrimSuffix(got[3].Prompt, "…")) {
		t.Errorf("a long prompt is logged as %d bytes, clipped %v", len(got[3].Prompt), got[3].Clipped)
	}
	if got[0].Query != "old" || got[1].Session != "s1" || !got[1].Injected || got[2].Injected {
		t.Errorf("decisions out of order or wrong: %+v", got)
	}
	if r := got[1].Results; len(r) != 1 || r[0].Slug != "vat-rounding" || r[0].Score != 0.5 || got[1].Query != q.String() {
		t.Errorf("decision 2 = %+v, want vat-rounding at 0.5 for %q", got[1], q.String())
	}
	if got[1].Time != "2026-11-02T09:00:00Z" {
		t.Errorf("time = %q", got[1].Time)
	}
}
