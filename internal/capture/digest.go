package capture

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/internal/transcript"
)

// DefaultDigestBytes is the digest size Propose uses: about 16k tokens,
// enough for the last hours of a working session.
const DefaultDigestBytes = 64 << 10

// Per-line caps, in bytes. Human prompts are kept longest: they are where
// rules and preferences are stated. Assistant text carries the reasons for
// decisions; tool calls only show what was touched, and a shell command's
// output only how it ended.
const (
	promptCap        = 2000
	textCap          = 1200
	commandCap       = 160
	errorCap         = 200
	outputCap        = 200
	firstPromptShare = 8 // the session's first prompt may use 1/8 of the digest
	contextShare     = 4 // lines captured before may use 1/4 of it
	contextTail      = 8 // the last lines before the resume point always shown
)

// Roles of digest lines.
const (
	RoleUser      = "user"      // what the human typed
	RoleAssistant = "assistant" // the assistant's text
	RoleTool      = "tool"      // a tool call
	RoleOutput    = "out"       // how a shell command ended (its output, cut)
	RoleError     = "error"     // a tool call that failed
)

// quietTools are read-only tools whose calls say nothing durable: a digest
// leaves them out to spend its bytes on what was said and changed.
var quietTools = map[string]bool{
	"Read": true, "Grep": true, "Glob": true, "LS": true, "TodoWrite": true,
	"BashOutput": true, "TaskList": true, "TaskGet": true, "TaskOutput": true,
	"ToolSearch": true, "NotebookRead": true,
}

// Line is one line of a session's digest.
type Line struct {
	N      int    // 1-based, in session order; what the prompt calls L<N>
	Role   string // RoleUser, RoleAssistant, ...
	Text   string // on one line, cut, secrets masked
	Offset int64  // byte offset of the transcript entry it came from
	Repeat int    // how many identical lines in a row it stands for
	Seen   bool   // before the resume point: captured already, context only
}

// Session is a transcript read for capture: its lines, numbered, and the
// arcs of belief found in them (see Arcs).
type Session struct {
	ID       string    // the entries' sessionId, else the file's name
	Lines    []Line    // every line, main conversation only when there is one
	Arcs     []Arc     // see FindArcs
	End      int64     // offset after the last complete line: where the next capture resumes
	Time     time.Time // timestamp of the last entry that has one
	Masked   int       // secrets masked in Lines
	Withheld int       // lines withheld whole because a secret could not be masked
}

// New reports whether the session has lines the last capture did not see.
func (s *Session) New() bool {
	for _, l := range s.Lines {
		if !l.Seen {
			return true
		}
	}
	return false
}

