package capture

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/shareddata"
)

// Builders of synthetic transcript lines, in the shapes Claude Code writes.

func userLine(text string) string {
	return mustJSON(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

func metaLine(text string) string {
	return mustJSON(map[string]any{"type": "user", "isMeta": true, "message": map[string]any{"role": "user", "content": text}})
}

func compactLine(text string) string {
	return mustJSON(map[string]any{"type": "user", "isCompactSummary": true, "message": map[string]any{"role": "user", "content": text}})
}

func textLine(text string) string {
	return mustJSON(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": text}}}})
}

func sideTextLine(text string) string {
	return mustJSON(map[string]any{"type": "assistant", "isSidechain": true, "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": text}}}})
}

func thinkingLine(text string) string {
	return mustJSON(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "thinking", "thinking": text}}}})
}

func toolLineJSON(name string, input map[string]any) string {
	return mustJSON(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": name, "input": input}}}})
}

func resultLine(content any, isError bool) string {
	return mustJSON(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": content, "is_error": isError}}}})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func writeTranscript(t testing.TB, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "session.jsonl")
	data := strings.Join(lines, "\n")
	if len(lines) > 0 {
		data += "\n"
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDigest(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct {
		name  string
		lines []string
		max   int
		want  string
	}{
		{
			name: "prompts, text, edits, commands and errors",
			lines: []string{
				`{"type":"summary","summary":"Fix rounding","leafUuid":"x"}`,
				userLine("Why is VAT off by one cent?"),
				thinkingLine("private reasoning"),
				textLine("Let me look."),
				toolLineJSON("Read", map[string]any{"file_path": "/w/shop/tax.py"}),
				toolLineJSON("Grep", map[string]any{"pattern": "round"}),
				toolLineJSON("Bash", map[string]any{"command": "pytest shop/", "description": "run tests"}),
				resultLine("Exit code 1\nFAILED test_tax.py::test_lines", true),
				toolLineJSON("Edit", map[string]any{"file_path": "/w/shop/tax.py", "old_string": "a", "new_string": "b"}),
				resultLine("ok", false),
				toolLineJSON("Write", map[string]any{"file_path": "/w/shop/notes.md", "content": "..."}),
				toolLineJSON("Task", map[string]any{"description": "Audit refunds", "prompt": "long prompt"}),
				toolLineJSON("WebFetch", map[string]any{"url": "https://docs.example.com/vat", "prompt": "rates"}),
				toolLineJSON("ExitPlanMode", map[string]any{}),
				userLine("Round per line, never on the total — finance insists."),
			},
			want: "L1 user: Why is VAT off by one cent?\n" +
				"L2 assistant: Let me look.\n" +
				"L3 tool: Bash pytest shop/\n" +
				"L4 error: Exit code 1 FAILED test_tax.py::test_lines\n" +
				"L5 tool: Edit /w/shop/tax.py\n" +
				"L6 tool: Write /w/shop/notes.md\n" +
				"L7 tool: Task Audit refunds\n" +
				"L8 tool: WebFetch https://docs.example.com/vat\n" +
				"L9 tool: ExitPlanMode\n" +
				"L10 user: Round per line, never on the total — finance insists.",
		},
		{
			name: "Claude Code's own messages are left out",
			lines: []string{
				metaLine("<local-command-caveat>Caveat</local-command-caveat>"),
				userLine("<command-name>/model</command-name>"),
				userLine("[Request interrupted by user]"),
				compactLine("This session is being continued from a previous conversation..."),
				mustJSON(map[string]any{"type": "assistant", "isApiErrorMessage": true, "message": map[string]any{"role": "assistant",
					"content": []any{map[string]any{"type": "text", "text": "API Error: 529 overloaded"}}}}),
				userLine("hello"),
			},
			want: "L1 user: hello",
		},
		{
			name: "a refused tool call is the developer's word",
			lines: []string{
				toolLineJSON("Bash", map[string]any{"command": "npm install"}),
				resultLine("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection:  use pnpm", true),
				toolLineJSON("Bash", map[string]any{"command": "rm -rf dist"}),
				resultLine("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", true),
			},
			want: "L1 tool: Bash npm install\nL2 user: (refusing the tool call) use pnpm\nL3 tool: Bash rm -rf dist\nL4 error: the developer refused this tool call",
		},
		{
			name: "error as a list of blocks",
			lines: []string{
				resultLine([]any{map[string]any{"type": "text", "text": "permission denied"}}, true),
			},
			want: "L1 error: permission denied",
		},
		{
			name: "multi-line text on one line, long command cut",
			lines: []string{
				textLine("First line.\n\n  Second\tline."),
				toolLineJSON("Bash", map[string]any{"command": "echo " + long}),
			},
			want: "L1 assistant: First line. Second line.\n" +
				"L2 tool: " + ("Bash echo " + long)[:commandCap-len("…")] + "…",
		},
		{
			name: "repeats collapsed",
			lines: []string{
				toolLineJSON("Bash", map[string]any{"command": "go test ./..."}),
				toolLineJSON("Bash", map[string]any{"command": "go test ./..."}),
				toolLineJSON("Bash", map[string]any{"command": "go test ./..."}),
				textLine("green"),
				toolLineJSON("Bash", map[string]any{"command": "go test ./..."}),
			},
			want: "L1 tool: Bash go test ./... (×3)\nL2 assistant: green\nL3 tool: Bash go test ./...",
		},
		{
			name:  "subagent lines dropped beside a main conversation",
			lines: []string{userLine("main task"), sideTextLine("subagent chatter"), textLine("done")},
			want:  "L1 user: main task\nL2 assistant: done",
		},
		{
			name:  "a subagent's own file is digested",
			lines: []string{sideTextLine("subagent finding")},
			want:  "L1 assistant: subagent finding",
		},
		{
			name:  "empty transcript",
			lines: nil,
			want:  "",
		},
		{
			name:  "malformed lines skipped",
			lines: []string{"not json", `{"type":"user"`, userLine("still here")},
			want:  "L1 user: still here",
		},
		{
			name: "too long: first prompt, marker, then the end",
			lines: []string{
				userLine("Implement the rounding fix"),
				textLine("one " + strings.Repeat("a", 40)),
				textLine("two " + strings.Repeat("b", 40)),
				textLine("three " + strings.Repeat("c", 40)),
				userLine("did you push?"),
			},
			max: 170,
			want: "L1 user: Implement…\n" +
				"[… 2 earlier lines left out]\n" +
				"L4 assistant: three " + strings.Repeat("c", 40) + "\n" +
				"L5 user: did you push?",
		},
		{
			name:  "too long, but the end reaches back to the first prompt: shown once",
			lines: []string{textLine("intro " + strings.Repeat("a", 40)), userLine("go"), textLine("ok")},
			max:   76,
			want:  "[… 1 earlier lines left out]\nL2 user: go\nL3 assistant: ok",
		},
		{
			name:  "too long for even the last line: its end",
			lines: []string{userLine("first"), textLine("the final words of a very long message")},
			max:   20,
			want:  "…very long message",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeTranscript(t, tt.lines...)
			got, err := Digest(p, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Digest:\n got %q\nwant %q", got, tt.want)
			}
			max := tt.max
			if max <= 0 {
				max = DefaultDigestBytes
			}
			if len(got) > max {
				t.Errorf("digest is %d bytes, over %d", len(got), max)
			}
		})
	}
}

func TestDigestMissingFile(t *testing.T) {
	if _, err := Digest(filepath.Join(t.TempDir(), "nope.jsonl"), 0); err == nil {
		t.Fatal("want an error for a missing transcript")
	}
}

// Every size, however small, is respected, and the cut never splits a rune.
func TestDigestFitsEverySize(t *testing.T) {
	p := writeTranscript(t,
		userLine("Décidez: arrondir par ligne — jamais le total 🙂"),
		textLine(strings.Repeat("é", 100)),
		toolLineJSON("Edit", map[string]any{"file_path": "/w/ünïcode.go"}),
		userLine("ok ✓"),
	)
	for max := 1; max <= 400; max++ {
		got, err := Digest(p, max)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > max || !utf8.ValidString(got) {
			t.Fatalf("max %d: %d bytes, valid UTF-8 %v: %q", max, len(got), utf8.ValidString(got), got)
		}
		if max >= 20 && !strings.HasSuffix(got, "ok ✓") {
			t.Fatalf("max %d: the end of the session is lost: %q", max, got)
		}
	}
}

func TestDigestRealTranscripts(t *testing.T) {
	files := shareddata.Transcripts(t)
	nonEmpty := 0
	for _, f := range files {
		for _, max := range []int{4 << 10, DefaultDigestBytes} {
			d, err := Digest(f, max)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if len(d) > max || !utf8.ValidString(d) {
				t.Errorf("%s: %d bytes (max %d), valid UTF-8 %v", f, len(d), max, utf8.ValidString(d))
			}
			if strings.Contains(d, "<system-reminder>") || strings.Contains(d, "<command-name>") {
				t.Errorf("%s: Claude Code's own tags leaked into the digest", f)
			}
			if max == DefaultDigestBytes && d != "" {
				nonEmpty++
			}
		}
	}
	t.Logf("%d transcripts digested, %d with content", len(files), nonEmpty)
	if nonEmpty < len(files)/2 {
		t.Errorf("only %d of %d transcripts gave a digest", nonEmpty, len(files))
	}
}

func FuzzDigest(f *testing.F) {
	f.Add([]byte(userLine("hi")+"\n"+textLine("there")+"\n"), 50)
	f.Add([]byte(toolLineJSON("Bash", map[string]any{"command": "ls\nls"})+"\n"+resultLine("boom", true)+"\n"), 10)
	if data, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "sample.jsonl")); err == nil {
		f.Add(data, 200)
	}
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Digest(p, max)
		if err != nil {
			t.Fatal(err)
		}
		if max <= 0 {
			max = DefaultDigestBytes
		}
		if len(d) > max || !utf8.ValidString(d) {
			t.Fatalf("%d bytes for max %d, valid UTF-8 %v", len(d), max, utf8.ValidString(d))
		}
	})
}
