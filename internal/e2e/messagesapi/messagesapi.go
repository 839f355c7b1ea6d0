// Package messagesapi is a fake of Anthropic's Messages API on loopback, for
// tests that run a real client (Claude Code) against it. Each test scripts
// the replies: a Script is called with every request and returns the
// assistant's turn (text, tool calls), which the server streams back as
// server-sent events the way the real API does. Every request body is kept,
// so a test can assert on exactly what the model was sent: the system
// prompt, the hooks' injected context, tool results.
//
// # Protocol covered
//
// POST /v1/messages (any query string), with "stream": true answered as SSE
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop) and without it as one JSON message. POST
// /v1/messages/count_tokens answers a fixed count. Anything else is 404.
package messagesapi

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mem-dev/mem/internal/e2e/fakeapi"
)

// Request is one decoded request body, and the raw bytes it came from.
type Request struct {
	Model     string            `json:"model"`
	System    Content           `json:"system"`
	Messages  []Message         `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
	Stream    bool              `json:"stream"`
	MaxTokens int               `json:"max_tokens"`
	Raw       []byte            `json:"-"`
}

// Message is one message of a request.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message's content: a string or a list of blocks, always read
// as blocks.
type Content []Block

// Block is one content block; which fields are set depends on Type.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   Content         `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// UnmarshalJSON takes a string as one text block.
func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Text is all the text in c, tool results' included, one block a line.
func (c Content) Text() string {
	var b strings.Builder
	for _, bl := range c {
		switch {
		case bl.Text != "":
			b.WriteString(bl.Text)
			b.WriteByte('\n')
		case bl.Type == "tool_result":
			b.WriteString(bl.Content.Text())
		}
	}
	return b.String()
}

// ToolNames lists the names of the tools the request offers the model.
func (r Request) ToolNames() []string {
	var names []string
	for _, t := range r.Tools {
		var v struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &v) == nil && v.Name != "" {
			names = append(names, v.Name)
		}
	}
	return names
}

// Last is the request's last message.
func (r Request) Last() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// ToolResult returns the content of the result of tool call id, if the
// request carries it.
func (r Request) ToolResult(id string) (Block, bool) {
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" && b.ToolUseID == id {
				return b, true
			}
		}
	}
	return Block{}, false
}

// Reply is the assistant's turn: text, then tool calls. With tool calls the
// turn stops for "tool_use", else for "end_turn".
type Reply struct {
	Text  string
	Tools []ToolCall
}

// ToolCall is one tool_use block. ID is made up when empty.
type ToolCall struct {
	ID    string
	Name  string
	Input any
}

// Script answers one request. n counts the requests the script was called
// for, from 0.
type Script = fakeapi.Script[Request, Reply]

// Server is a running fake; its URL (http://127.0.0.1:PORT) is for
// ANTHROPIC_BASE_URL.
type Server = fakeapi.Server[Request, Reply]

// Start listens on a loopback port and answers with script (nil: every
// request gets "ok").
func Start(script Script) (*Server, error) { return fakeapi.Start(protocol, script) }

var protocol = fakeapi.Protocol[Request, Reply]{
	Name:    "messagesapi",
	Path:    "/v1/messages",
	Fixed:   map[string]string{"/v1/messages/count_tokens": `{"input_tokens":100}`},
	BadJSON: `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`,
	Decode: func(body []byte) (Request, bool, error) {
		var req Request
		err := json.Unmarshal(body, &req)
		req.Raw = body
		return req, req.Stream, err
	},
	Default: Reply{Text: "ok"},
	Respond: func(id int, r Request, reply Reply) any { return message(id, r.Model, reply) },
	Events:  func(body any, event func(string, any)) { stream(body.(msgJSON), event) },
}

type msgJSON struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Role       string         `json:"role"`
	Model      string         `json:"model"`
	Content    []blockJSON    `json:"content"`
	StopReason *string        `json:"stop_reason"`
	StopSeq    *string        `json:"stop_sequence"`
	Usage      map[string]int `json:"usage"`
}

type blockJSON struct {
	Type  string `json:"type"`
	Text  string `json:"text,omitempty"`
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	Input any    `json:"input,omitempty"`
}

func message(id int, model string, r Reply) msgJSON {
	stop := "end_turn"
	var blocks []blockJSON
	if r.Text != "" || len(r.Tools) == 0 {
		blocks = append(blocks, blockJSON{Type: "text", Text: r.Text})
	}
	for i, t := range r.Tools {
		tid := t.ID
		if tid == "" {
			tid = fmt.Sprintf("toolu_%03d_%d", id, i)
		}
		in := t.Input
		if in == nil {
			in = map[string]any{}
		}
		blocks = append(blocks, blockJSON{Type: "tool_use", ID: tid, Name: t.Name, Input: in})
		stop = "tool_use"
	}
	if model == "" {
		model = "claude-fake"
	}
	return msgJSON{ID: fmt.Sprintf("msg_%03d", id), Type: "message", Role: "assistant", Model: model,
		Content: blocks, StopReason: &stop, Usage: map[string]int{"input_tokens": 10, "output_tokens": 10}}
}

// stream writes msg as the API's server-sent events.
func stream(msg msgJSON, event func(name string, data any)) {
	start := msg
	start.Content = []blockJSON{}
	start.StopReason = nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range msg.Content {
		switch b.Type {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.Text}})
		case "tool_use":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}})
			in, _ := json.Marshal(b.Input)
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": *msg.StopReason, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 10}})
	event("message_stop", map[string]any{"type": "message_stop"})
}
