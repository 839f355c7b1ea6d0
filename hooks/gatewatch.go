package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/memuse"
	"github.com/mem-dev/mem/internal/transcript"
)

// gateObserver reads new transcript entries into a state.
type gateObserver struct {
	place locate.Place
	cwd   string
	st    *gateState
	store []string // the store root, and its symlink-resolved form when it differs
	// last is the turn that just ended, squeezed, when the stop named it;
	// sawLast says the transcript holds it.
	last    string
	sawLast bool
	found   bool   // the agent looked a memory up in what was read (see GateResult.Found)
	note    string // what was passed over, for the log
}

// await reads the transcript from the state's offset on. Claude Code writes
// it asynchronously, so when the stop named the turn that ended, await reads
// on (what was appended since) until that turn is in, or until deadline,
// looking at the file's size every gateTranscriptPoll and reading only when
// it moved. It reports false when the transcript does not exist yet.
func (o *gateObserver) await(path string, deadline time.Time) (bool, error) {
	seen, exists := int64(-1), false // the size read last; whether the file was there
	for {
		if fi, err := os.Stat(path); err != nil || fi.Size() != seen {
			if err == nil {
				seen = fi.Size()
			}
			err := o.read(path)
			exists = !errors.Is(err, fs.ErrNotExist)
			switch {
			case !exists:
				if o.last == "" {
					return false, nil
				}
			case err != nil:
				return false, err
			case o.last == "" || o.sawLast:
				return true, nil
			}
		}
		if time.Now().After(deadline) {
			return exists, nil
		}
		gateSleep(gateTranscriptPoll)
	}
}

// squeeze collapses runs of white space to one space and trims the ends.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// read observes the transcript's entries since the last stop. Its cost is
// bounded whatever the file is: only a regular file is read, at most
// gateMaxRead new bytes of it (more is passed over whole, and the window
// judged on what was seen before), and no line longer than gateMaxLine is
// held in memory.
func (o *gateObserver) read(path string) error {
	r := transcript.Reader{Types: []string{"assistant"}, MaxLine: gateMaxLine, Limit: gateMaxRead, Resync: o.st.Resync}
	next, err := r.Read(path, o.st.Offset, o.observe)
	if errors.Is(err, transcript.ErrStaleOffset) {
		// The transcript shrank or was replaced: start over.
		*o.st = gateState{Checks: o.st.Checks, LookedUp: o.st.LookedUp, Transcript: o.st.Transcript}
		r.Resync = false
		next, err = r.Read(path, 0, o.observe)
	}
	if errors.Is(err, transcript.ErrTooMuch) {
		o.note = fmt.Sprintf("%s: %d MB new since the last stop, over the %d MB a stop reads: skipped", path, (next-o.st.Offset)>>20, gateMaxRead>>20)
		o.st.Offset, o.st.Resync = next, true
		return nil
	}
	if err != nil {
		return fmt.Errorf("gate: read transcript: %w", err)
	}
	if r.Long > 0 {
		o.note = fmt.Sprintf("%s: %d lines over %d MB passed over", path, r.Long, gateMaxLine>>20)
	}
	o.st.Offset, o.st.Resync = next, false
	return nil
}

func (o *gateObserver) observe(e transcript.Entry) error {
	o.st.SinceCheck++
	if o.last != "" && !o.sawLast && len(e.Text) > 0 {
		text := squeeze(strings.Join(e.Text, " "))
		o.sawLast = text != "" && (strings.Contains(o.last, text) || strings.Contains(text, o.last))
	}
	for _, u := range e.ToolUses {
		o.st.ToolCalls++
		for _, use := range memuse.Of(u) {
			switch use.Kind {
			case memuse.Edited:
				p := o.abs(use.Path)
				if o.inStore(p) {
					o.st.Window.Stored = true
					if locate.Within(o.place.Store, p) && !slices.Contains(o.st.StoreEdits, p) && len(o.st.StoreEdits) < gateMaxEditedKept {
						o.st.StoreEdits = append(o.st.StoreEdits, p)
					}
				} else {
					o.st.Window.addEdit(p)
				}
			case memuse.Stored:
				o.st.Window.Stored = true
			case memuse.Searched:
				o.st.LookedUp, o.found = true, true
			case memuse.Shown:
				o.found = true
			case memuse.Read:
				if strings.HasSuffix(use.Path, ".md") && o.inStore(o.abs(use.Path)) {
					o.found = true
				}
			}
		}
	}
	return nil
}

func (o *gateObserver) abs(p string) string {
	p = locate.ExpandHome(p)
	if !filepath.IsAbs(p) && o.cwd != "" {
		p = filepath.Join(o.cwd, p)
	}
	return filepath.Clean(p)
}

// inStore reports whether p lies in one of the memory directories mem
// searches (locate.Place.MemoryDirs). Paths are compared cleaned and, where
// a directory's path holds a symlink, in their resolved form.
func (o *gateObserver) inStore(p string) bool {
	if o.place.Store == "" {
		return false
	}
	if o.store == nil {
		for _, root := range o.place.MemoryDirs() {
			o.store = append(o.store, filepath.Clean(root))
			if r, err := filepath.EvalSymlinks(root); err == nil && r != filepath.Clean(root) {
				o.store = append(o.store, r)
			}
		}
	}
	for _, root := range o.store {
		if locate.Within(root, p) {
			return true
		}
	}
	canon := locate.Canonical(p) // a path given through a symlink
	for _, root := range o.store {
		if canon != p && locate.Within(root, canon) {
			return true
		}
	}
	return false
}
