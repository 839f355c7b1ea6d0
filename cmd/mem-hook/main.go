// Command mem-hook answers Claude Code's hooks on the prompt path. It is
// mem's lean twin: it links no markdown parser and no git library, so it
// starts in about the time of a Go hello world. When the memory files
// changed it asks the full mem binary, found next to it, to refresh the
// index.
//
//	mem-hook prompt        UserPromptSubmit: inject relevant memories
//	mem-hook gate          Stop: block when files were edited and nothing was stored;
//	                       start `mem learn` when the agent looked a memory up itself
//	mem-hook post-tool     PostToolUse on Edit|Write|MultiEdit: mark the index stale
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/mem-dev/mem/hooks"
	"github.com/mem-dev/mem/internal/locate"
)

func main() {
	// A hook lives for milliseconds and allocates a few megabytes: collecting
	// garbage would only cost time. The limit keeps a pathological input from
	// growing without bound.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(256 << 20)
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mem-hook prompt|gate|post-tool")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "prompt":
		hooks.Prompt(os.Stdin, os.Stdout, refresh, time.Now())
	case "gate":
		os.Exit(hooks.Gate(os.Stdin, os.Stderr, time.Now(), hooks.StartLearn(memBinary())))
	case "post-tool":
		hooks.PostTool(os.Stdin)
	default:
		fmt.Fprintf(os.Stderr, "mem-hook: error: unknown hook %q (prompt, gate or post-tool)\n", os.Args[1])
		os.Exit(2)
	}
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

// refresh runs `mem index` for the place's store.
func refresh(place locate.Place) error {
	bin := memBinary()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--store", place.Store, "-C", place.WorkTree, "index", "--quiet")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s index: %v: %s", bin, err, out)
	}
	return nil
}
