// Command mem is a git-native memory tool for AI coding agents.
package main

import (
	"os"
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
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// longLived turns the garbage collector back on, as it is by default, for
// a command that serves for as long as a session.
func longLived() { debug.SetGCPercent(100) }
