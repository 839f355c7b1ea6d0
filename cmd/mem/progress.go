package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd"
)

// progress draws one line on a terminal while a model pass runs: how many
// of its steps (model calls, mostly) are done, and, while a model call is
// running, for how long, so a slow model is not taken for a hung one. It
// stays silent when stderr is not a terminal, so scripts and pipes get
// clean output.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	label       string
	on          bool
	now         func() time.Time
	done, total int
	calls       int       // model calls answered (or failed)
	running     int       // model calls in flight
	since       time.Time // when the first of them started
	stop        chan struct{}
	last        time.Time // last draw, to throttle updates
	open        bool      // a line is drawn and not yet ended
}

func newProgress(w io.Writer, label string) *progress {
	return &progress{w: w, label: label, on: isTerminal(w), now: time.Now}
}

// update is a func(done, total int) for the library's progress callbacks.
func (p *progress) update(done, total int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	if done < total && p.now().Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.draw()
	if total > 0 && done == total && p.running == 0 {
		p.endLocked()
	}
}

// step ends the line of the step before and starts one for the next,
// labelled label: a progress callback per step, for mem sweep.
func (p *progress) step(label string) func(done, total int) {
	p.mu.Lock()
	p.endLocked()
	p.label, p.done, p.total = label, 0, 0
	p.mu.Unlock()
	return p.update
}

// end ends the line, if one is drawn.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLocked()
}

func (p *progress) endLocked() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// draw redraws the line; the caller holds p.mu.
func (p *progress) draw() {
	p.last = p.now()
	var b strings.Builder
	fmt.Fprintf(&b, "\r\x1b[K%s", p.label)
	if p.total > 0 {
		const width = 30
		filled := width * min(p.done, p.total) / p.total
		fmt.Fprintf(&b, " [%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.done, p.total)
	}
	if p.total == 0 && p.calls > 0 {
		fmt.Fprintf(&b, " · model calls done: %d", p.calls)
	}
	if p.running > 0 {
		fmt.Fprintf(&b, " · waiting on the model %s", p.now().Sub(p.since).Truncate(time.Second))
	}
	io.WriteString(p.w, b.String())
	p.open = true
}

// watch returns a that shows on the line when each of its calls runs, and
// redraws the line once a second while one does; on a terminal it also
// writes the runner's log lines (a rejected answer, a retry) above the
// line rather than through it. Off a terminal it returns a as it is.
func (p *progress) watch(a modelcmd.Asker) modelcmd.Asker {
	if !p.on || a == nil {
		return a
	}
	if r, ok := a.(*modelcmd.Runner); ok && r.Log != nil {
		r.Log = &aboveLine{p: p, w: r.Log}
	}
	return watched{a, p}
}

type watched struct {
	modelcmd.Asker
	p *progress
}

func (w watched) Ask(ctx context.Context, prompt string, out any) error {
	w.p.started()
	defer w.p.finished()
	return w.Asker.Ask(ctx, prompt, out)
}

func (p *progress) started() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running++
	if p.running == 1 {
		p.since = p.now()
		p.stop = make(chan struct{})
		go p.tick(p.stop)
	}
	p.draw()
}

func (p *progress) finished() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
	p.calls++
	if p.running == 0 {
		close(p.stop)
	}
	p.draw()
}

// tick redraws the line every second until stop is closed.
func (p *progress) tick(stop chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			select {
			case <-stop: // the call ended while this tick waited
			default:
				p.draw()
			}
			p.mu.Unlock()
		}
	}
}

// aboveLine writes to w what the runner logs, clearing the progress line
// first and drawing it again after.
type aboveLine struct {
	p *progress
	w io.Writer
}

func (a *aboveLine) Write(b []byte) (int, error) {
	a.p.mu.Lock()
	defer a.p.mu.Unlock()
	open := a.p.open
	if open {
		io.WriteString(a.p.w, "\r\x1b[K")
	}
	n, err := a.w.Write(b)
	if open {
		a.p.draw()
	}
	return n, err
}
