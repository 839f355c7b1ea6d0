package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/internal/memuse"
	"github.com/mem-dev/mem/internal/transcript"
)

// Gate thresholds.
const (
	gateMinToolCalls    = 3  // no check before the session made this many tool calls
	gateMinAssistant    = 2  // new assistant entries needed between two checks
	gateMaxEditedKept   = 64 // edited paths kept in the state per window
	gateMaxEditedShown  = 5  // edited paths named in the message
	gateStateVersion    = 1
	gateMaxInput        = 1 << 20
	gateMaxRead         = 64 << 20 // new transcript one stop reads at most; more is passed over
	gateMaxLine         = 16 << 20 // a longer transcript line is passed over unread
	gateStateMaxAge     = 30 * 24 * time.Hour
	gateLookupExtension = ".lookup"
	// gateTranscriptWait bounds the wait for Claude Code to write the turn
	// that just ended to the transcript (it writes asynchronously).
	gateTranscriptWait = time.Second
	// gateTranscriptPoll is how often the gate looks for that turn. Claude
	// Code 2.1.328 writes it 0.3 to 11 ms after it starts the hook (measured
	// from inside the hook): looking every 20 ms made most stops that missed
	// it at the first read wait 20 or 40 ms for a write of a few. A look
	// that finds nothing new reads no byte of the transcript it has read.
	gateTranscriptPoll = time.Millisecond
)

// gateSleep pauses between two looks at the transcript; the tests count
// the pauses instead of taking them.
var gateSleep = time.Sleep

// StopInput is the part of Claude Code's Stop hook input the gate reads.
type StopInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	StopHookActive bool   `json:"stop_hook_active"`
	PromptID       string `json:"prompt_id"` // the prompt's id (Claude Code 2.1.196+)
	// LastAssistantMessage is the text of the turn that just ended. Claude
	// Code writes the transcript asynchronously; when it sends this, the
	// transcript is due to hold that turn, so the gate waits for it a little.
	LastAssistantMessage string `json:"last_assistant_message"`
}

// GateResult is what one stop decided.
type GateResult struct {
	Checked  bool     // a check ran at this stop
	Block    bool     // send the agent back
	Edited   []string // files edited in the window without a store (when blocked for it)
	NoLookup bool     // blocked (also) because the session looked nothing up
	Message  string   // what to tell the agent, when Block
	// Found says the agent looked a memory up itself since the last stop
	// (mem search or show through Bash, context_query or memory_show over
	// MCP, a Read of a memory file): what aliases are learned from.
	Found bool
	Note  string // what the gate passed over and why, for the hook log
}

// Gate runs the Stop hook: it reads Claude Code's Stop input from in and
// returns the process exit code, 2 with a message on stderr to send the
// agent back, 0 to let it stop. When the agent looked a memory up itself
// since the last stop it calls learn (when not nil). It fails open: any
// error of its own returns 0 and is logged to <state dir>/hook.log when the
// state directory is known.
//
// It decides within GateBudget whatever it is given: past it, it logs that
// it gave up and lets the agent stop.
func Gate(in io.Reader, stderr io.Writer, now time.Time, learn Learner) int {
	var where atomic.Pointer[string]
	res, ok := watch(GateBudget, func() gateOutcome { return gate(in, now, learn, &where) })
	if !ok {
		if dir := where.Load(); dir != nil {
			logHookError(*dir, now, fmt.Sprintf("gate: gave up after %s", GateBudget))
		}
		return 0
	}
	if res.code == 0 {
		return 0
	}
	io.WriteString(stderr, res.message)
	return res.code
}

// gateOutcome is what gate decided: an exit code and what to tell the agent.
type gateOutcome struct {
	code    int
	message string
}

