package learn

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/search"
)

func TestPhrase(t *testing.T) {
	tests := []struct{ prompt, want string }{
		{"why is my basket a penny short on the madrid shop?", "basket penny short madrid shop"},
		{"ok go ahead", ""},
		{"thanks!", ""},
		{"the Basket, the basket and the BASKET", "Basket"},
		{"checkout breaks in shop/checkout/tax.py again", "checkout breaks shop/checkout/tax.py"},
		{"see https://example.com/x why does login loop", "login loop"},
	}
	for _, tt := range tests {
		if got := Phrase(tt.prompt); got != tt.want {
			t.Errorf("Phrase(%q) = %q, want %q", tt.prompt, got, tt.want)
		}
	}
}

var (
	t0   = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	mems = Memories{
		Names: map[string]string{"spanish-vat-rounds-per-line": "Spanish VAT rounds per line", "no-friday-deploys": "No Friday deploys"},
		Terms: map[string]map[string]bool{
			"spanish-vat-rounds-per-line": SummaryTerms("Spanish VAT rounds per line", "VAT is rounded per order line", []string{"checkout", "vat"}),
			"no-friday-deploys":           SummaryTerms("No Friday deploys", "Nothing ships on a Friday", []string{"deploy", "checkout"}),
		},
		Dirs: []string{"/repo/.claude/agent-memory"},
	}
)

// line is one transcript line.
func line(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func prompt(id, session, text string, at time.Time) string {
	return line(map[string]any{"type": "user", "uuid": id, "sessionId": session, "timestamp": at.Format(time.RFC3339),
		"message": map[string]any{"role": "user", "content": text}})
}

func toolUse(id, name string, input map[string]any) string {
	return line(map[string]any{"type": "assistant", "uuid": "a-" + id, "sessionId": "s1",
		"message": map[string]any{"id": "m-" + id, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
}

func toolResult(id, text string) string {
	return line(map[string]any{"type": "user", "uuid": "r-" + id, "sessionId": "s1",
		"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": text}}}})
}

func say(text string) string {
	return line(map[string]any{"type": "assistant", "uuid": "t-" + text[:min(8, len(text))], "sessionId": "s1",
		"message": map[string]any{"id": "m-" + text, "role": "assistant", "content": []any{map[string]any{"type": "text", "text": text}}}})
}

func writeTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s1.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// decision is the prompt hook's log line for text.
func decision(session, text string, at time.Time, injected ...string) injections.Decision {
	d := injections.Decision{Time: at.Format(time.RFC3339), Session: session, Query: search.ParseQuery(text, "").String(), Injected: len(injected) > 0}
	for _, s := range injected {
		d.Results = append(d.Results, injections.Result{Slug: s, Score: 0.9})
	}
	return d
}

const (
	vat    = "spanish-vat-rounds-per-line"
	friday = "no-friday-deploys"
	ask    = "why is my basket a penny short?"
)

func TestCandidates(t *testing.T) {
	searchRun := func(id string) string {
		return toolUse(id, "Bash", map[string]any{"command": "cd /repo && mem search 'vat rounding' | head"})
	}
	searchResult := func(id string) string {
		return toolResult(id, "0.91  .claude/agent-memory/spanish-vat-rounds-per-line.md:1  (gotcha) Spanish VAT rounds per line\n0.40  .claude/agent-memory/no-friday-deploys.md:1")
	}
	tests := []struct {
		name      string
		lines     []string
		decisions []injections.Decision
		want      string // slug/how/used/hook of each candidate, or ""
	}{
		{
			name:      "silent, then a search: its first result, not used",
			lines:     []string{prompt("u1", "s1", ask, t0), searchRun("t1"), searchResult("t1")},
			decisions: []injections.Decision{decision("s1", ask, t0)},
			want:      vat + "/search/false/silent",
		},
		{
			name:      "silent, a search, then the memory opened: used",
			lines:     []string{prompt("u1", "s1", ask, t0), searchRun("t1"), searchResult("t1"), toolUse("t2", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s1", ask, t0)},
			want:      vat + "/search/true/silent",
		},
		{
			name:      "other memories injected, the file read and named in the answer",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Read", map[string]any{"file_path": "/repo/.claude/agent-memory/" + vat + ".md"}), say("Spanish VAT rounds per line, so the basket loses a cent.")},
			decisions: []injections.Decision{decision("s1", ask, t0, friday)},
			want:      vat + "/read/true/other",
		},
		{
			name: "MCP: context_query's first result, then memory_show",
			lines: []string{prompt("u1", "s1", ask, t0),
				toolUse("t1", "mcp__mem__context_query", map[string]any{"query": "vat"}), toolResult("t1", "1. spanish-vat-rounds-per-line (gotcha, score 0.91): Spanish VAT"),
				toolUse("t2", "mcp__mem__memory_show", map[string]any{"slug": vat})},
			decisions: []injections.Decision{decision("s1", ask, t0)},
			want:      vat + "/search/true/silent",
		},
		{
			name:      "other memories injected: their words are left out of the alias",
			lines:     []string{prompt("u1", "s1", "friday deploys made my checkout basket a penny short", t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s1", "friday deploys made my checkout basket a penny short", t0, friday)},
			want:      vat + "/show/false/other/checkout basket penny short",
		},
		{
			name:      "the hook injected it already: nothing to learn",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s1", ask, t0, vat)},
		},
		{
			name:      "no decision for the prompt (another session's, or another query)",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s2", ask, t0), decision("s1", "why do deploys fail on friday", t0)},
		},
		{
			name:      "a decision hours away is another prompt's",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s1", ask, t0.Add(-3*time.Hour))},
		},
		{
			name:      "a refined query still matches the prompt's own",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{{Time: t0.Format(time.RFC3339), Session: "s1", Query: search.ParseQuery(ask, "").String() + " +checkout^0.2"}},
			want:      vat + "/show/false/silent",
		},
		{
			name:      "a memory the store does not have, a failed search, a grep: nothing",
			lines:     []string{prompt("u1", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show no-such-memory; grep 'mem show x' README"}), searchRun("t2"), line(map[string]any{"type": "user", "sessionId": "s1", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t2", "is_error": true, "content": vat}}}})},
			decisions: []injections.Decision{decision("s1", ask, t0)},
		},
		{
			name:      "a lookup before any prompt belongs to no turn",
			lines:     []string{toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat})},
			decisions: []injections.Decision{decision("s1", ask, t0)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turns, _, err := Read(writeTranscript(t, tt.lines...), 0, mems)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range Candidates(turns, tt.decisions, mems) {
				g := fmt.Sprintf("%s/%s/%v/%s", c.Slug, c.How, c.Used, c.Hook)
				if c.Alias != "basket penny short" {
					g += "/" + c.Alias
				}
				got = append(got, g)
				if c.Key != Key(c.Alias) || c.Session != "s1" || c.PromptID != "u1" {
					t.Errorf("candidate %+v", c)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("candidates %q, want %q", got, tt.want)
			}
		})
	}
}

