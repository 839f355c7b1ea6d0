package mcpserver

import (
	"bytes"
	"context"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// drain lets the end of input wait for the answers still being computed: a
// client that sends requests and closes stdin (`mem mcp < requests.jsonl`)
// gets every answer, instead of the server stopping mid-request. It notes
// the id of each JSON-RPC call in the newline-delimited input and strikes it
// off when a response with that id is written; at end of input it returns
// EOF once none is left (or after drainLimit, or when ctx ends).
//
// Only what will be answered is waited for, so the server exits as soon as
// nothing more can come: ids are read as the SDK reads them (jsonrpc.
// DecodeMessage), so a request whose id is null is no call (frames answers
// it before the SDK sees it), and a second call under an id still in flight,
// which the SDK drops unanswered, adds nothing.
type drain struct {
	ctx context.Context
	in  io.Reader
	out io.Writer

	mu              sync.Mutex
	waiting         map[jsonrpc.ID]bool // calls read and not yet answered
	inLine, outLine []byte
}

// drainLimit bounds the wait for answers at end of input.
const drainLimit = time.Minute

func (d *drain) Read(p []byte) (int, error) {
	n, err := d.in.Read(p)
	d.mu.Lock()
	d.inLine = eachMessage(d.inLine, p[:n], func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
			if d.waiting == nil {
				d.waiting = map[jsonrpc.ID]bool{}
			}
			d.waiting[r.ID] = true
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
	d.outLine = eachMessage(d.outLine, p[:n], func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			delete(d.waiting, r.ID)
		}
	})
	d.mu.Unlock()
	return n, err
}

// unanswered is how many calls read have no response written yet.
func (d *drain) unanswered() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.waiting)
}

// wait blocks until every call read has been answered.
func (d *drain) wait() {
	deadline := time.Now().Add(drainLimit)
	for time.Now().Before(deadline) && d.ctx.Err() == nil && d.unanswered() > 0 {
		time.Sleep(5 * time.Millisecond)
	}
}

// eachMessage appends b to the partial line, calls fn for each complete line
// that is one JSON-RPC message, and returns what remains of the partial line.
func eachMessage(partial, b []byte, fn func(jsonrpc.Message)) []byte {
	partial = append(partial, b...)
	for {
		i := bytes.IndexByte(partial, '\n')
		if i < 0 {
			return partial
		}
		if m, err := jsonrpc.DecodeMessage(partial[:i]); err == nil {
			fn(m)
		}
		partial = partial[i+1:]
	}
}
