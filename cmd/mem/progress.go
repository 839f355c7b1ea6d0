package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line bar on a terminal for long model passes and
// stays silent otherwise, so scripts and pipes get clean output.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	last  time.Time
	on    bool
}

func newProgress(w io.Writer, label string) *progress {
	on := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, label: label, on: on}
}

// update is a func(done, total int) for the library's progress callbacks.
func (p *progress) update(done, total int) {
	if !p.on || total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done < total && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	const width = 30
	filled := width * done / total
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.label, strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
	if done == total {
		fmt.Fprintln(p.w)
	}
}
