// Command mem-hook answers Claude Code's hooks on the prompt path. It is
// mem's lean twin: it links no markdown parser and no git library, so it
// starts in about the time of a Go hello world. When the memory files
// changed it asks the full mem binary, found next to it, to refresh the
// index (hooks.Run).
//
//	mem-hook prompt        UserPromptSubmit: inject relevant memories
//	mem-hook gate          Stop: block when files were edited and nothing was stored;
//	                       start `mem learn` when the agent looked a memory up itself
//	mem-hook post-tool     PostToolUse on Edit|Write|MultiEdit: mark the index stale
package main

import (
	"os"
	"runtime/debug"

	"github.com/mem-dev/mem/hooks"
)

func main() {
	// A hook lives for milliseconds and allocates a few megabytes: collecting
	// garbage would only cost time. The limit keeps a pathological input from
	// growing without bound.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(256 << 20)
	os.Exit(hooks.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
