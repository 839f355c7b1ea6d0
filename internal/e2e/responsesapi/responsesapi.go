// Package responsesapi is a fake of OpenAI's Responses API on loopback, for
// tests that run a real client (Codex) against it. Each test scripts the
// replies: a Script is called with every request and returns the model's
// turn (text, function calls), which the server streams back as server-sent
// events the way the real API does. Every request body is kept, so a test
// can assert on exactly what the model was sent: the instructions, the
// tools offered, and each tool's output in the next request.
//
// A client reaches it as a custom model provider; for Codex, in
// $CODEX_HOME/config.toml:
//
//	model_provider = "fake"
//	[model_providers.fake]
//	base_url = "<URL>/v1"
//	wire_api = "responses"
//	env_key = "FAKE_API_KEY"
//
// # Protocol covered
//
// POST /v1/responses, with "stream": true answered as SSE (response.created,
// then for each output item response.output_item.added, for text
// response.output_text.delta, and response.output_item.done, then
// response.completed with usage) and without it as one JSON response.
// Output items are assistant messages (output_text) and function calls,
// which may name a namespace: Codex offers each MCP server's tools as a
// namespace ("mcp__<server>") of functions and expects the call to name it;
// OpenCode (its openai provider with options.baseURL) offers them as flat
// functions ("<server>_<tool>").
// Anything else is 404.
package responsesapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mem-dev/mem/internal/e2e/fakeapi"
)

// Request is one decoded request body, and the raw bytes it came from.
type Request struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Input        []Item            `json:"input"`
	Tools        []json.RawMessage `json:"tools"`
	Stream       bool              `json:"stream"`
	Raw          []byte            `json:"-"`
}

// Item is one input item; which fields are set depends on Type: "message"
// (Role, Content; OpenCode leaves Type empty), "function_call" (Namespace, Name, Arguments, CallID) or
// "function_call_output" (CallID, Output).
type Item struct {
	Type      string          `json:"type"`
	ID        string          `json:"id,omitempty"`
	Role      string          `json:"role,omitempty"`
	Content   Parts           `json:"content,omitempty"`
	Namespace string          `json:"namespace,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments string          `json:"arguments,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
}

// Part is one part of a message's content (input_text, output_text, ...).
type Part struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// Parts is a message's content: a list of parts, or a string (OpenCode
// sends its system and user messages so), read as one input_text part.
type Parts []Part

// UnmarshalJSON takes a string as one input_text part.
func (p *Parts) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = Parts{{Type: "input_text", Text: s}}
		return nil
	}
	var parts []Part
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	*p = parts
	return nil
}

// Text is the text of a message item's parts, one a line, or the text of a
// function call's output (a string, or a list of parts).
func (it Item) Text() string {
	var b strings.Builder
	for _, p := range it.Content {
		if p.Text != "" {
			b.WriteString(p.Text)
			b.WriteByte('\n')
		}
	}
	if len(it.Output) > 0 {
		var s string
		if json.Unmarshal(it.Output, &s) == nil {
			b.WriteString(s)
		} else {
			var parts []Part
			json.Unmarshal(it.Output, &parts)
			for _, p := range parts {
				b.WriteString(p.Text)
			}
		}
	}
	return b.String()
}

// Text is the text of every message in the request's input, one part a
// line, with the instructions first.
func (r Request) Text() string {
	var b strings.Builder
	if r.Instructions != "" {
		b.WriteString(r.Instructions)
		b.WriteByte('\n')
	}
	for _, it := range r.Input {
		if it.Type == "message" || it.Type == "" && it.Role != "" { // OpenCode's messages carry no type
			b.WriteString(it.Text())
		}
	}
	return b.String()
}

// ToolNames lists the tools the request offers the model; a function in a
// namespace is named NAMESPACE/NAME.
func (r Request) ToolNames() []string {
	type tool struct {
		Type  string `json:"type"`
		Name  string `json:"name"`
		Tools []tool `json:"tools"`
	}
	var names []string
	for _, raw := range r.Tools {
		var t tool
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		if t.Type == "namespace" {
			for _, f := range t.Tools {
				names = append(names, t.Name+"/"+f.Name)
			}
			continue
		}
		if t.Name != "" {
			names = append(names, t.Name)
		}
	}
	return names
}

// Output returns the output of function call callID, if the request
// carries it.
func (r Request) Output(callID string) (Item, bool) {
	for _, it := range r.Input {
		if it.Type == "function_call_output" && it.CallID == callID {
			return it, true
		}
	}
	return Item{}, false
}

// Reply is the model's turn: text, then function calls.
type Reply struct {
	Text  string
	Calls []Call
}

