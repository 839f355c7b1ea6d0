package responsesapi

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestServer(t *testing.T) {
	s, err := Start(func(n int, r Request) Reply {
		if n == 0 {
			return Reply{Calls: []Call{{CallID: "c1", Namespace: "mcp__mem", Name: "context_query", Arguments: map[string]any{"query": "vat"}}}}
		}
		out, _ := r.Output("c1")
		return Reply{Text: "saw " + out.Text()}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(path, body string) (int, string) {
		resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		name, body string
		want       []string
	}{
		{"stream with a namespaced call", `{"model":"m","stream":true,"instructions":"sys","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],` +
			`"tools":[{"type":"function","name":"exec_command"},{"type":"namespace","name":"mcp__mem","tools":[{"type":"function","name":"context_query"}]}]}`,
			[]string{"event: response.created\n", "event: response.output_item.added\n",
				`"arguments":"{\"query\":\"vat\"}","call_id":"c1"`, `"namespace":"mcp__mem","name":"context_query"`, "event: response.completed\n"}},
		{"json with a function output", `{"model":"m","input":[{"type":"function_call","call_id":"c1","name":"context_query","arguments":"{}"},` +
			`{"type":"function_call_output","call_id":"c1","output":"a memory"}]}`,
			[]string{`"object":"response"`, `"text":"saw a memory"`, `"type":"output_text"`}},
		{"parts as output", `{"model":"m","input":[{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"in parts"}]}]}`,
			[]string{`"text":"saw in parts"`}},
	}
	for _, tt := range tests {
		code, got := post("/v1/responses", tt.body)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", tt.name, code, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: reply lacks %q:\n%s", tt.name, w, got)
			}
		}
	}
	if code, _ := post("/v1/chat/completions", "{}"); code != 404 {
		t.Errorf("chat completions: status %d, want 404", code)
	}
	if code, _ := post("/v1/responses", "{"); code != 400 {
		t.Errorf("bad json: status %d, want 400", code)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || !json.Valid(reqs[1].Raw) {
		t.Fatalf("kept %d requests", len(reqs))
	}
	if got := reqs[0].ToolNames(); !slices.Equal(got, []string{"exec_command", "mcp__mem/context_query"}) {
		t.Errorf("tool names %q", got)
	}
	if got := reqs[0].Text(); got != "sys\nhi\n" {
		t.Errorf("text %q", got)
	}
}
