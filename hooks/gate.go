package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/logfile"
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