// Call is one function call. CallID is made up when empty; Arguments is
// marshalled to the JSON string the API carries.
type Call struct {
	CallID    string
	Namespace string
	Name      string
	Arguments any
}

// Script answers one request. n counts the requests the script was called
// for, from 0.
type Script = fakeapi.Script[Request, Reply]

// Server is a running fake; its URL is http://127.0.0.1:PORT, and the
// provider's base_url is URL+"/v1".
type Server = fakeapi.Server[Request, Reply]

// Start listens on a loopback port and answers with script (nil: every
// request gets "ok").
func Start(script Script) (*Server, error) { return fakeapi.Start(protocol, script) }

var protocol = fakeapi.Protocol[Request, Reply]{
	Name:    "responsesapi",
	Path:    "/v1/responses",
	BadJSON: `{"error":{"type":"invalid_request_error","message":"bad json"}}`,
	Decode: func(body []byte) (Request, bool, error) {
		var req Request
		err := json.Unmarshal(body, &req)
		req.Raw = body
		return req, req.Stream, err
	},
	Default: Reply{Text: "ok"},
	Respond: func(id int, r Request, reply Reply) any { return response(id, r.Model, reply) },
	Events:  func(body any, event func(string, any)) { stream(body.(respJSON), event) },
}

type respJSON struct {
	ID        string     `json:"id"`
	Object    string     `json:"object"`
	CreatedAt int64      `json:"created_at"`
	Status    string     `json:"status"`
	Model     string     `json:"model"`
	Output    []itemJSON `json:"output"`
	Usage     *usageJSON `json:"usage"`
}

type usageJSON struct {
	InputTokens         int            `json:"input_tokens"`
	InputTokensDetails  map[string]int `json:"input_tokens_details"`
	OutputTokens        int            `json:"output_tokens"`
	OutputTokensDetails map[string]int `json:"output_tokens_details"`
	TotalTokens         int            `json:"total_tokens"`
}

type itemJSON struct {
	Type      string     `json:"type"`
	ID        string     `json:"id"`
	Status    string     `json:"status,omitempty"`
	Role      string     `json:"role,omitempty"`
	Content   []partJSON `json:"content,omitempty"`
	Namespace string     `json:"namespace,omitempty"`
	Name      string     `json:"name,omitempty"`
	Arguments string     `json:"arguments,omitempty"`
	CallID    string     `json:"call_id,omitempty"`
}

type partJSON struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations"`
}

func response(id int, model string, r Reply) respJSON {
	var out []itemJSON
	if r.Text != "" || len(r.Calls) == 0 {
		out = append(out, itemJSON{Type: "message", ID: fmt.Sprintf("msg_%03d", id), Status: "completed", Role: "assistant",
			Content: []partJSON{{Type: "output_text", Text: r.Text, Annotations: []any{}}}})
	}
	for i, c := range r.Calls {
		cid := c.CallID
		if cid == "" {
			cid = fmt.Sprintf("call_%03d_%d", id, i)
		}
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		a, _ := json.Marshal(args)
		out = append(out, itemJSON{Type: "function_call", ID: fmt.Sprintf("fc_%03d_%d", id, i), Status: "completed",
			Namespace: c.Namespace, Name: c.Name, Arguments: string(a), CallID: cid})
	}
	if model == "" {
		model = "gpt-fake"
	}
	return respJSON{ID: fmt.Sprintf("resp_%03d", id), Object: "response", CreatedAt: 1764633600, Status: "completed", Model: model, Output: out,
		Usage: &usageJSON{InputTokens: 10, InputTokensDetails: map[string]int{"cached_tokens": 0},
			OutputTokens: 10, OutputTokensDetails: map[string]int{"reasoning_tokens": 0}, TotalTokens: 20}}
}

// stream writes resp as the API's server-sent events, numbered.
func stream(resp respJSON, emit func(name string, data any)) {
	seq := 0
	event := func(name string, data map[string]any) {
		data["type"], data["sequence_number"] = name, seq
		seq++
		emit(name, data)
	}
	start := resp
	start.Status, start.Output, start.Usage = "in_progress", []itemJSON{}, nil
	event("response.created", map[string]any{"response": start})
	for i, it := range resp.Output {
		added := it
		added.Status = "in_progress"
		if it.Type == "message" {
			added.Content = []partJSON{}
		}
		event("response.output_item.added", map[string]any{"output_index": i, "item": added})
		if it.Type == "message" {
			event("response.output_text.delta", map[string]any{"output_index": i, "item_id": it.ID, "content_index": 0,
				"delta": it.Content[0].Text})
		}
		event("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	event("response.completed", map[string]any{"response": resp})
}
