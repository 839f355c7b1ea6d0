// Package transcript reads Claude Code session transcripts: the JSONL files
// under ~/.claude/projects/<project>/<session-id>.jsonl, one JSON object a
// line, appended to while the session runs.
//
// The hooks read them on the prompt path (the previous assistant turn) and in
// the Stop hook (which tools ran since the last stop), so reading is
// incremental and cheap: [ReadFrom] resumes at a byte offset and returns the
// offset to resume from next time, and [LastAssistantText] reads only the
// tail of the file.
//
// # Why every field is optional
//
// The format is internal to Claude Code and changes between releases (the
// official docs say scripts that parse it "can break on any release"). The
// files we test against span Claude Code 1.0.24 to 2.1.114 and gain, lose
// and reshape entry types across that range. So nothing here is required: a
// missing field is a zero value, a field of the wrong JSON type is left zero
// while the rest of the entry is kept, an unknown entry type is passed on
// with its envelope only, and a line that is not a JSON object at all is
// skipped and counted, never an error.
//
// # What is read
//
// The envelope (type, uuid, parentUuid, sessionId, timestamp, isSidechain,
// isMeta, isCompactSummary), and by type:
//   - assistant: message.id, text blocks, tool_use blocks (id, name, raw
//     input, and the input's command, file_path or notebook_path). Claude
//     Code writes each content block of one API message as its own line, so
//     one entry usually holds one block; entries of one message share
//     MessageID.
//   - user: the text the human typed ([Entry.Prompt]; see there what is
//     left out) and tool_result blocks.
//   - attachment: the attachment's type and hook event, and the strings a
//     hook injected as additionalContext (hook_additional_context).
//
// Thinking blocks, usage, tool outputs' structured copies (toolUseResult)
// and progress payloads are not decoded.
//
// # Line handling
//
// Only complete lines (ending in '\n') are read: Claude Code writes the file
// asynchronously, so the last line may still be half written; the offset
// returned points at its start and the next read picks it up whole. Lines
// have no length limit (tool outputs of several megabytes are common).
// Blank lines are ignored, a trailing '\r' is dropped.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/rawfile"
)

// ErrStaleOffset is returned when the offset to resume from is past the end
// of the file or does not start a line: the file shrank or was replaced.
// Read again from 0.
var ErrStaleOffset = errors.New("transcript: offset is past the end or not at a line start")

// ErrTooMuch is returned by a Reader with a Limit when more than the limit
// is there to read.
var ErrTooMuch = errors.New("transcript: more is new than one read may take")

// Entry is one transcript line, reduced to what mem uses.
type Entry struct {
	Offset int64 // byte offset of the line in the file

	Type             string    // "user", "assistant", "system", "attachment", "progress", "summary", ...
	Subtype          string    // system entries: "compact_boundary", "stop_hook_summary", "turn_duration", ...
	UUID             string    // uuid
	ParentUUID       string    // parentUuid; "" at a root
	SessionID        string    // sessionId
	Timestamp        time.Time // zero when absent or unparseable
	IsSidechain      bool      // a subagent's conversation
	IsMeta           bool      // written by Claude Code, not typed (caveats, skill bodies, hook reminders)
	IsCompactSummary bool      // the summary that opens a compacted conversation
	IsAPIError       bool      // isApiErrorMessage: an error written as an assistant message

	// Assistant entries.
	MessageID string    // message.id, shared by the entries of one API message
	Text      []string  // text blocks, in order
	ToolUses  []ToolUse // tool_use blocks, in order

	// User entries. Prompt is empty for tool results, isMeta and
	// isCompactSummary entries; text parts that open with a tag of Claude
	// Code's own (<command-name>, <local-command-stdout>, <system-reminder>,
	// <ide_opened_file>, <task-notification>, ...) and "[Request interrupted
	// by user…]" markers are left out of it.
	Prompt      string       // what the human typed
	ToolResults []ToolResult // tool_result blocks

	// Attachment entries (Claude Code 2.1.1xx).
	AttachmentType string   // attachment.type: "hook_additional_context", "hook_success", ...
	HookEvent      string   // attachment.hookEvent: "SessionStart", "UserPromptSubmit", ...
	HookContext    []string // hook_additional_context: the additionalContext strings injected
}

// ToolUse is one tool call made by the assistant.
type ToolUse struct {
	ID       string          // "toolu_…", matched by ToolResult.ToolUseID
	Name     string          // "Bash", "Edit", "mcp__server__tool", ...
	Input    json.RawMessage // the input object as written
	Command  string          // input.command (Bash)
	FilePath string          // input.file_path (Edit, Write, MultiEdit, Read), or input.notebook_path (NotebookEdit)
}

// ToolResult is the result of one tool call, as sent back to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool
	Content   json.RawMessage // a string or a list of blocks, as written
}

