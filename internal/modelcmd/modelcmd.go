// Package modelcmd runs the offline model passes (capture, enrichment, the
// curator's verdicts) through an external command.
//
// The model only fills typed fields; it never runs on the prompt path. A
// Runner writes the prompt to the command's stdin, reads one JSON answer from
// its stdout and decodes it strictly into the caller's struct: an unknown
// field, a second value, anything that is not JSON, or an answer the pass's
// Validator finds empty ({} where a field is required) is rejected, logged
// and retried once; a command that exits non-zero or times out is too. A
// rejected call is an error for the pass to report, never an empty result.
// Retrying lives here and nowhere else. The model never writes a command, a
// path or a file; whatever it answers is data for the caller to check.
//
// # Answer format
//
// `mem help model` (cmd/mem/help.go, quoted in the README) states this
// contract, with each pass's JSON shape, for whoever writes a model command.
//
// The command's stdout is either Claude's JSON envelope
//
//	{"type":"result","subtype":"success","is_error":false,"result":"<text>"}
//
// whose result text holds the answer, alone, inside a ```json fence or with
// prose around it (the first complete JSON object, or array when the caller
// wants one, is taken), or the bare JSON answer itself and nothing else. An
// envelope with is_error true, or an error subtype, is an error. The envelope
// is also found at the end of claude's --verbose output (a JSON array of
// messages) and of --output-format stream-json (one message per line).
//
// # Environment
//
// MEM_MODEL_CMD replaces the default command (claude -p --output-format json);
// it is split into words as a shell would (quotes and backslashes), with no
// expansion. MEM_MODEL_TIMEOUT, a Go duration, replaces the default timeout of
// 120s per call. The command runs in a fresh empty directory, so it sees no
// project files, settings or hooks, with MEM_MODEL_CALL=1 in its environment,
// so that mem's own hooks, if they fire inside it, can return at once.
package modelcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/background"
	"github.com/mem-dev/mem/internal/text"
)

// Defaults used when a Runner field is left zero.
var DefaultCommand = []string{"claude", "-p", "--output-format", "json"}

const (
	DefaultTimeout = 120 * time.Second
	// MaxOutput caps the bytes read from the command's stdout; a longer answer
	// is rejected.
	MaxOutput = 4 << 20
	maxStderr = 64 << 10
	attempts  = 2
)

// ErrUnavailable means no model can be asked: the command was not found, its
// configuration is malformed, or model passes were turned off (--no-model,
// represented by a nil *Runner).
var ErrUnavailable = errors.New("no model available")

// Asker asks a model for a typed answer: it sends prompt and decodes the
// JSON answer into out. The offline passes take one; *Runner is the real
// one (safe to call from several goroutines at once), and their unit tests
// substitute canned answers.
type Asker interface {
	Ask(ctx context.Context, prompt string, out any) error
}

var _ Asker = (*Runner)(nil)

// Runner asks an external model command for typed answers. A nil *Runner is
// valid and means "no model": Available and Ask return ErrUnavailable.
type Runner struct {
	Command []string      // argv; default: claude -p --output-format json
	Timeout time.Duration // per call; default 120s
	Log     io.Writer     // one line per rejected answer, with the reason (may be nil)

	err error // configuration error found by FromEnv, reported by Available
}

// FromEnv returns a Runner configured from MEM_MODEL_CMD and
// MEM_MODEL_TIMEOUT. A malformed value is not fatal here: Available and Ask
// report it, wrapped in ErrUnavailable.
func FromEnv() *Runner {
	r := &Runner{}
	if s := os.Getenv("MEM_MODEL_CMD"); strings.TrimSpace(s) != "" {
		argv, err := ParseCommand(s)
		if err != nil {
			r.err = fmt.Errorf("MEM_MODEL_CMD: %w", err)
		}
		r.Command = argv
	}
	if s := strings.TrimSpace(os.Getenv("MEM_MODEL_TIMEOUT")); s != "" {
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			r.err = errors.Join(r.err, fmt.Errorf("MEM_MODEL_TIMEOUT: %w", err))
		case d <= 0:
			r.err = errors.Join(r.err, fmt.Errorf("MEM_MODEL_TIMEOUT: %s is not a positive duration", s))
		default:
			r.Timeout = d
		}
	}
	return r
}

