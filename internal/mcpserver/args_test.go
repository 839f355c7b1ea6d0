package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// storeSchema is memory_store's input schema as New registers it.
func storeSchema(t testing.TB) *jsonschema.Schema {
	_, s := newServer(nil, "t")
	sc, err := s.tools["memory_store"]()
	if err != nil {
		t.Fatal(err)
	}
	return sc.in
}

func TestCheckArgsNulls(t *testing.T) {
	args, problem := checkArgs("memory_store", storeSchema(t), json.RawMessage(`{"content":"x","tags":null,"name":null}`))
	if problem != "" || string(args) != `{"content":"x"}` {
		t.Errorf("args %s, problem %q", args, problem)
	}
	args, problem = checkArgs("memory_store", storeSchema(t), json.RawMessage(`{"content":null}`))
	if problem == "" {
		t.Errorf("null content accepted: %s", args)
	}
	for _, raw := range []string{`[1]`, `"x"`, `{`} {
		if _, problem := checkArgs("memory_store", storeSchema(t), json.RawMessage(raw)); problem != "the arguments of memory_store must be a JSON object" {
			t.Errorf("%s: problem %q", raw, problem)
		}
	}
}

// FuzzCheckArgs checks that any arguments give either a problem or a JSON
// object, and never a panic.
func FuzzCheckArgs(f *testing.F) {
	for _, seed := range []string{
		`{"content":"x","importance":7,"class":"gotcha","tags":["a","b"]}`,
		`{"content":"x","importance":42}`, `{"content":"x","importance":1e400}`, `{"content":"x","class":"banana"}`,
		`{"content":"x","tags":"a,b"}`, `{"content":null,"x":null}`, `null`, ``, `[]`, `{"content":"\u0000"}`,
	} {
		f.Add([]byte(seed))
	}
	schema := storeSchema(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, problem := checkArgs("memory_store", schema, raw)
		if problem != "" {
			return
		}
		var m map[string]any
		if len(args) > 0 && json.Unmarshal(args, &m) != nil {
			t.Errorf("no problem with %q, but the arguments %q are not an object", raw, args)
		}
	})
}