// ReadSession reads the transcript at path into numbered lines: "user" for
// what the human typed, "assistant" for the assistant's text, "tool" for each
// tool call (Edit and Write with the file path, Bash with its command cut to
// a line, others by name and their description or target), "out" for the
// output of a shell command (its head and tail, cut), "error" for a tool
// call that failed; a call the developer refused is a "user" line with the
// reason they gave, when they gave one. Read-only tools (Read, Grep, Glob, …), thinking, other
// tools' outputs and Claude Code's own injected messages are left out; each
// line is one line (newlines become spaces) and long lines are cut with "…".
// A run of identical lines is one line with a count. A subagent's entries
// (isSidechain) are dropped when the file has a main conversation too.
//
// Every line is scanned for secrets before anything else sees it (see
// maskSecrets). Lines from entries before resume (a byte offset from an
// earlier capture's Session.End; 0 for none) are marked Seen. The arcs are
// found over all lines, seen or not, so a belief stated before the resume
// point and overturned after it is marked.
func ReadSession(path string, resume int64) (*Session, error) {
	s := &Session{}
	var (
		lines   []dline
		hasMain bool
		r       = transcript.Reader{Types: []string{"user", "assistant"}}
		bash    = map[string]bool{} // tool_use ids of shell commands
	)
	add := func(role, txt string, e transcript.Entry) {
		if txt == "" {
			return
		}
		side := e.IsSidechain
		if !side {
			hasMain = true
		}
		// Collapse repeats of the line just written (the same test command
		// run five times in a row).
		if n := len(lines); n > 0 && lines[n-1].Role == role && lines[n-1].Text == txt && lines[n-1].side == side {
			lines[n-1].Repeat++
			return
		}
		lines = append(lines, dline{Line: Line{Role: role, Text: txt, Offset: e.Offset, Repeat: 1}, side: side})
	}
	end, err := r.Read(path, 0, func(e transcript.Entry) error {
		if e.IsMeta || e.IsCompactSummary || e.IsAPIError {
			return nil
		}
		if s.ID == "" && e.SessionID != "" {
			s.ID = e.SessionID
		}
		if !e.Timestamp.IsZero() {
			s.Time = e.Timestamp
		}
		switch e.Type {
		case "user":
			add(RoleUser, oneLine(e.Prompt, promptCap), e)
			for _, tr := range e.ToolResults {
				switch {
				case tr.IsError && isRefusal(tr.Text()):
					// The developer refused the call: what they said instead is
					// theirs, often a rule ("use pnpm").
					if why := refusalReason(tr.Text()); why != "" {
						add(RoleUser, oneLine("(refusing the tool call) "+why, promptCap), e)
					} else {
						add(RoleError, "the developer refused this tool call", e)
					}
				case tr.IsError:
					add(RoleError, oneLine(tr.Text(), errorCap), e)
				case bash[tr.ToolUseID]:
					add(RoleOutput, headTail(text.OneLine(tr.Text()), outputCap), e)
				}
			}
		case "assistant":
			for _, t := range e.Text {
				add(RoleAssistant, oneLine(t, textCap), e)
			}
			for _, u := range e.ToolUses {
				if u.ID != "" {
					bash[u.ID] = u.Command != ""
				}
				add(RoleTool, toolLine(u), e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	s.End = end
	if resume > end {
		resume = 0 // the file shrank: not the transcript captured before
	}
	if s.ID == "" {
		s.ID = strings.TrimSuffix(filepath.Base(path), ".jsonl")
	}
	for _, l := range lines {
		if l.side && hasMain {
			continue
		}
		l.N = len(s.Lines) + 1
		l.Seen = resume > 0 && l.Offset < resume
		var masked, withheld bool
		l.Text, masked, withheld = maskSecrets(l.Text)
		if masked {
			s.Masked++
		}
		if withheld {
			s.Withheld++
		}
		s.Lines = append(s.Lines, l.Line)
	}
	s.Arcs = FindArcs(s.Lines)
	return s, nil
}

// Claude Code's words when the developer refuses a tool call, and before
// the reason they typed, when they typed one.
const (
	refusedCall    = "The user doesn't want to proceed with this tool use"
	refusedAction  = "The user doesn't want to take this action right now"
	refusalReasons = "The user provided the following reason for the rejection:"
)

func isRefusal(s string) bool {
	return strings.HasPrefix(s, refusedCall) || strings.HasPrefix(s, refusedAction)
}

func refusalReason(s string) string {
	_, why, ok := strings.Cut(s, refusalReasons)
	if !ok {
		return ""
	}
	return strings.TrimSpace(why)
}

type dline struct {
	Line
	side bool
}

// Digest condenses the session transcript at path into the lines a model
// reads (ReadSession, then Session.Digest), for a first capture.
func Digest(path string, maxBytes int) (string, error) {
	s, err := ReadSession(path, 0)
	if err != nil {
		return "", err
	}
	return s.Digest(maxBytes), nil
}

// Digest renders the session in at most maxBytes (<= 0 means
// DefaultDigestBytes): one line each, "L<N> <role>: <text>", with the arcs
// that touch a line written after its role ("L4 assistant [overturned by
// L9: …]: …"). A line that stands for repeats ends in "(×N)".
//
// What is new comes first in the budget: when everything does not fit, the
// end of the session is kept and the session's first prompt (its task) is
// put before it, cut to an eighth of maxBytes, with a marker for the lines
// left out between. Lines captured before (Seen) appear, in a section of
// their own, only as context: the first prompt, those in an arc with a new
// line, and the last few before the resume point, within a quarter of
// maxBytes. The result is never longer than maxBytes. A session with
// nothing new gives "".
func (s *Session) Digest(maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = DefaultDigestBytes
	}
	notes := arcNotes(s.Arcs)
	var fresh []string
	firstPrompt := -1 // index in s.Lines
	for i, l := range s.Lines {
		if firstPrompt < 0 && l.Role == RoleUser {
			firstPrompt = i
		}
		if !l.Seen {
			fresh = append(fresh, s.render(l, notes))
		}
	}
	if len(fresh) == 0 {
		return ""
	}
	nSeen := len(s.Lines) - len(fresh)
	if nSeen == 0 {
		return fit(fresh, firstPrompt, maxBytes)
	}
	// Context: the seen lines worth showing, in order, within a quarter of
	// the budget, the first prompt and arcs before the tail.
	want := map[int]bool{}
	if firstPrompt >= 0 && s.Lines[firstPrompt].Seen {
		want[firstPrompt] = true
	}
	for _, a := range s.Arcs {
		if a.By > 0 && !s.Lines[a.By-1].Seen && s.Lines[a.Line-1].Seen {
			want[a.Line-1] = true
		}
	}
	budget := maxBytes / contextShare
	var picked []int
	shown := map[int]string{} // the picked lines, rendered
	used := 0
	// Priority: first prompt, then arc lines, then the tail from its end.
	order := make([]int, 0, len(want))
	if want[firstPrompt] {
		order = append(order, firstPrompt)
	}
	for i := 0; i < nSeen; i++ {
		if want[i] && i != firstPrompt && i < nSeen-contextTail {
			order = append(order, i)
		}
	}
	for i := nSeen - 1; i >= max(0, nSeen-contextTail); i-- {
		if i != firstPrompt {
			order = append(order, i)
		}
	}
	for _, i := range order {
		r := cutEnd(s.render(s.Lines[i], notes), promptCap)
		if used+len(r)+1 > budget {
			continue
		}
		used += len(r) + 1
		picked = append(picked, i)
		shown[i] = r
	}
	slices.Sort(picked)
	var b strings.Builder
	b.WriteString("[captured before; context only]\n")
	prev := -1
	for _, i := range picked {
		if i > prev+1 {
			fmt.Fprintf(&b, "[… %d lines left out]\n", i-prev-1)
		}
		b.WriteString(shown[i])
		b.WriteByte('\n')
		prev = i
	}
	if nSeen > prev+1 {
		fmt.Fprintf(&b, "[… %d lines left out]\n", nSeen-prev-1)
	}
	b.WriteString("[new since the last capture]\n")
	head := b.String()
	if len(head) >= maxBytes/2 {
		head = "[new since the last capture]\n"
	}
	return head + fit(fresh, -1, maxBytes-len(head))
}

// render writes one line as the digest shows it.
func (s *Session) render(l Line, notes map[int][]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "L%d %s", l.N, l.Role)
	if n := notes[l.N]; len(n) > 0 {
		b.WriteString(" [" + strings.Join(n, "; ") + "]")
	}
	b.WriteString(": ")
	b.WriteString(l.Text)
	if l.Repeat > 1 {
		fmt.Fprintf(&b, " (×%d)", l.Repeat)
	}
	return b.String()
}

// fit joins lines with newlines within maxBytes, keeping the end; when lines
// are left out, the first prompt (index first, or -1) is kept at the head.
func fit(lines []string, first, maxBytes int) string {
	total := 0
	for _, l := range lines {
		total += len(l) + 1
	}
	if total <= maxBytes {
		return strings.Join(lines, "\n")
	}
	var head string
	if first >= 0 {
		if h := cutEnd(lines[first], maxBytes/firstPromptShare); h != "" {
			head = h + "\n"
		}
	}
	// Take whole lines from the end while they fit with the head and the
	// marker (whose count can only shrink the budget by a few bytes, so
	// reserve its widest form).
	marker := fmt.Sprintf("[… %d earlier lines left out]\n", len(lines))
	budget := maxBytes - len(head) - len(marker)
	start := len(lines)
	used := 0
	for start > 0 {
		n := len(lines[start-1]) + 1
		if used+n > budget+1 { // the last line has no newline after it
			break
		}
		used += n
		start--
	}
	if start <= first {
		head = "" // the tail reaches back to the first prompt itself
	}
	if start == len(lines) {
		// Not even the last line fits: keep the end of it.
		return cutStart(lines[len(lines)-1], maxBytes)
	}
	omitted := start
	if head != "" {
		omitted-- // the first prompt is shown
	}
	var b strings.Builder
	b.WriteString(head)
	if omitted > 0 {
		fmt.Fprintf(&b, "[… %d earlier lines left out]\n", omitted)
	}
	b.WriteString(strings.Join(lines[start:], "\n"))
	return b.String()
}

// toolLine describes one tool call, or "" for a read-only one.
func toolLine(u transcript.ToolUse) string {
	if quietTools[u.Name] || u.Name == "" {
		return ""
	}
	switch {
	case u.Command != "":
		return oneLine(u.Name+" "+u.Command, commandCap)
	case u.FilePath != "":
		return oneLine(u.Name+" "+u.FilePath, commandCap)
	}
	// Others (Task/Agent, WebFetch, WebSearch, MCP tools, Skill…): their
	// most telling short input field, when there is one.
	var in map[string]json.RawMessage
	if json.Unmarshal(u.Input, &in) == nil {
		for _, k := range []string{"description", "url", "query", "skill", "pattern", "path"} {
			var s string
			if json.Unmarshal(in[k], &s) == nil && strings.TrimSpace(s) != "" {
				return oneLine(u.Name+" "+s, commandCap)
			}
		}
	}
	return u.Name
}

// oneLine puts s on one line (text.OneLine) and cuts it to at most max
// bytes, marking a cut with "…".
func oneLine(s string, max int) string { return cutEnd(text.OneLine(s), max) }

// headTail cuts s to at most max bytes by keeping its head and its tail
// around " … ": a command's output says what ran first and how it ended
// last (a test summary, an exit status).
func headTail(s string, max int) string {
	const mid = " … "
	if len(s) <= max || max < 2*len(mid) {
		return cutEnd(s, max)
	}
	h := (max - len(mid)) / 2
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - (max - h - len(mid))
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return s[:h] + mid + s[t:]
}

// cutEnd returns s cut to at most max bytes at a rune boundary, ending in "…"
// when cut.
func cutEnd(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ell = "…"
	if max < len(ell) {
		return ""
	}
	i := max - len(ell)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return strings.TrimRight(s[:i], " ") + ell
}

// cutStart returns the last at most max bytes of s, at a rune boundary,
// starting with "…" when cut.
func cutStart(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ell = "…"
	if max < len(ell) {
		return ""
	}
	i := len(s) - (max - len(ell))
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return ell + s[i:]
}
