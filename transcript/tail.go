package transcript

import (
	"bytes"
	"github.com/mem-dev/mem/internal/rawfile"
	"io"
	"os"
	"strings"
)

// tailWindow is how much of the end of a transcript LastAssistantText reads
// first; it doubles until an assistant text is found or the file is read.
const tailWindow = 32 << 10

// LastAssistantText returns the last non-blank text block the assistant
// wrote in the transcript at path, or "" when there is none. It reads the
// file backwards from its end in growing windows, so its cost follows the
// size of the last turn, not of the session. Error messages written as
// assistant entries (isApiErrorMessage) are passed over.
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
	for window := int64(tailWindow); ; window *= 2 {
		start := max(size-window, 0)
		if n := size - start; int64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:size-start]
		n, err := f.ReadAt(buf, start)
		if err != nil && err != io.EOF {
			return "", err
		}
		chunk := buf[:n]
		if start > 0 {
			// The first line may begin before the window: skip it.
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				continue
			}
			chunk = chunk[i+1:]
		}
		if text, ok := lastText(chunk); ok {
			return text, nil
		}
		if start == 0 {
			return "", nil
		}
	}
}

// lastText scans the lines of chunk from the last one back.
func lastText(chunk []byte) (string, bool) {
	for end := len(chunk); end > 0; {
		s := bytes.LastIndexByte(chunk[:end-1], '\n') + 1
		line := trimEOL(chunk[s:end])
		end = s
		if typ, ok := sniffType(line); !ok || typ != "assistant" {
			continue
		}
		e, err := ParseLine(line)
		if err != nil || e.IsAPIError {
			continue
		}
		for i := len(e.Text) - 1; i >= 0; i-- {
			if strings.TrimSpace(e.Text[i]) != "" {
				return e.Text[i], true
			}
		}
	}
	return "", false
}
