package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drain lets the end of input wait for the answers still being computed: a
// client that sends requests and closes stdin (`mem mcp < requests.jsonl`)
// gets every answer, instead of the server stopping mid-request. It counts
// JSON-RPC requests in the newline-delimited input and responses in the
// output; at end of input it returns EOF only when they match (or after
// drainLimit, or when ctx ends).
type drain struct {
	ctx context.Context
	in  io.Reader
	out io.Writer

	mu              sync.Mutex
	asked, answered int
	inLine, outLine []byte
}

// drainLimit bounds the wait for answers at end of input.
const drainLimit = time.Minute

func (d *drain) Read(p []byte) (int, error) {
	n, err := d.in.Read(p)
	d.mu.Lock()
	d.inLine = d.count(d.inLine, p[:n], func(m message) {
		if m.ID != nil && m.Method != "" {
			d.asked++
		}
	})
	d.mu.Unlock()
	if err == io.EOF {
		d.wait()
	}
	return n, err
}

func (d *drain) Write(p []byte) (int, error) {
	n, err := d.out.Write(p)
	d.mu.Lock()
	d.outLine = d.count(d.outLine, p[:n], func(m message) {
		if m.ID != nil && m.Method == "" {
			d.answered++
		}
	})
	d.mu.Unlock()
	return n, err
}

// wait blocks until every request read has been answered.
func (d *drain) wait() {
	deadline := time.Now().Add(drainLimit)
	for time.Now().Before(deadline) && d.ctx.Err() == nil {
		d.mu.Lock()
		done := d.answered >= d.asked
		d.mu.Unlock()
		if done {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// count appends b to the partial line, calls fn for each complete line that
// is a JSON object, and returns what remains of the partial line.
func (d *drain) count(partial, b []byte, fn func(message)) []byte {
	partial = append(partial, b...)
	for {
		i := bytes.IndexByte(partial, '\n')
		if i < 0 {
			return partial
		}
		var m message
		if json.Unmarshal(partial[:i], &m) == nil {
			fn(m)
		}
		partial = partial[i+1:]
	}
}
