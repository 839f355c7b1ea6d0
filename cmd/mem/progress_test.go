package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

// On a terminal the line says how many calls are done of how many and, while
// a call runs, that the model is being waited on and for how long; the
// runner's log lines go above it. Off a terminal nothing is written and the
// model is used as it is.
func TestProgress(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	p := &progress{w: &out, label: "enrich", on: true, now: func() time.Time { return clock }}
	var log bytes.Buffer
	runner := &modelcmd.Runner{Command: []string{"fake-model"}, Log: &log}
	if _, ok := p.watch(runner).(watched); !ok {
		t.Fatal("watch did not wrap the runner")
	}
	runner.Log.Write([]byte("mem: model: attempt 1 of 2 rejected: empty answer\n"))
	if log.String() != "mem: model: attempt 1 of 2 rejected: empty answer\n" {
		t.Errorf("the runner's log went to %q", log.String())
	}

	line := func() string { // the line as a terminal shows it now
		s := out.String()
		return s[strings.LastIndex(s, "\r\x1b[K")+len("\r\x1b[K"):]
	}
	p.update(0, 2)
	if got := line(); got != "enrich [..............................] 0/2" {
		t.Errorf("before the first call: %q", got)
	}
	p.started()
	clock = clock.Add(12 * time.Second)
	p.draw() // what the ticker does once a second
	if got := line(); !strings.HasSuffix(got, "0/2 · waiting on the model 12s") {
		t.Errorf("during a call: %q", got)
	}
	p.finished()
	clock = clock.Add(time.Second) // updates are drawn at most every 100ms
	p.update(1, 2)
	if got := line(); got != "enrich [###############...............] 1/2" {
		t.Errorf("after a call: %q", got)
	}
	p.update(2, 2)
	if !strings.HasSuffix(out.String(), "2/2\n") {
		t.Errorf("the line does not end when all is done: %q", out.String())
	}
	p.end()
	if strings.HasSuffix(out.String(), "\n\n") {
		t.Errorf("end after the last update wrote a second newline")
	}

	// A pass with no total (capture) counts the calls.
	out.Reset()
	c := &progress{w: &out, label: "capture", on: true, now: time.Now}
	a := c.watch(&modeltest.Asker{Answer: `{"memories":[]}`})
	var v struct {
		Memories []any `json:"memories"`
	}
	if err := a.Ask(context.Background(), "p", &v); err != nil {
		t.Fatal(err)
	}
	c.end()
	if got := out.String(); !strings.Contains(got, "capture · waiting on the model") || !strings.HasSuffix(got, "capture · model calls done: 1\n") {
		t.Errorf("capture's line: %q", got)
	}

	// Off a terminal: silent, and the model unwrapped.
	var quiet bytes.Buffer
	q := newProgress(&quiet, "enrich")
	m := &modeltest.Asker{Answer: `{}`}
	if q.watch(m) != modelcmd.Asker(m) {
		t.Error("off a terminal the model is wrapped")
	}
	q.update(0, 3)
	q.update(3, 3)
	q.end()
	if quiet.Len() != 0 {
		t.Errorf("off a terminal progress wrote %q", quiet.String())
	}
}
