package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mem-dev/mem"
)

var update = flag.Bool("update", false, "rewrite testdata/wire.golden from the server's answers")

// wireScript is a session as a client sends it, one JSON-RPC message a
// line: the handshake, the tool list, and a call of every tool (with the
// defaults a call leaves out, bad arguments, a missing memory, a null, an
// unknown tool).
var wireScript = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"golden","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_list","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_store","arguments":{"name":"Spanish VAT rounds per line","description":"VAT is rounded per order line, never on the order total","class":"gotcha","importance":7,"tags":["checkout","vat"],"content":"Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py."}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"Feature flags live in config/flags.yaml","class":null}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"Feature flags live in config/flags.yaml"}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"x","importance":42}}}`,
	`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"context_query","arguments":{"query":"why are spanish orders one cent off after VAT rounding?"}}}`,
	`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"context_query","arguments":{"query":"kubernetes ingress certificates","limit":2}}}`,
	`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"memory_show","arguments":{"slug":"spanish-vat-rounds-per-line"}}}`,
	`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"memory_show","arguments":{"slug":"no-such-memory"}}}`,
	`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"memory_update","arguments":{"slug":"spanish-vat-rounds-per-line","importance":8}}}`,
	`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"memory_update","arguments":{"slug":"spanish-vat-rounds-per-line"}}}`,
	`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"memory_forget","arguments":{"slug":"feature-flags-live-in-config-flags-yaml"}}}`,
	`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"memory_list"}}`,
	`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"memory_nuke","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"memory_list","arguments":{"all":true}}}`,
}

// What varies from run to run: commit hashes, times, and scores (recency
// decays with the clock).
var wireVaries = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{40}`), "<commit>"},
	{regexp.MustCompile(`\([0-9a-f]{7}\)`), "(<short>)"},
	{regexp.MustCompile(`mem undo [0-9a-f]{7}`), "mem undo <short>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "<time>"},
	{regexp.MustCompile(`"score":[0-9.e+-]+`), `"score":<score>`},
}

// TestWireGolden holds what mem mcp says, byte for byte, over the wire:
// every answer to wireScript, against testdata/wire.golden (go test
// -run WireGolden -update rewrites it). How the server builds its tools
// may change; what a client receives may not, unless on purpose.
func TestWireGolden(t *testing.T) {
	dir := newRepo(t)
	r, err := mem.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), r, "golden", inR, outW) }()
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 1<<20)
	var got strings.Builder
	for _, msg := range wireScript {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(msg), &m)
		if m.ID == nil {
			continue // a notification has no answer
		}
		if !replies.Scan() {
			t.Fatalf("no answer to %s: %v", msg, replies.Err())
		}
		line := replies.Text()
		for _, v := range wireVaries {
			line = v.re.ReplaceAllString(line, v.with)
		}
		fmt.Fprintf(&got, "> %s\n< %s\n", msg, line)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "wire.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d of the session differs from %s:\n got %s\nwant %s", i+1, golden, g[i], w[i])
			}
		}
		t.Fatalf("the session has %d lines, %s %d", len(g), golden, len(w))
	}
}
