package transcript

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/mem-dev/mem/internal/jsonscan"
	"github.com/mem-dev/mem/internal/rawfile"
)

// tailWindow is how much of the end of a transcript LastAssistantText reads
// first; it doubles until an assistant text is found, the file is read or
// the window reaches maxTailWindow. In the real sessions we have (73 typed
// prompts in 20 sessions, bench/prevtext.py), the previous assistant text
// began within 8 KB of the prompt for 81% of them, 16 KB for 88% and 32 KB
// for 96%. Every
// page of the window is a page fault of the hook's heap, about 2 µs each
// where we measured: a first window of 32 KB made a typical prompt pay for
// six pages it never needed.
const tailWindow = 8 << 10

// maxTailWindow bounds what one prompt may read of a transcript. In the
// real sessions we measured, a prompt's previous assistant text was never
// more than 64 KB before it; a session of tool calls with no text for
// megabytes would otherwise be read whole, twice over, on every prompt.
const maxTailWindow = 4 << 20

// LastAssistantText returns the last non-blank text block the assistant
// wrote in the last maxTailWindow bytes of the transcript at path, or ""
// when there is none. It reads the file backwards from its end in growing
// windows, so its cost follows the size of the last turn, not of the
// session. Error messages written as assistant entries (isApiErrorMessage)
// are passed over.
func LastAssistantText(path string) (string, error) {
	f, err := rawfile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := fi.Size()
	var buf []byte
	// Each window scans only the lines the one before did not (end is a
	// line start). It reads again what lies between its start and end: a
	// line longer than a window is read at every doubling until its start
	// is found (BenchmarkLastAssistantTextBehindLongLine: a 3 MB line costs
	// 7 MB of reads), which keeps the common case, a text within the first
	// window, to one small buffer.
	end := size
	for window := int64(tailWindow); window <= maxTailWindow; window *= 2 {
		start := max(size-window, 0)
		if n := end - start; int64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:end-start]
		n, err := f.ReadAt(buf, start)
		if err != nil && err != io.EOF {
			return "", err
		}
		chunk, from := buf[:n], start
		if start > 0 {
			// The first line may begin before the window: leave it to the
			// next one.
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				continue
			}
			chunk, from = chunk[i+1:], start+int64(i)+1
		}
		if text := lastText(chunk); text != "" {
			return text, nil
		}
		if start == 0 {
			return "", nil
		}
		end = from
	}
	return "", nil
}

// lastText scans the lines of chunk from the last one back for the last
// assistant text; "" when there is none.
func lastText(chunk []byte) string {
	for end := len(chunk); end > 0; {
		s := bytes.LastIndexByte(chunk[:end-1], '\n') + 1
		line := trimEOL(chunk[s:end])
		end = s
		if text := assistantText(line); text != "" {
			return text
		}
	}
	return ""
}

// assistantText returns the last non-blank text block of an assistant
// line, or "" when it has none, is an API error message, is not valid JSON
// or is not an assistant line (its first "type", as sniffType reads it).
// It reads what ParseLine would (a fuzz test holds it to that) in one walk,
// without encoding/json, whose first use of a type costs reflection: in a
// hook every use is the first. A line of another type stops the walk at its
// "type", which Claude Code writes before the bulky fields of those lines.
func assistantText(line []byte) string {
	s := jsonscan.New(line)
	var apiError, typed bool
	var blocks []textBlock
	err := s.Object(func(key []byte) error {
		switch {
		case string(key) == "type" && !typed:
			typed = true
			if s.Kind() != '"' {
				return errFound
			}
			if typ, err := s.String(); err != nil || typ != "assistant" {
				return errFound
			}
			return nil
		case bytes.EqualFold(key, []byte("isApiErrorMessage")):
			if k := s.Kind(); k == 't' || k == 'f' {
				var err error
				apiError, err = s.Bool()
				return err
			}
		case bytes.EqualFold(key, []byte("message")):
			switch s.Kind() {
			case 'n':
				blocks = nil
			case '{':
				return s.Object(func(key []byte) error {
					if !bytes.EqualFold(key, []byte("content")) {
						return s.Skip()
					}
					switch s.Kind() {
					case 'n':
						blocks = nil
					case '[':
						blocks = blocks[:0]
						return s.Array(func() error {
							var b textBlock
							err := b.read(s)
							blocks = append(blocks, b)
							return err
						})
					}
					return s.Skip()
				})
			}
		}
		return s.Skip()
	})
	if err != nil || !typed || s.End() != nil || apiError {
		return ""
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		if b := blocks[i]; b.typ == "text" && strings.TrimSpace(b.text) != "" {
			return b.text
		}
	}
	return ""
}

// textBlock is the part of a content block that assistantText reads.
type textBlock struct{ typ, text string }

func (b *textBlock) read(s *jsonscan.Scanner) error {
	if s.Kind() != '{' {
		return s.Skip() // not a block: a type error to encoding/json
	}
	return s.Object(func(key []byte) error {
		var dst *string
		switch {
		case bytes.EqualFold(key, []byte("type")):
			dst = &b.typ
		case bytes.EqualFold(key, []byte("text")):
			dst = &b.text
		}
		if dst == nil || s.Kind() != '"' {
			return s.Skip()
		}
		v, err := s.String()
		*dst = v
		return err
	})
}
