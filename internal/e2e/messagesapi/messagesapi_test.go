package messagesapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestServer(t *testing.T) {
	s, err := Start(func(n int, r Request) Reply {
		if n == 0 {
			return Reply{Text: "looking", Tools: []ToolCall{{ID: "t1", Name: "Bash", Input: map[string]any{"command": "ls"}}}}
		}
		return Reply{Text: "saw " + r.Last().Content.Text()}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(body string) string {
		resp, err := http.Post(s.URL+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	tests := []struct {
		name, body string
		want       []string
	}{
		{"stream with a tool call", `{"model":"m","stream":true,"system":"sys","messages":[{"role":"user","content":"hi"}],"tools":[{"name":"Bash"}]}`,
			[]string{"event: message_start\n", `"content_block":{"id":"t1","input":{},"name":"Bash","type":"tool_use"}`, `"partial_json":"{\"command\":\"ls\"}"`,
				`"stop_reason":"tool_use"`, "event: message_stop\n"}},
		{"json with blocks", `{"model":"m","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go"}]}]}]}`,
			[]string{`"type":"message"`, `"text":"saw a.go\n"`, `"stop_reason":"end_turn"`}},
	}
	for _, tt := range tests {
		got := post(tt.body)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: reply lacks %q:\n%s", tt.name, w, got)
			}
		}
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].System.Text() != "sys\n" || reqs[0].ToolNames()[0] != "Bash" || !json.Valid(reqs[1].Raw) {
		t.Fatalf("kept requests %+v", reqs)
	}
	if b, ok := reqs[1].ToolResult("t1"); !ok || b.Content.Text() != "a.go\n" {
		t.Fatalf("tool result %+v %v", b, ok)
	}
}
