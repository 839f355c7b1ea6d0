package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// FuzzFrames: whatever the client sends, frames passes on only lines that
// decode as JSON-RPC messages, answers the rest with valid JSON-RPC errors,
// and never holds more than maxFrame of a line.
func FuzzFrames(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" + `not json` + "\n"))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]` + "\n[]\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"m","params":{"a":"` + strings.Repeat("z", 300)))
	f.Add([]byte("\n\r\n  \n{\"id\":{}}\n"))
	defer func(n int) { maxFrame = n }(maxFrame)
	maxFrame = 256
	f.Fuzz(func(t *testing.T, in []byte) {
		var answers bytes.Buffer
		fr := newFrames(bytes.NewReader(in), &syncWriter{w: &answers})
		passed, err := io.ReadAll(fr)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(passed), "\n"), "\n") {
			if line != "" && !json.Valid([]byte(line)) {
				t.Fatalf("passed on %q", line)
			}
			if len(line) > maxFrame {
				t.Fatalf("passed on a line of %d bytes, over the %d of a frame", len(line), maxFrame)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(answers.String(), "\n"), "\n") {
			var resp struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct{ Code int }
			}
			if line != "" && (json.Unmarshal([]byte(line), &resp) != nil || resp.JSONRPC != "2.0" || resp.Error == nil) {
				t.Fatalf("answered %q", line)
			}
		}
	})
}
