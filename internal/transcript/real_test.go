package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// naiveCounts counts, by plain string search on each line, what the reader
// should find. Progress lines are left out: they nest a subagent's messages
// (agent_progress), which are not the session's own entries.
type naiveCounts struct{ lines, assistant, user, toolUses, edits int }

func countNaively(b []byte) naiveCounts {
	var c naiveCounts
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		c.lines++
		if bytes.Contains(line, []byte(`"type":"progress"`)) {
			continue
		}
		if bytes.Contains(line, []byte(`"role":"assistant"`)) {
			c.assistant++
		}
		if bytes.Contains(line, []byte(`"role":"user"`)) {
			c.user++
		}
		c.toolUses += bytes.Count(line, []byte(`"type":"tool_use"`))
		for _, name := range []string{"Edit", "Write", "MultiEdit", "NotebookEdit"} {
			c.edits += bytes.Count(line, []byte(`"name":"`+name+`","input":`))
		}
	}
	return c
}

func TestRealTranscripts(t *testing.T) {
	for _, path := range shareddata.Transcripts(t) {
		name, _ := filepath.Rel(shareddata.Path("external", "transcripts"), path)
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := countNaively(b)

			var got naiveCounts
			var r Reader
			var lastText string
			lastTextAt := int64(-1) // where the line of the last assistant text starts
			prompts := 0
			next, err := r.Read(path, 0, func(e Entry) error {
				switch e.Type {
				case "assistant":
					got.assistant++
				case "user":
					got.user++
					if e.Prompt != "" {
						prompts++
						// When this prompt was typed the transcript ended here:
						// the prompt hook finds the previous turn only if the
						// whole line lies in the last maxTailWindow bytes.
						if back := e.Offset - lastTextAt; lastTextAt >= 0 && back > maxTailWindow {
							t.Errorf("prompt at offset %d: the previous assistant text starts %d bytes back, beyond the %d the hook reads", e.Offset, back, maxTailWindow)
						}
					}
				}
				got.toolUses += len(e.ToolUses)
				for _, u := range e.ToolUses {
					switch u.Name {
					case "Edit", "Write", "MultiEdit", "NotebookEdit":
						got.edits++
						if u.FilePath == "" {
							t.Errorf("%s at offset %d has no file path", u.Name, e.Offset)
						}
					case "Bash":
						if u.Command == "" {
							t.Errorf("Bash at offset %d has no command", e.Offset)
						}
					}
				}
				for _, s := range e.Text {
					if strings.TrimSpace(s) != "" && !e.IsAPIError {
						lastText, lastTextAt = s, e.Offset
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got.lines = r.Lines
			if next != int64(len(b)) {
				t.Errorf("next = %d, want %d", next, len(b))
			}
			if r.Malformed != 0 {
				t.Errorf("%d malformed lines", r.Malformed)
			}
			if got != want {
				t.Errorf("counts:\n got %+v\nwant %+v (by string search)", got, want)
			}

			// Assistant only, as the Stop hook reads: the same tool uses.
			ra := Reader{Types: []string{"assistant"}}
			tools := 0
			if _, err := ra.Read(path, 0, func(e Entry) error { tools += len(e.ToolUses); return nil }); err != nil {
				t.Fatal(err)
			}
			if tools != want.toolUses || ra.Malformed != 0 || ra.Decoded != want.assistant {
				t.Errorf("assistant-only read: %d tool uses, %+v", tools, ra)
			}

			text, err := LastAssistantText(path)
			if err != nil || text != lastText {
				t.Errorf("LastAssistantText = %.60q, %v; want %.60q", text, err, lastText)
			}

			// Read the file as it grows, cut at arbitrary bytes: the
			// same entries, whatever the cuts.
			grow := filepath.Join(t.TempDir(), "grow.jsonl")
			var off int64
			incremental := 0
			for cut := 0; cut < len(b); {
				cut = min(len(b), cut+1+len(b)/7)
				if err := os.WriteFile(grow, b[:cut], 0o644); err != nil {
					t.Fatal(err)
				}
				if off, err = ReadFrom(grow, off, func(e Entry) error { incremental += len(e.ToolUses); return nil }); err != nil {
					t.Fatal(err)
				}
			}
			if incremental != want.toolUses || off != int64(len(b)) {
				t.Errorf("incremental read: %d tool uses, offset %d", incremental, off)
			}
			t.Logf("%d lines, %d assistant, %d user (%d prompts), %d tool uses, %d edits",
				got.lines, got.assistant, got.user, prompts, got.toolUses, got.edits)
		})
	}
}

// largestTranscript returns the largest real transcript and its size.
func largestTranscript(b *testing.B) (string, int64) {
	var largest string
	var size int64
	for _, p := range shareddata.Transcripts(b) {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			largest, size = p, fi.Size()
		}
	}
	return largest, size
}

func BenchmarkReadAssistant(b *testing.B) {
	largest, size := largestTranscript(b)
	b.SetBytes(size)
	for b.Loop() {
		r := Reader{Types: []string{"assistant"}}
		if _, err := r.Read(largest, 0, func(Entry) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadAll(b *testing.B) {
	largest, size := largestTranscript(b)
	b.SetBytes(size)
	for b.Loop() {
		if _, err := ReadFrom(largest, 0, func(Entry) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLastAssistantText(b *testing.B) {
	paths := shareddata.Transcripts(b)
	for b.Loop() {
		for _, p := range paths {
			if _, err := LastAssistantText(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
