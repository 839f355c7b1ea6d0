package capture

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/internal/transcript"
)

// DefaultDigestBytes is the digest size Propose uses: about 16k tokens,
// enough for the last hours of a working session.
const DefaultDigestBytes = 64 << 10

// Per-line caps, in bytes. Human prompts are kept longest: they are where
// rules and preferences are stated. Assistant text carries the reasons for
// decisions; tool calls only show what was touched.
const (
	promptCap        = 2000
	textCap          = 1200
	commandCap       = 160
	errorCap         = 200
	firstPromptShare = 8 // the session's first prompt may use 1/8 of the digest
)

// quietTools are read-only tools whose calls say nothing durable: a digest
// leaves them out to spend its bytes on what was said and changed.
var quietTools = map[string]bool{
	"Read": true, "Grep": true, "Glob": true, "LS": true, "TodoWrite": true,
	"BashOutput": true, "TaskList": true, "TaskGet": true, "TaskOutput": true,
	"ToolSearch": true, "NotebookRead": true,
}

// Digest condenses the session transcript at path into lines a model can
// read: "user: …" for what the human typed, "assistant: …" for the
// assistant's text, "tool: …" for each tool call (Edit and Write with the
// file path, Bash with its command cut to a line, others by name and their
// description or target), "error: …" for a tool call that failed. Read-only
// tools (Read, Grep, Glob, …), thinking, tool outputs and Claude Code's own
// injected messages are left out; each line is one line (newlines become
// spaces) and long lines are cut with "…". A run of identical lines is
// written once with "(×N)".
//
// Lines come in file order, most recent last. A subagent's entries
// (isSidechain) are dropped when the file has a main conversation too.
// When everything does not fit in maxBytes, the end of the session is kept
// and the session's first prompt (its task) is put before it, cut to an
// eighth of maxBytes, with a marker line for what was left out between.
// The result is never longer than maxBytes; maxBytes <= 0 means
// DefaultDigestBytes. A transcript with nothing to show gives "".
func Digest(path string, maxBytes int) (string, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultDigestBytes
	}
	var (
		lines   []dline
		hasMain bool
		r       = transcript.Reader{Types: []string{"user", "assistant"}}
	)
	add := func(s string, side bool) {
		if s == "" {
			return
		}
		if !side {
			hasMain = true
		}
		// Collapse repeats of the line just written (the same test command
		// run five times in a row).
		if n := len(lines); n > 0 && lines[n-1].text == s && lines[n-1].side == side {
			lines[n-1].repeat++
			return
		}
		lines = append(lines, dline{text: s, side: side, repeat: 1})
	}
	_, err := r.Read(path, 0, func(e transcript.Entry) error {
		if e.IsMeta || e.IsCompactSummary || e.IsAPIError {
			return nil
		}
		side := e.IsSidechain
		switch e.Type {
		case "user":
			if p := oneLine(e.Prompt, promptCap); p != "" {
				add("user: "+p, side)
			}
			for _, tr := range e.ToolResults {
				if tr.IsError {
					if msg := oneLine(tr.Text(), errorCap); msg != "" {
						add("error: "+msg, side)
					}
				}
			}
		case "assistant":
			for _, t := range e.Text {
				if s := oneLine(t, textCap); s != "" {
					add("assistant: "+s, side)
				}
			}
			for _, u := range e.ToolUses {
				if s := toolLine(u); s != "" {
					add("tool: "+s, side)
				}
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	out := make([]string, 0, len(lines))
	firstPrompt := -1
	for _, l := range lines {
		if l.side && hasMain {
			continue
		}
		s := l.text
		if l.repeat > 1 {
			s += fmt.Sprintf(" (×%d)", l.repeat)
		}
		if firstPrompt < 0 && strings.HasPrefix(s, "user: ") {
			firstPrompt = len(out)
		}
		out = append(out, s)
	}
	return fit(out, firstPrompt, maxBytes), nil
}

type dline struct {
	text   string
	side   bool
	repeat int
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