// Text returns what the result says: its content when that is a string,
// else its non-empty text blocks joined by newlines.
func (r ToolResult) Text() string {
	var s string
	if json.Unmarshal(r.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(r.Content, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Reader reads transcripts with options, and counts what it saw across
// calls. Its zero value decodes every entry.
type Reader struct {
	// Types, when not empty, lists the entry types to decode. Lines of
	// other types are skipped after a cheap scan for their top-level
	// "type" and are not passed to fn; they are not validated either.
	Types []string
	// MaxLine, when positive, bounds the length of a line Read decodes: a
	// longer one is passed over (and counted in Long) without being held
	// in memory, so a file with no newline costs no more than its reading.
	MaxLine int
	// Limit, when positive, bounds what one Read reads past its offset:
	// when more than Limit bytes are there, it reads none of them and
	// returns ErrTooMuch with the file's size as next.
	Limit int64
	// Resync lets an offset fall inside a line (as after ErrTooMuch):
	// reading starts after the next newline instead of failing with
	// ErrStaleOffset.
	Resync bool

	Lines     int // complete non-blank lines read
	Long      int // lines passed over for being longer than MaxLine
	Decoded   int // entries passed to fn
	Malformed int // lines skipped because they are not a JSON object
}

// ReadFrom reads the complete lines of the transcript at path from byte
// offset on, and calls fn with each entry in file order. It returns the
// offset to resume from: just past the last complete line read, so a
// trailing partial line is left for the next call. Malformed lines are
// skipped. When fn returns an error, reading stops and next is the offset of
// the line fn failed on. An offset past the end of the file, or one that
// does not follow a newline, returns [ErrStaleOffset].
func ReadFrom(path string, offset int64, fn func(Entry) error) (next int64, err error) {
	var r Reader
	return r.Read(path, offset, fn)
}

// Read is [ReadFrom] with the reader's options; it adds to the reader's
// counts. (It is not named ReadFrom, which would read as io.ReaderFrom.)
//
// Only a regular file is read: a FIFO or a device fails at once (see
// internal/rawfile), where it would make Read wait or never end.
func (r *Reader) Read(path string, offset int64, fn func(Entry) error) (next int64, err error) {
	f, err := rawfile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return offset, err
	}
	defer f.Close()
	if offset < 0 {
		offset = 0
	}
	fi, err := f.Stat()
	if err != nil {
		return offset, err
	}
	if offset > fi.Size() {
		return offset, ErrStaleOffset
	}
	if r.Limit > 0 && fi.Size()-offset > r.Limit {
		return fi.Size(), ErrTooMuch
	}
	if offset > 0 {
		var b [1]byte
		if _, err := f.ReadAt(b[:], offset-1); err != nil {
			return offset, fmt.Errorf("transcript: %w", err)
		}
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			return offset, err
		}
		if b[0] != '\n' {
			if !r.Resync {
				return offset, ErrStaleOffset
			}
			return r.read(f, offset, true, fn)
		}
	}
	return r.read(f, offset, false, fn)
}

// read reads lines from rd, which is positioned at offset; skip passes
// over the rest of the line offset falls in.
func (r *Reader) read(rd io.Reader, offset int64, skip bool, fn func(Entry) error) (int64, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	pos := offset
	var long []byte // a line longer than br's buffer, assembled
	for {
		line, err := br.ReadSlice('\n')
		n := int64(len(line)) // the line's length, which line may not hold whole
		over := false         // longer than MaxLine: passed over
		if err == bufio.ErrBufferFull {
			long = append(long[:0], line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				n += int64(len(line))
				if over = over || r.MaxLine > 0 && n > int64(r.MaxLine); !over {
					long = append(long, line...)
				}
			}
			line = long
			if over {
				long = nil // let it go
			}
		}
		if err == io.EOF {
			return pos, nil // nothing more, or a partial line left for next time
		}
		if err != nil {
			return pos, fmt.Errorf("transcript: %w", err)
		}
		start := pos
		pos += n
		if skip {
			skip = false
			continue
		}
		if over {
			r.Long++
			continue
		}
		e, ok := r.entry(line)
		if !ok {
			continue
		}
		e.Offset = start
		r.Decoded++
		if err := fn(e); err != nil {
			return start, err
		}
	}
}

// entry decodes one raw line (with its newline) as r's options ask. ok is
// false when the line is blank, malformed or of a type not asked for.
func (r *Reader) entry(line []byte) (Entry, bool) {
	line = trimEOL(line)
	if len(bytes.TrimSpace(line)) == 0 {
		return Entry{}, false
	}
	r.Lines++
	if len(r.Types) > 0 {
		typ, ok := sniffType(line)
		if !ok {
			r.Malformed++
			return Entry{}, false
		}
		if !slices.Contains(r.Types, typ) {
			return Entry{}, false
		}
	}
	e, err := ParseLine(line)
	if err != nil {
		r.Malformed++
		return Entry{}, false
	}
	return e, true
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// ErrMalformed is returned by [ParseLine] for a line that is not a JSON
// object.
var ErrMalformed = errors.New("transcript: line is not a JSON object")

// ParseLine decodes one transcript line (without its newline). It fails
// only when the line is not a JSON object; fields of unexpected JSON types
// are left zero. Type is the line's first top-level "type".
func ParseLine(line []byte) (Entry, error) {
	typ, ok := sniffType(line)
	if !ok {
		return Entry{}, ErrMalformed
	}
	var raw rawEntry
	err := json.Unmarshal(line, &raw)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return Entry{}, ErrMalformed
	}
	var content string
	if typeErr != nil && raw.Message != nil && raw.Message.Content == nil {
		// message.content is a string (a typed prompt, a meta line), not
		// the usual list of blocks. Decode it on its own.
		var s struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		}
		_ = json.Unmarshal(line, &s) // a type error leaves it ""
		content = s.Message.Content
	}
	return raw.entry(typ, content), nil
}

