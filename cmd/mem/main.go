// Command mem is a git-native memory tool for AI coding agents.
package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

func main() {
	// Most commands live for milliseconds and allocate tens of megabytes
	// (a refresh of a large cache, a listing): collecting garbage on the way
	// only costs time, measured at a third of `mem index` at 10,000
	// memories. The limit keeps a large job bounded; the long-lived
	// commands (mcp, serve) turn the collector back on (longLived).
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	// A goroutine waiting on a git process or the disk holds its P until
	// the runtime's monitor takes it back, milliseconds later once the
	// monitor has been idle, and the work meant to run beside the wait (the
	// cache refresh and the commit mem store builds while git update-index
	// runs) waits with it. One P more than the CPUs lets that work start at
	// once: mem store 28.9 -> 26.2 ms interleaved on 2 cores; mem list, mem
	// search and a rebuild unchanged or faster. A GOMAXPROCS the user set
	// is left as it is.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// longLived turns the garbage collector back on, as it is by default, for
// a command that serves for as long as a session.
func longLived() { debug.SetGCPercent(100) }