// The last turn is read again next time (it may not be over): the offset
// returned is its prompt's, and a candidate read twice is one.
func TestReadResumesAtTheLastTurn(t *testing.T) {
	first := prompt("u1", "s1", "deploys on friday?", t0)
	p := writeTranscript(t, first, say("no"), prompt("u2", "s1", ask, t0), toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat}))
	turns, resume, err := Read(p, 0, mems)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || resume != turns[1].Offset || resume != int64(len(first)+len(say("no"))+2) {
		t.Fatalf("%d turns, resume at %d (second turn at %d)", len(turns), resume, turns[1].Offset)
	}
	d := []injections.Decision{decision("s1", ask, t0)}
	b := &Book{Offsets: map[string]int64{}}
	if n := b.Add(Candidates(turns, d, mems)); n != 1 {
		t.Fatalf("added %d", n)
	}
	again, _, err := Read(p, resume, mems)
	if err != nil || len(again) != 1 {
		t.Fatalf("read again: %d turns, %v", len(again), err)
	}
	if n := b.Add(Candidates(again, d, mems)); n != 0 {
		t.Errorf("the same candidate added again (%d)", n)
	}
}

func TestBookReady(t *testing.T) {
	c := func(session, prompt, slug, alias string, used bool, at int) Candidate {
		return Candidate{Session: session, PromptID: prompt, Slug: slug, Alias: alias, Key: Key(alias), Used: used,
			Status: StatusCandidate, Time: t0.Add(time.Duration(at) * time.Minute)}
	}
	tests := []struct {
		name  string
		cands []Candidate
		want  string // aliases of the ready candidates, in order
	}{
		{"used once", []Candidate{c("s1", "u1", vat, "basket penny short", true, 0)}, "basket penny short"},
		{"not used, one session", []Candidate{c("s1", "u1", vat, "basket penny short", false, 0), c("s1", "u2", vat, "penny short basket", false, 1)}, ""},
		{"not used, the same words in two sessions: the latest stands", []Candidate{c("s1", "u1", vat, "basket penny short", false, 0), c("s2", "u9", vat, "short basket, penny", false, 5)}, "short basket, penny"},
		{"other words in the second session do not recur", []Candidate{c("s1", "u1", vat, "basket penny short", false, 0), c("s2", "u9", vat, "invoice cent wrong", false, 5)}, ""},
		{"the same words for another memory do not recur", []Candidate{c("s1", "u1", vat, "basket penny short", false, 0), c("s2", "u9", friday, "basket penny short", false, 5)}, ""},
		{"oldest first", []Candidate{c("s2", "u2", friday, "ship on friday", true, 9), c("s1", "u1", vat, "basket penny short", true, 1)}, "basket penny short|ship on friday"},
	}
	for _, tt := range tests {
		b := &Book{Candidates: tt.cands}
		var got []string
		for _, i := range b.Ready() {
			got = append(got, b.Candidates[i].Alias)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%s: ready %q, want %q", tt.name, got, tt.want)
		}
	}

	// Settled once (learned, refused, or taken back by mem undo), a
	// memory's words are not promoted again.
	b := &Book{Candidates: []Candidate{c("s1", "u1", vat, "basket penny short", false, 0), c("s2", "u2", vat, "basket penny short", false, 1)}}
	ready := b.Ready()
	if len(ready) != 1 {
		t.Fatalf("ready %v", ready)
	}
	b.Settle(ready[0], StatusRefused, "copies the memory's own terms", "")
	for _, x := range b.Candidates {
		if x.Status != StatusRefused {
			t.Errorf("not settled with the group: %+v", x)
		}
	}
	b.Add([]Candidate{c("s3", "u3", vat, "basket penny short", true, 2)})
	if r := b.Ready(); len(r) != 0 {
		t.Errorf("settled words ready again: %v", r)
	}
}

