package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxFrame bounds one inbound message (one line): a longer one is read
// through without being held and answered with an error. (A variable for
// tests.) A memory is far smaller (mem.MaxMemoryBytes).
var maxFrame = 16 << 20

// idPrefix is how much of an oversized frame is kept to find its id.
const idPrefix = 4 << 10

// frames sits between the client's stream and the SDK's transport, which
// ends the whole session on the first line it cannot decode. It passes on
// one well-formed JSON-RPC message (or batch) per line and answers any other
// line itself with the JSON-RPC error the specification gives it: a line
// that is not JSON is a parse error (-32700, id null), JSON that is not a
// message is an invalid request (-32600), and so is a request whose id is
// null and a line over maxFrame (with the request's id when its start names
// one). The session goes on.
type frames struct {
	in      *bufio.Reader
	out     *syncWriter
	pending []byte // a vetted line not yet read by the SDK
	err     error  // the input's end, returned once pending is read
	line    int
}

func newFrames(in io.Reader, out *syncWriter) *frames {
	return &frames{in: bufio.NewReaderSize(in, 64<<10), out: out}
}

func (f *frames) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, over, err := f.next()
		if err != nil {
			f.err = err
		}
		if line != nil || over {
			f.line++
			if msg := f.vet(line, over); msg != nil {
				f.pending = msg
			}
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// next reads one line. A line longer than maxFrame comes back as its first
// idPrefix bytes with over set, the rest read and dropped.
func (f *frames) next() (line []byte, over bool, err error) {
	var buf []byte
	size := 0
	for {
		chunk, err := f.in.ReadSlice('\n')
		size += len(chunk)
		switch {
		case size <= maxFrame:
			buf = append(buf, chunk...)
		case len(buf) < idPrefix:
			buf = append(buf, chunk[:min(len(chunk), idPrefix-len(buf))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && size == 0 {
			return nil, false, err
		}
		return buf, size > maxFrame, err
	}
}

// vet returns the line to pass on, or nil after answering it.
func (f *frames) vet(line []byte, over bool) []byte {
	trimmed := bytes.TrimSpace(line)
	switch {
	case over:
		f.answer(idOf(trimmed), jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("message on line %d is over %s: not read", f.line, size(maxFrame)))
		return nil
	case len(trimmed) == 0:
		return nil
	case !json.Valid(trimmed):
		f.answer(nil, jsonrpc.CodeParseError, fmt.Sprintf("line %d is not JSON", f.line))
		return nil
	}
	msgs := []json.RawMessage{trimmed}
	if trimmed[0] == '[' {
		msgs = nil // Unmarshal would decode into trimmed's own bytes
		if json.Unmarshal(trimmed, &msgs) != nil || len(msgs) == 0 {
			f.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("line %d is an empty or malformed batch", f.line))
			return nil
		}
	}
	for _, m := range msgs {
		msg, err := jsonrpc.DecodeMessage(m)
		if err != nil {
			f.answer(idOf(m), jsonrpc.CodeInvalidRequest, fmt.Sprintf("line %d is not a JSON-RPC 2.0 message: %v", f.line, err))
			return nil
		}
		// MCP requires a request's id to be a string or an integer, never
		// null (JSON-RPC 2.0 allows null but discourages it, as the id of a
		// response to a request whose id could not be read). The SDK reads a
		// null id as none and takes the request for a notification: not
		// run, never answered, the client left waiting. It is answered as an
		// invalid request, with id null, so that the client learns at once.
		if r, ok := msg.(*jsonrpc.Request); ok && !r.IsCall() && nullID(m) {
			f.answer(nil, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("line %d is a request whose id is null: give it a string or a number, or no id for a notification", f.line))
			return nil
		}
	}
	return append(trimmed, '\n')
}

// idOf finds the "id" of a message, or of the start of one that was cut:
// the members before it are decoded one by one, so a cut in a later member
// (params, usually) does not hide it. nil (null) when there is none.
func idOf(data []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			if v[0] == '"' || v[0] == '-' || '0' <= v[0] && v[0] <= '9' {
				return v
			}
			return nil
		}
	}
	return nil
}

// nullID reports whether the message m has an id member and it is null.
func nullID(m json.RawMessage) bool {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	return json.Unmarshal(m, &probe) == nil && string(probe.ID) == "null"
}

// answer writes a JSON-RPC error response.
func (f *frames) answer(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return
	}
	f.out.Write(append(b, '\n'))
}

// size writes n bytes as a person reads it.
func size(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// syncWriter serialises whole writes: the SDK writes one message per call,
// and frames' answers must not land inside one.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