// gate is Gate's work; it sets where to the state directory once known.
func gate(in io.Reader, now time.Time, learn Learner, where *atomic.Pointer[string]) (out gateOutcome) {
	var stateDir string
	defer func() {
		// A panic would exit 2, which blocks the agent: fail open instead.
		if r := recover(); r != nil {
			logHookError(stateDir, now, fmt.Sprintf("gate: panic: %v", r))
			out = gateOutcome{}
		}
	}()
	var input StopInput
	b, err := io.ReadAll(io.LimitReader(in, gateMaxInput))
	if err == nil {
		err = json.Unmarshal(b, &input)
	}
	dir := input.CWD
	if dir == "" {
		dir = os.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir == "" {
		return gateOutcome{} // no way to know where to log
	}
	place, perr := locate.Find(dir, "")
	if perr != nil || place.CommonDir == "" {
		return gateOutcome{} // not in a git repository: no cache dir, nothing to log to
	}
	stateDir = place.StateDir()
	where.Store(&stateDir)
	if err != nil {
		logHookError(stateDir, now, "gate: read stop input: "+err.Error())
		return gateOutcome{}
	}
	if !isDir(place.Store) {
		return gateOutcome{} // see CheckStop
	}
	// A prompt's stops differ in stop_hook_active and the turn's text.
	if input.PromptID != "" && !Claim(stateDir, "stop", b, OnceUnique) {
		return gateOutcome{} // the other handler of this stop (plugin and settings both) judges it
	}
	res, err := CheckStop(input, place, now)
	if err != nil {
		logHookError(stateDir, now, err.Error()) // CheckStop's errors say "gate: "
		return gateOutcome{}
	}
	if res.Note != "" {
		logHookError(stateDir, now, "gate: "+res.Note)
	}
	if res.Found && learn != nil {
		if err := learn(input, place); err != nil {
			logHookError(stateDir, now, "gate: "+err.Error())
		}
	}
	if !res.Block {
		return gateOutcome{}
	}
	return gateOutcome{code: 2, message: res.Message}
}

// CheckStop is the gate's core: it reads the transcript from where the
// previous stop of the session left off, updates the session's state under
// place.StateDir() and says whether to send the agent back. On error the
// state is left as it was.
func CheckStop(in StopInput, place locate.Place, now time.Time) (GateResult, error) {
	if in.SessionID == "" {
		return GateResult{}, errors.New("gate: stop input has no session_id")
	}
	if in.TranscriptPath == "" {
		return GateResult{}, errors.New("gate: stop input has no transcript_path")
	}
	if !isDir(place.Store) {
		// This repository does not use mem (a gate installed for every
		// repository): asking for `mem store` would create a store here.
		return GateResult{}, nil
	}
	path := locate.ExpandHome(in.TranscriptPath)
	dir := filepath.Join(place.StateDir(), "gate")
	statePath := filepath.Join(dir, gateFileName(in.SessionID)+".json")
	st, existed, err := loadGateState(statePath)
	if err != nil {
		return GateResult{}, err
	}
	if in.StopHookActive && !st.Blocked {
		// Another hook's block, or no state yet: leave what happened for
		// the next check.
		return GateResult{}, nil
	}
	if st.Transcript != path {
		st = gateState{Checks: st.Checks, LookedUp: st.LookedUp, Transcript: path}
	}
	obs := gateObserver{place: place, cwd: in.CWD, st: &st, last: squeeze(in.LastAssistantMessage)}
	found, err := obs.await(path, time.Now().Add(gateTranscriptWait))
	switch {
	case err != nil:
		return GateResult{}, err
	case !found:
		// Claude Code has not written the transcript yet (a session's very
		// first turn, on a busy machine): nothing to judge, which is no
		// error. The next stop reads what this one could not.
		return GateResult{}, nil
	}

	res := GateResult{Found: obs.found, Note: obs.note}
	switch {
	case in.StopHookActive:
		// The retry after our block is not checked, and its work belongs
		// to no window.
		st.Blocked = false
		st.SinceCheck = 0
		st.Window = gateWindow{}
	case st.ToolCalls >= gateMinToolCalls && st.SinceCheck >= gateMinAssistant:
		if !st.LookedUp && st.Checks == 0 {
			st.LookedUp = gateLookupRecorded(dir, in.SessionID)
		}
		res = st.check(place)
		res.Found = obs.found
	}
	if len(st.StoreEdits) > 0 && commitEdits != nil {
		// The agent edited memory files in place: commit them under mem's
		// rules before the session can end, at every stop that follows
		// such an edit. A failure is logged and not retried (the file stays
		// as the agent left it, uncommitted, for the person to see).
		if err := commitEdits(place, st.StoreEdits); err != nil {
			res.Note = strings.TrimSpace(res.Note + " " + err.Error())
		}
		st.StoreEdits = nil
	}
	st.Version = gateStateVersion
	st.Updated = now.UTC()
	if err := writeGateState(dir, statePath, &st); err != nil {
		return GateResult{}, err
	}
	if !existed {
		pruneGateDir(dir, now)
	}
	return res, nil
}

// RecordLookup notes that the prompt hook injected memories into a session,
// which counts as a lookup for the gate. It appends one line to a small file
// and creates the directory when needed.
func RecordLookup(stateDir, sessionID string) error {
	name := filepath.Join(stateDir, "gate", gateFileName(sessionID)+gateLookupExtension)
	if err := logfile.Append(name, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("record lookup: %w", err)
	}
	return nil
}

func gateLookupRecorded(dir, sessionID string) bool {
	_, err := os.Stat(filepath.Join(dir, gateFileName(sessionID)+gateLookupExtension))
	return err == nil
}

// gateState is the per-session state, see the package notes above.
type gateState struct {
	Version    int        `json:"version"`
	Transcript string     `json:"transcript"`
	Offset     int64      `json:"offset"`
	ToolCalls  int        `json:"tool_calls"`
	SinceCheck int        `json:"assistant_since_check"`
	Checks     int        `json:"checks"`
	LookedUp   bool       `json:"looked_up"`
	Blocked    bool       `json:"blocked"`
	Resync     bool       `json:"resync,omitempty"` // Offset may fall inside a line (after a pass-over)
	Window     gateWindow `json:"window"`
	// StoreEdits are files of the project's store the agent edited in
	// place since the last stop, for the stop to commit.
	StoreEdits []string  `json:"store_edits,omitempty"`
	Updated    time.Time `json:"updated"`
}

// gateWindow accumulates what happened since the last check.
type gateWindow struct {
	Edited   []string `json:"edited,omitempty"`   // absolute paths, in first-edit order
	Overflow bool     `json:"overflow,omitempty"` // more files were edited than Edited keeps
	Stored   bool     `json:"stored"`
}

func (w *gateWindow) addEdit(path string) {
	if slices.Contains(w.Edited, path) {
		return
	}
	if len(w.Edited) >= gateMaxEditedKept {
		w.Overflow = true
		return
	}
	w.Edited = append(w.Edited, path)
}

// check judges the window and starts the next one.
func (st *gateState) check(place locate.Place) GateResult {
	res := GateResult{Checked: true, NoLookup: st.Checks == 0 && !st.LookedUp}
	if len(st.Window.Edited) > 0 && !st.Window.Stored {
		res.Edited = st.Window.Edited
	}
	res.Block = res.NoLookup || len(res.Edited) > 0
	if res.Block {
		res.Message = gateMessage(place, res.Edited, st.Window.Overflow, res.NoLookup)
	}
	st.Checks++
	st.SinceCheck = 0
	st.Blocked = res.Block
	st.Window = gateWindow{}
	return res
}

func gateMessage(place locate.Place, edited []string, overflow, noLookup bool) string {
	var b strings.Builder
	if len(edited) > 0 {
		names := make([]string, 0, gateMaxEditedShown)
		for _, p := range edited[:min(len(edited), gateMaxEditedShown)] {
			names = append(names, place.Rel(p))
		}
		list := strings.Join(names, ", ")
		if more := len(edited) - len(names); more > 0 || overflow {
			plus := ""
			if overflow {
				plus = "+"
			}
			list += fmt.Sprintf(" and %d%s more", more, plus)
		}
		fmt.Fprintf(&b, "mem gate: you edited %s and stored no memory about it.\n", list)
		b.WriteString("Before you stop, store what the next session should know: what changed, and what you learned and why. Run:\n")
		b.WriteString("  mem store --class decision --name \"<what changed>\" \"<what you learned and why>\"\n")
		b.WriteString("Other classes: gotcha, fact, procedure, reference. If nothing here is worth remembering, say so in one line and stop.\n")
	}
	if noLookup {
		b.WriteString("mem gate: this session has not looked in the project's memory yet. Check what is already known about this work before you finish. Run:\n")
		b.WriteString("  mem search \"<topic>\"\n")
	}
	return b.String()
}

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

func loadGateState(path string) (gateState, bool, error) {
	var st gateState
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("gate: read state: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil || st.Version != gateStateVersion {
		// A torn or foreign state: start over, as for a new session.
		return gateState{}, true, nil
	}
	return st, true, nil
}

// writeGateState replaces the state by rename, so a reader never sees half
// of it. It does not sync (atomicfile.WriteUnsynced): the state is written
// at every stop, and losing it to a crash only starts the session's count
// over.
func writeGateState(dir, path string, st *gateState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	if err := atomicfile.WriteUnsynced(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	return nil
}

// pruneGateDir removes the state and lookup files of sessions untouched for
// gateStateMaxAge. Best effort.
func pruneGateDir(dir string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, gateLookupExtension) && !strings.Contains(name, ".json.tmp") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > gateStateMaxAge {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// gateFileName turns a session id into a file name: [A-Za-z0-9._-] are
// kept, anything else becomes '_' and adds a hash of the id, so that
// different ids never share a file.
func gateFileName(id string) string {
	b := []byte(id)
	changed := false
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
			changed = true
		}
	}
	if len(b) > 100 {
		b = b[:100]
		changed = true
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte{'_'}, b...)
		changed = true
	}
	if changed {
		h := fnv.New32a()
		h.Write([]byte(id))
		b = fmt.Appendf(b, "-%08x", h.Sum32())
	}
	return string(b)
}
