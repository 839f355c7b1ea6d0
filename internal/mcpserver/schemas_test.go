package mcpserver

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"
)

// TestToolSchemas: schemas.json, which tools/list sends, is what the
// tools' Go types infer, tightened as register says; go test -run
// ToolSchemas -update rewrites it.
func TestToolSchemas(t *testing.T) {
	_, s := newServer(nil, "test")
	type pair struct {
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	}
	want := map[string]pair{}
	for _, name := range slices.Sorted(maps.Keys(s.tools)) {
		sc, err := s.tools[name]()
		if err != nil {
			t.Fatal(err)
		}
		in, err := json.Marshal(sc.in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(sc.out)
		if err != nil {
			t.Fatal(err)
		}
		want[name] = pair{in, out}
	}
	data, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile("schemas.json", data, 0o644); err != nil {
			t.Fatal(err)
		}
		schemasJSON = data
	}
	var got map[string]pair
	if err := json.Unmarshal(schemasJSON, &got); err != nil {
		t.Fatalf("schemas.json: %v", err)
	}
	if len(got) != len(want) {
		t.Errorf("schemas.json lists %d tools, the server has %d (go test -run ToolSchemas -update)", len(got), len(want))
	}
	for name, w := range want {
		g := got[name]
		var gi, go_ bytes.Buffer
		json.Compact(&gi, g.Input)
		json.Compact(&go_, g.Output)
		if gi.String() != string(w.Input) || go_.String() != string(w.Output) {
			t.Errorf("%s: schemas.json differs from what its types infer (go test -run ToolSchemas -update):\n got %s %s\nwant %s %s",
				name, gi.String(), go_.String(), w.Input, w.Output)
		}
	}
}
