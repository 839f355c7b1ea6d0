package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/version"
)

// Run is the mem-hook command (cmd/mem-hook), here so that the end-to-end
// scripts run the very code users get: args are its arguments (prompt,
// gate or post-tool), and it returns the exit code. When the memory files
// changed, the prompt hook has the full mem binary, found next to this one
// (else on PATH), refresh the index: this binary links no parser.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "--help", "-h", "help":
		fmt.Fprint(stdout, usage)
	case "--version", "version":
		fmt.Fprintln(stdout, "mem-hook "+version.String())
	case "prompt":
		Prompt(stdin, stdout, refreshWithMem, time.Now())
	case "gate":
		return Gate(stdin, stderr, time.Now(), StartLearn(memBinary()))
	case "post-tool":
		PostTool(stdin)
	default:
		fmt.Fprintf(stderr, "mem-hook: error: unknown hook %q (prompt, gate or post-tool; mem-hook --help says more)\n", args[0])
		return 2
	}
	return 0
}

// usage is mem-hook --help.
const usage = `Usage: mem-hook <hook>

mem's lean binary for Claude Code's hooks: Claude Code runs it with the
hook's JSON on stdin, as mem install wires it in .claude/settings.json.

Hooks:
  prompt      UserPromptSubmit: inject the memories relevant to the prompt
  gate        Stop: send the agent back when it edited files and stored nothing
  post-tool   PostToolUse on Edit|Write|MultiEdit: mark the search cache stale

Flags:
  -h, --help  Show this help.
  --version   Print mem-hook's version.

Everything else is the mem command: mem help.
`

// memBinary is the mem binary next to this one, else the one on PATH.
func memBinary() string {
	if self, err := os.Executable(); err == nil {
		sibling := filepath.Join(filepath.Dir(self), "mem")
		if _, err := os.Stat(sibling); err == nil {
			return sibling
		}
	}
	return "mem"
}

// refreshWithMem runs `mem index --no-wait` for the place's store. The
// prompt waits for it at most RefreshWait; a refresh that takes longer is
// left to finish on its own (the next prompt finds the cache fresh): it is
// not killed, and it prints nothing on success (--quiet) to a pipe that
// may be gone by then.
func refreshWithMem(place locate.Place) error {
	bin := memBinary()
	cmd := exec.Command(bin, "--store", place.Store, "-C", place.WorkTree, "index", "--quiet", "--no-wait")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == ExitBusy:
		return ErrRefreshBusy
	}
	return fmt.Errorf("%s index: %v: %s", bin, err, bytes.TrimSpace(out))
}

// ExitBusy is `mem index --no-wait`'s status when the store's lock is held
// (EX_TEMPFAIL): the lean hook reads it as "answer from the cache as it is".
const ExitBusy = 75

// commitEdits commits the memory files an agent edited in place (the
// gate's StoreEdits). A variable so that the hooks' tests, which have no
// mem binary, can watch it.
var commitEdits = commitWithMem

// EditsWait bounds how long the gate waits for `mem hook edits`.
const EditsWait = 3 * time.Second

// commitWithMem runs `mem hook edits` with the files, and waits for it.
func commitWithMem(place locate.Place, paths []string) error {
	bin := memBinary()
	args := append([]string{"--store", place.Store, "-C", place.WorkTree, "hook", "edits", "--"}, paths...)
	ctx, cancel := context.WithTimeout(context.Background(), EditsWait)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("commit edited memories: %s: %v: %s", bin, err, bytes.TrimSpace(out))
	}
	return nil
}