func TestBookSaveLoadPrune(t *testing.T) {
	dir := t.TempDir()
	if b := LoadBook(dir); len(b.Candidates) != 0 || b.Offsets == nil {
		t.Fatalf("empty book %+v", b)
	}
	gone := filepath.Join(dir, "gone.jsonl")
	kept := filepath.Join(dir, "kept.jsonl")
	os.WriteFile(kept, nil, 0o644)
	b := &Book{Offsets: map[string]int64{gone: 10, kept: 20}, Candidates: []Candidate{
		{Slug: vat, Alias: "old", Status: StatusCandidate, Time: t0.Add(-100 * 24 * time.Hour)},
		{Slug: vat, Alias: "old but learned", Status: StatusLearned, Time: t0.Add(-100 * 24 * time.Hour)},
		{Slug: vat, Alias: "recent", Status: StatusCandidate, Time: t0.Add(-time.Hour)},
	}}
	b.Prune(t0)
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	got := LoadBook(dir)
	var aliases []string
	for _, c := range got.Candidates {
		aliases = append(aliases, c.Alias)
	}
	if strings.Join(aliases, "|") != "old but learned|recent" || len(got.Offsets) != 1 || got.Offsets[kept] != 20 {
		t.Errorf("after prune: %q, offsets %v", aliases, got.Offsets)
	}
}

// FuzzRead: whatever a transcript holds, reading it and making candidates
// neither fails nor panics, and every candidate names a known memory.
func FuzzRead(f *testing.F) {
	f.Add(prompt("u1", "s1", ask, t0) + "\n" + toolUse("t1", "Bash", map[string]any{"command": "mem show " + vat}) + "\n")
	f.Add(toolResult("t1", vat) + "\n" + "{not json\n")
	f.Add(prompt("u1", "s1", ask, t0) + "\n" + toolUse("t1", "mcp__x__context_query", nil) + "\n" + toolResult("t1", "a-b "+vat+" c") + "\n")
	f.Fuzz(func(t *testing.T, data string) {
		p := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		turns, _, err := Read(p, 0, mems)
		if err != nil {
			t.Fatal(err)
		}
		var ds []injections.Decision
		for _, tu := range turns {
			ds = append(ds, decision(tu.Session, tu.Prompt, tu.Time))
		}
		for _, c := range Candidates(turns, ds, mems) {
			if _, ok := mems.Names[c.Slug]; !ok {
				t.Errorf("candidate for an unknown memory %q", c.Slug)
			}
		}
	})
}

// TestReadRealTranscripts: on real Claude Code transcripts, reading from
// where the last read left off gives the last turn again and nothing else,
// and every turn starts at a prompt's line.
func TestReadRealTranscripts(t *testing.T) {
	for _, p := range shareddata.Transcripts(t) {
		turns, resume, err := Read(p, 0, mems)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if len(turns) == 0 {
			continue
		}
		again, resume2, err := Read(p, resume, mems)
		if err != nil || len(again) != 1 || resume2 != resume || again[0].PromptID != turns[len(turns)-1].PromptID {
			t.Errorf("%s: read again from %d: %d turns, resume %d, %v", filepath.Base(p), resume, len(again), resume2, err)
		}
		for _, tu := range turns {
			if tu.Prompt == "" || tu.Offset < 0 {
				t.Errorf("%s: turn %+v", filepath.Base(p), tu)
			}
		}
	}
}
