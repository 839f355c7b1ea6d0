// Package logfile appends lines to the logs mem keeps under a repository's
// state directory (.git/mem): the hooks' decision and error logs, and the
// CLI's own. The prompt hook writes one on every prompt, so it opens files
// without the runtime poller and creates directories only when missing.
package logfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/rawfile"
)

// HookErrors is the log, in the state directory, of the hooks' own errors:
// hooks fail open, so it is the only trace of them, and mem doctor reads it.
// Its lines are dated (AppendDated, Since).
const HookErrors = "hook.log"

// AppendDated appends msg dated now: an RFC 3339 time, a space and msg.
func AppendDated(path string, now time.Time, msg string) error {
	return Append(path, now.UTC().Format(time.RFC3339)+" "+msg)
}

// Since counts the lines of a dated log that are dated since, and returns
// the last one's message. A missing or unreadable log counts nothing.
func Since(path string, since time.Time) (n int, last string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, ""
	}
	for line := range strings.Lines(string(data)) {
		stamp, msg, _ := strings.Cut(strings.TrimSpace(line), " ")
		if t, err := time.Parse(time.RFC3339, stamp); err == nil && !t.Before(since) {
			n++
			last = msg
		}
	}
	return n, last
}

// maxBytes is the size at which a log moves to <name>.1 (Generations),
// replacing the one
// before: the decision log is written on every prompt and must not grow for
// ever, and 4 MB is some ten thousand decisions.
const maxBytes = 4 << 20

// Append appends line (its newlines made spaces) to the file at path,
// creating the file, and its directory only when that is missing: the
// prompt hook writes here on every prompt, into a directory that almost
// always exists. A file that has grown past maxBytes is rotated.
func Append(path, line string) error {
	f, err := rawfile.Open(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			f, err = rawfile.Open(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		}
	}
	if err != nil {
		return err
	}
	b := append(make([]byte, 0, len(line)+1), line...)
	for i, c := range b { // one line, whatever it holds
		if c == '\n' {
			b[i] = ' '
		}
	}
	_, err = f.Write(append(b, '\n'))
	end, serr := f.Seek(0, io.SeekCurrent) // appends leave the offset at the end
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && serr == nil && end > maxBytes {
		err = os.Rename(path, Generations(path)[0])
	}
	return err
}

// Generations are the files a log at path is kept in, oldest first: the
// one it last moved to, then itself.
func Generations(path string) []string { return []string{path + ".1", path} }