// rawEntry is the subset of a transcript line that is decoded.
type rawEntry struct {
	Subtype          string         `json:"subtype"`
	UUID             string         `json:"uuid"`
	ParentUUID       string         `json:"parentUuid"`
	SessionID        string         `json:"sessionId"`
	Timestamp        string         `json:"timestamp"`
	IsSidechain      bool           `json:"isSidechain"`
	IsMeta           bool           `json:"isMeta"`
	IsCompactSummary bool           `json:"isCompactSummary"`
	IsAPIError       bool           `json:"isApiErrorMessage"`
	Message          *rawMessage    `json:"message"`
	Attachment       *rawAttachment `json:"attachment"`
}

type rawMessage struct {
	ID      string     `json:"id"`
	Content []rawBlock `json:"content"` // a string here is a type error, see ParseLine
}

type rawBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

type rawAttachment struct {
	Type      string          `json:"type"`
	HookEvent string          `json:"hookEvent"`
	Content   json.RawMessage `json:"content"`
}

type rawInput struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

// entry builds the Entry; content is message.content when it was a string.
func (raw *rawEntry) entry(typ, content string) Entry {
	e := Entry{
		Type:             typ,
		Subtype:          raw.Subtype,
		UUID:             raw.UUID,
		ParentUUID:       raw.ParentUUID,
		SessionID:        raw.SessionID,
		IsSidechain:      raw.IsSidechain,
		IsMeta:           raw.IsMeta,
		IsCompactSummary: raw.IsCompactSummary,
		IsAPIError:       raw.IsAPIError,
	}
	if raw.Timestamp != "" {
		if t, err := time.Parse(time.RFC3339Nano, raw.Timestamp); err == nil {
			e.Timestamp = t
		}
	}
	if a := raw.Attachment; a != nil {
		e.AttachmentType = a.Type
		e.HookEvent = a.HookEvent
		if a.Type == "hook_additional_context" {
			e.HookContext = stringOrList(a.Content)
		}
	}
	m := raw.Message
	if m == nil {
		return e
	}
	e.MessageID = m.ID
	var texts []string
	humanOnly := typ == "user" && !raw.IsMeta && !raw.IsCompactSummary
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			if typ == "assistant" {
				e.Text = append(e.Text, b.Text)
			} else {
				texts = append(texts, b.Text)
			}
		case "tool_use":
			u := ToolUse{ID: b.ID, Name: b.Name, Input: b.Input}
			if len(b.Input) > 0 && b.Input[0] == '{' {
				var in rawInput
				_ = json.Unmarshal(b.Input, &in) // a type error leaves fields ""
				u.Command = in.Command
				u.FilePath = in.FilePath
				if u.FilePath == "" {
					u.FilePath = in.NotebookPath
				}
			}
			e.ToolUses = append(e.ToolUses, u)
		case "tool_result":
			e.ToolResults = append(e.ToolResults, ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError, Content: b.Content})
			humanOnly = false
		}
	}
	if humanOnly {
		if content != "" {
			texts = append(texts, content)
		}
		e.Prompt = humanText(texts)
	}
	return e
}

// stringOrList decodes a JSON string or list of strings.
func stringOrList(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return []string{s}
	}
	return nil
}

// humanText joins the parts of a user message that a human typed. A part
// that opens with a tag of Claude Code's own (<command-name>,
// <local-command-stdout>, <system-reminder>, <ide_opened_file>,
// <task-notification>, ...) was written by Claude Code, whatever follows the
// tag, and is dropped, as are interruption markers.
func humanText(parts []string) string {
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || opensWithSystemTag(p) || strings.HasPrefix(p, "[Request interrupted by user") {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, "\n")
}

// opensWithSystemTag reports whether s starts with <tag> and holds </tag>,
// where tag has a '-' or '_' (the shape of Claude Code's tags; HTML a user
// pastes has neither).
func opensWithSystemTag(s string) bool {
	if len(s) < 2 || s[0] != '<' {
		return false
	}
	end := strings.IndexByte(s, '>')
	if end < 0 || !isSystemTag(s[1:end]) {
		return false
	}
	return strings.Contains(s[end+1:], "</"+s[1:end]+">")
}

func isSystemTag(name string) bool {
	if name == "" || !strings.ContainsAny(name, "-_") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
