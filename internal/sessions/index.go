package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/internal/transcript"
)

// Version is the cache format version; a record of another version is
// dropped and its transcript read again from the start.
const Version = 1

// Limits on what is kept of long texts.
const (
	maxPrompt  = 4000 // bytes of a prompt
	maxCommand = 1000 // bytes of a raw command
	maxMessage = 600  // bytes of an error message
	headBytes  = 4096 // bytes of a transcript's start that identify it
)

// Prompt is one prompt the human typed.
type Prompt struct {
	Session string    `json:"session"`
	Time    time.Time `json:"time,omitzero"`
	Text    string    `json:"text"`
}

// Call is one tool call.
type Call struct {
	Session   string    `json:"session"`
	Time      time.Time `json:"time,omitzero"`
	Tool      string    `json:"tool"`
	ID        string    `json:"id,omitempty"`
	Sidechain bool      `json:"sidechain,omitempty"`
	Path      string    `json:"path,omitempty"`     // input.file_path
	Command   string    `json:"command,omitempty"`  // Bash: the command line as written (truncated)
	Commands  []Command `json:"commands,omitempty"` // Bash: its simple commands, normalized
	Failed    bool      `json:"failed,omitempty"`   // its result was an error
}

// Error kinds.
const (
	KindTool   = "tool"   // a tool result marked is_error (a failed command, a bad edit, ...)
	KindDenied = "denied" // the person refused the tool call
	KindAPI    = "api"    // an API error written as an assistant message
)

// Error is one failure seen in a transcript.
type Error struct {
	Session  string    `json:"session"`
	Time     time.Time `json:"time,omitzero"`
	Kind     string    `json:"kind"`
	Tool     string    `json:"tool,omitempty"`     // the failed call's tool, when known
	Command  string    `json:"command,omitempty"`  // Bash: the failed call's normalized commands, joined by " ; "
	Heads    []string  `json:"heads,omitempty"`    // Bash: their heads
	ExitCode int       `json:"exit_code,omitzero"` // Bash: from "Exit code N", when shown
	Message  string    `json:"message"`            // the start of the error text
}

// Seen is what one file says of one session: its time span and size.
type Seen struct {
	First   time.Time `json:"first,omitzero"`
	Last    time.Time `json:"last,omitzero"`
	Entries int       `json:"entries"`
}

// record is the cache of one transcript file (see the package doc).
type record struct {
	Version   int              `json:"version"`
	Path      string           `json:"path"`
	Size      int64            `json:"size"`
	ModTime   time.Time        `json:"mod_time"`
	Offset    int64            `json:"offset"`
	Head      string           `json:"head"` // sha256 of the first min(offset, 4096) bytes
	Lines     int              `json:"lines"`
	Malformed int              `json:"malformed"`
	Current   string           `json:"current,omitempty"` // the last session id seen, for lines that carry none
	Sessions  map[string]*Seen `json:"sessions"`
	Prompts   []Prompt         `json:"prompts"`
	Calls     []Call           `json:"calls"`
	Errors    []Error          `json:"errors"`
}

// Index is the transcript index cached in a directory.
type Index struct {
	Dir string // the cache directory, <git-common-dir>/mem/transcripts
}

// Open returns the index cached in dir (created on the first Update).
func Open(dir string) *Index { return &Index{Dir: dir} }

// Report is what one Update did.
type Report struct {
	Files     int   `json:"files"`     // transcript files found
	Read      int   `json:"read"`      // files with new lines read
	Reread    int   `json:"reread"`    // files read again from the start (replaced, shrunk, new format)
	Bytes     int64 `json:"bytes"`     // bytes of transcript read
	Lines     int   `json:"lines"`     // lines read
	Malformed int   `json:"malformed"` // lines skipped as not JSON
}

