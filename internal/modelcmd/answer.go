package modelcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/mem-dev/mem/internal/text"
)

// maxCandidates bounds how many opening brackets extractJSON tries, so prose
// full of brackets cannot make extraction quadratic in the answer's size.
const maxCandidates = 32

// envelope is the part of Claude's --output-format json result that matters.
type envelope struct {
	Type    string  `json:"type"`
	Subtype string  `json:"subtype"`
	IsError bool    `json:"is_error"`
	Result  *string `json:"result"`
}

// decodeAnswer decodes a command's stdout into out: the JSON inside Claude's
// envelope, or the bare JSON answer. out is written only on success.
func decodeAnswer(stdout []byte, out any, want byte) error {
	raw, err := answerJSON(stdout, want)
	if err != nil {
		return err
	}
	return DecodeStrict(raw, out)
}

// answerJSON returns the JSON answer held by a command's stdout.
func answerJSON(stdout []byte, want byte) ([]byte, error) {
	b := bytes.TrimSpace(stdout)
	if len(b) == 0 {
		return nil, errors.New("empty answer")
	}
	env, ok := asEnvelope(b)
	if !ok {
		env, ok = lastEnvelope(b)
	}
	if !ok {
		return b, nil // bare JSON; DecodeStrict judges it
	}
	if env.IsError || strings.HasPrefix(env.Subtype, "error") {
		msg := "the model reported an error"
		if env.Subtype != "" && env.Subtype != "success" {
			msg += " (" + env.Subtype + ")"
		}
		if env.Result != nil && strings.TrimSpace(*env.Result) != "" {
			msg += ": " + text.Clip(strings.TrimSpace(*env.Result), 200)
		}
		return nil, errors.New(msg)
	}
	if env.Result == nil {
		return nil, errors.New("the envelope has no result text")
	}
	raw, ok := extractJSON(*env.Result, want)
	if !ok {
		return nil, fmt.Errorf("no JSON %s in the result text %q", kindName(want), text.Clip(*env.Result, 80))
	}
	return raw, nil
}

// asEnvelope reports whether b is exactly one JSON object with
// "type":"result", Claude's result envelope.
func asEnvelope(b []byte) (envelope, bool) {
	var env envelope
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return env, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return env, false
	}
	if t, ok := fields["type"]; !ok || string(bytes.TrimSpace(t)) != `"result"` {
		return env, false
	}
	if json.Unmarshal(b, &env) != nil {
		return env, false
	}
	return env, true
}

// lastEnvelope finds the result envelope that ends the output of claude run
// with --verbose (a JSON array of messages) or --output-format stream-json
// (one JSON message per line).
func lastEnvelope(b []byte) (envelope, bool) {
	if b[0] == '[' {
		var msgs []json.RawMessage
		if json.Unmarshal(b, &msgs) != nil || len(msgs) == 0 {
			return envelope{}, false
		}
		return asEnvelope(bytes.TrimSpace(msgs[len(msgs)-1]))
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) < 2 {
		return envelope{}, false
	}
	for _, l := range lines {
		if l = bytes.TrimSpace(l); len(l) > 0 && (l[0] != '{' || !json.Valid(l)) {
			return envelope{}, false
		}
	}
	return asEnvelope(bytes.TrimSpace(lines[len(lines)-1]))
}

// Validator is an answer type that knows an empty or incomplete answer from
// a real one, which decoding alone cannot: {} decodes into any struct. A pass
// gives its answer type a Validate method (on the pointer), and DecodeStrict
// calls it after decoding; its error rejects the answer like a decoding error,
// so Runner.Ask logs it and asks once more. An answer type may carry what
// Validate checks against (the slugs a prompt asked about, say) in unexported
// fields set before the call: decoding keeps them.
type Validator interface {
	Validate() error
}

// DecodeStrict decodes exactly one JSON value from raw into out, refusing
// unknown fields, null and anything after the value, then runs out's
// Validate when it is a Validator. Like json.Unmarshal it starts from out's
// value (fields the answer does not set keep theirs), but it decodes into a
// copy: out is written only when the answer is accepted.
func DecodeStrict(raw []byte, out any) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return errors.New("the answer is null")
	}
	fresh := reflect.New(reflect.TypeOf(out).Elem())
	fresh.Elem().Set(reflect.ValueOf(out).Elem())
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(fresh.Interface()); err != nil {
		return fmt.Errorf("the answer does not decode: %s (answer began %q)", strings.TrimPrefix(err.Error(), "json: "), text.Clip(string(raw), 80))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after the JSON answer (answer began %q)", text.Clip(string(raw), 80))
	}
	if v, ok := fresh.Interface().(Validator); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("%w (answer began %q)", err, text.Clip(string(raw), 80))
		}
	}
	reflect.ValueOf(out).Elem().Set(fresh.Elem())
	return nil
}

// extractJSON returns the first complete JSON value of the wanted kind ('{'
// for an object, '[' for an array, 0 for either) in text: the content of a
// ```json fence when one holds exactly such a value, else the first one that
// starts at an opening bracket, prose around it ignored.
func extractJSON(text string, want byte) ([]byte, bool) {
	for _, block := range fences(text) {
		block = strings.TrimSpace(block)
		if block != "" && matches(block[0], want) && json.Valid([]byte(block)) {
			return []byte(block), true
		}
	}
	tried := 0
	for i := 0; i < len(text) && tried < maxCandidates; i++ {
		if !matches(text[i], want) {
			continue
		}
		tried++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) == nil {
			return raw, true
		}
	}
	return nil, false
}

// fences returns the contents of the ``` fenced blocks in text. A fence
// opened and closed on one line is left to extractJSON's scan.
func fences(text string) []string {
	var blocks []string
	for {
		start := strings.Index(text, "```")
		if start < 0 {
			return blocks
		}
		rest := text[start+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return blocks
		}
		rest = rest[nl+1:] // drop the info string (json, JSON, …)
		end := strings.Index(rest, "```")
		if end < 0 {
			return append(blocks, rest)
		}
		blocks = append(blocks, rest[:end])
		text = rest[end+3:]
	}
}

func matches(c, want byte) bool {
	if want == 0 {
		return c == '{' || c == '['
	}
	return c == want
}

func kindName(want byte) string {
	switch want {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// wantedKind returns the opening bracket of the JSON value out can hold: '{'
// for a struct or map, '[' for a slice or array, 0 when it cannot tell.
func wantedKind(out any) byte {
	t := reflect.TypeOf(out).Elem()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		return 0
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return '{'
	case reflect.Slice, reflect.Array:
		return '['
	}
	return 0
}
