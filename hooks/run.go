package hooks

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/locate"
)

// Run is the mem-hook command (cmd/mem-hook), here so that the end-to-end
// scripts run the very code users get: args are its arguments (prompt,
// gate or post-tool), and it returns the exit code. When the memory files
// changed, the prompt hook has the full mem binary, found next to this one
// (else on PATH), refresh the index: this binary links no parser.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: mem-hook prompt|gate|post-tool")
		return 2
	}
	switch args[0] {
	case "prompt":
		Prompt(stdin, stdout, refreshWithMem, time.Now())
	case "gate":
		return Gate(stdin, stderr, time.Now(), StartLearn(memBinary()))
	case "post-tool":
		PostTool(stdin)
	default:
		fmt.Fprintf(stderr, "mem-hook: error: unknown hook %q (prompt, gate or post-tool)\n", args[0])
		return 2
	}
	return 0
}

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

// refreshWithMem runs `mem index` for the place's store.
func refreshWithMem(place locate.Place) error {
	bin := memBinary()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--store", place.Store, "-C", place.WorkTree, "index", "--quiet")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s index: %v: %s", bin, err, out)
	}
	return nil
}