func (r *Runner) command() []string {
	if len(r.Command) == 0 {
		return DefaultCommand
	}
	return r.Command
}

func (r *Runner) timeout() time.Duration {
	if r.Timeout <= 0 {
		return DefaultTimeout
	}
	return r.Timeout
}

// Available reports whether the model command can be run: nil when its first
// word resolves to an executable, else an error wrapping ErrUnavailable that
// names the command and MEM_MODEL_CMD.
func (r *Runner) Available() error {
	_, err := r.resolve()
	return err
}

func (r *Runner) resolve() (string, error) {
	if r == nil {
		return "", fmt.Errorf("%w: model passes are turned off (--no-model)", ErrUnavailable)
	}
	if r.err != nil {
		return "", fmt.Errorf("%w: %w", ErrUnavailable, r.err)
	}
	name := r.command()[0]
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: the model command %q was not found; install it or set MEM_MODEL_CMD to another command", ErrUnavailable, name)
	}
	// The command runs in another directory: make a relative path absolute.
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, nil
}

// Ask sends prompt to the model command on stdin and decodes its answer
// strictly into out, which must be a non-nil pointer. A call that times out,
// exits non-zero or answers something that does not decode is logged and
// tried once more; the returned error says why the last attempt failed. Ask
// does not retry when ctx itself is done or the command cannot be found.
func (r *Runner) Ask(ctx context.Context, prompt string, out any) error {
	if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("ask model: out must be a non-nil pointer, not %T", out)
	}
	path, err := r.resolve()
	if err != nil {
		return err
	}
	want := wantedKind(out)
	var errs []error
	for i := 1; i <= attempts; i++ {
		err := r.attempt(ctx, path, prompt, out, want)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("ask model: %w", ctx.Err())
		}
		var se *startError
		if errors.As(err, &se) {
			return fmt.Errorf("ask model: %w", err)
		}
		r.logf("mem: model: attempt %d of %d rejected: %v", i, attempts, err)
		errs = append(errs, err)
	}
	name := filepath.Base(r.command()[0])
	last := errs[len(errs)-1]
	if errs[0].Error() == last.Error() {
		return fmt.Errorf("ask model %s: %w (%d attempts)", name, last, attempts)
	}
	return fmt.Errorf("ask model %s: %w (attempt 1: %v)", name, last, errs[0])
}

func (r *Runner) logf(format string, args ...any) {
	if r.Log == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	line = strings.ReplaceAll(line, "\n", " ")
	fmt.Fprintln(r.Log, line)
}

type startError struct{ err error }

func (e *startError) Error() string { return "start model command: " + e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// attempt runs the command once and decodes its answer.
func (r *Runner) attempt(ctx context.Context, path, prompt string, out any, want byte) error {
	timeout := r.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A fresh empty directory: the model sees no project files.
	dir, err := os.MkdirTemp("", "mem-model-")
	if err != nil {
		return &startError{err}
	}
	defer os.RemoveAll(dir)

	argv := r.command()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), background.ModelCallEnv+"=1")
	cmd.Stdin = strings.NewReader(prompt)
	stdout := &capWriter{max: MaxOutput}
	stderr := &capWriter{max: maxStderr}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second
	killGroup(cmd)

	if err := cmd.Start(); err != nil {
		return &startError{err}
	}
	err = cmd.Wait()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("no answer within %s", timeout)
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("model command failed (%v)%s", ee.ProcessState, stderrTail(stderr.buf.Bytes()))
		}
		return fmt.Errorf("model command: %w", err)
	case stdout.over:
		return fmt.Errorf("answer longer than %d bytes", MaxOutput)
	}
	return decodeAnswer(stdout.buf.Bytes(), out, want)
}

// stderrTail formats the last non-empty line of stderr for an error message.
func stderrTail(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return ""
	}
	return ": " + text.Clip(last, 200)
}

// capWriter keeps the first max bytes written and discards the rest, so a
// chatty command never blocks on a full pipe and never grows memory.
type capWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room < len(p) {
		w.over = true
		if room > 0 {
			w.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}