// Files lists the *.jsonl files under each source (a directory, walked
// recursively so subagent files are found, or a file), sorted, without
// repeats. A source that does not exist is skipped.
func Files(sources []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, src := range sources {
		abs, err := filepath.Abs(src)
		if err != nil {
			return nil, err
		}
		err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".jsonl") || !d.Type().IsRegular() {
				return nil
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list transcripts: %w", err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Update reads what is new in every transcript under sources into the
// cache: a file whose size and modification time match its record is not
// opened; a file that grew is read from its recorded offset; a file that
// shrank or whose first bytes changed is read again from the start.
// Records of files that no longer exist are kept: Claude Code deletes old
// transcripts, and the index remembers them.
func (x *Index) Update(sources []string) (Report, error) {
	var rep Report
	files, err := Files(sources)
	if err != nil {
		return rep, err
	}
	rep.Files = len(files)
	if err := os.MkdirAll(x.Dir, 0o755); err != nil {
		return rep, fmt.Errorf("transcript index: %w", err)
	}
	for _, path := range files {
		if err := x.updateFile(path, &rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func (x *Index) recordPath(path string) string {
	h := fnv.New64a()
	h.Write([]byte(path))
	return filepath.Join(x.Dir, fmt.Sprintf("%016x.json", h.Sum64()))
}

func (x *Index) updateFile(path string, rep *Report) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("transcript index: %w", err)
	}
	rp := x.recordPath(path)
	rec, _ := readRecord(rp)
	if rec != nil && (rec.Version != Version || rec.Path != path) {
		rec = nil
	}
	if rec != nil && rec.Size == fi.Size() && rec.ModTime.Equal(fi.ModTime()) {
		return nil // unchanged
	}
	if rec != nil && (fi.Size() < rec.Offset || headHash(path, rec.Offset) != rec.Head) {
		rec = nil
		rep.Reread++
	}
	if rec == nil {
		rec = &record{Version: Version, Path: path, Sessions: map[string]*Seen{}}
	}
	start := rec.Offset
	var rd transcript.Reader
	b := builder{rec: rec, fallback: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	next, err := rd.Read(path, start, b.add)
	if errors.Is(err, transcript.ErrStaleOffset) {
		rep.Reread++
		rec = &record{Version: Version, Path: path, Sessions: map[string]*Seen{}}
		b = builder{rec: rec, fallback: b.fallback}
		rd = transcript.Reader{}
		start = 0
		next, err = rd.Read(path, 0, b.add)
	}
	if err != nil {
		return fmt.Errorf("transcript index: read %s: %w", path, err)
	}
	rep.Read++
	rep.Bytes += next - start
	rep.Lines += rd.Lines
	rep.Malformed += rd.Malformed
	rec.Lines += rd.Lines
	rec.Malformed += rd.Malformed
	rec.Offset = next
	rec.Size = fi.Size()
	rec.ModTime = fi.ModTime()
	if next < fi.Size() {
		// A partial last line: come back for it even if size and time
		// do not change again.
		rec.Size = -1
	}
	rec.Head = headHash(path, next)
	return writeRecord(rp, rec)
}

// headHash identifies a transcript by its first bytes (up to offset).
func headHash(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, io.LimitReader(f, min(offset, headBytes)))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// builder adds entries to a record.
type builder struct {
	rec      *record
	fallback string         // the session id when no entry names one
	pending  map[string]int // tool_use id → index in rec.Calls; built from rec by the first add
}

func (b *builder) index() {
	b.pending = map[string]int{}
	for i, c := range b.rec.Calls {
		if c.ID != "" {
			b.pending[c.ID] = i
		}
	}
}

var exitCode = lazyregexp.New(`^Exit code (\d+)`)

func (b *builder) add(e transcript.Entry) error {
	if b.pending == nil {
		b.index()
	}
	rec := b.rec
	sid := e.SessionID
	if sid == "" {
		if e.Type != "user" && e.Type != "assistant" {
			return nil // titles, snapshots and the like belong to no session
		}
		sid = rec.Current
		if sid == "" {
			sid = b.fallback
		}
	}
	rec.Current = sid
	s := rec.Sessions[sid]
	if s == nil {
		s = &Seen{}
		rec.Sessions[sid] = s
	}
	s.Entries++
	if t := e.Timestamp; !t.IsZero() {
		if s.First.IsZero() || t.Before(s.First) {
			s.First = t
		}
		if t.After(s.Last) {
			s.Last = t
		}
	}
	if e.Prompt != "" && !e.IsSidechain {
		rec.Prompts = append(rec.Prompts, Prompt{Session: sid, Time: e.Timestamp, Text: text.Clip(e.Prompt, maxPrompt)})
	}
	for _, u := range e.ToolUses {
		c := Call{Session: sid, Time: e.Timestamp, Tool: u.Name, ID: u.ID, Sidechain: e.IsSidechain, Path: u.FilePath}
		if u.Command != "" {
			c.Command = text.Clip(u.Command, maxCommand)
			c.Commands = Normalize(u.Command)
		}
		if c.ID != "" {
			b.pending[c.ID] = len(rec.Calls)
		}
		rec.Calls = append(rec.Calls, c)
	}
	for _, r := range e.ToolResults {
		if !r.IsError {
			continue
		}
		msg := resultText(r)
		er := Error{Session: sid, Time: e.Timestamp, Kind: KindTool, Message: text.Clip(msg, maxMessage)}
		if strings.HasPrefix(msg, "The user doesn't want to") {
			er.Kind = KindDenied
		}
		if m := exitCode.FindStringSubmatch(msg); m != nil {
			er.ExitCode, _ = strconv.Atoi(m[1])
		}
		if i, ok := b.pending[r.ToolUseID]; ok {
			c := &rec.Calls[i]
			c.Failed = er.Kind == KindTool
			er.Tool = c.Tool
			var norms []string
			for _, cmd := range c.Commands {
				norms = append(norms, cmd.Norm)
				er.Heads = append(er.Heads, cmd.Head)
			}
			er.Command = strings.Join(norms, " ; ")
		}
		rec.Errors = append(rec.Errors, er)
	}
	if e.IsAPIError && len(e.Text) > 0 {
		rec.Errors = append(rec.Errors, Error{Session: sid, Time: e.Timestamp, Kind: KindAPI, Message: text.Clip(strings.Join(e.Text, "\n"), maxMessage)})
	}
	return nil
}

// resultText is a tool result's text with Claude Code's <tool_use_error>
// wrapper removed.
func resultText(r transcript.ToolResult) string {
	s := strings.TrimSpace(r.Text())
	s = strings.TrimPrefix(s, "<tool_use_error>")
	s = strings.TrimSuffix(s, "</tool_use_error>")
	return strings.TrimSpace(s)
}

func readRecord(path string) (*record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	if rec.Sessions == nil {
		rec.Sessions = map[string]*Seen{}
	}
	return &rec, nil
}

// writeRecord writes rec atomically (see internal/atomicfile).
func writeRecord(path string, rec *record) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("transcript index: %w", err)
	}
	return nil
}
