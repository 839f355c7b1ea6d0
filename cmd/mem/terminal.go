package main

import (
	"errors"
	"fmt"
	"os"
)

// isTerminal reports whether f (or the file a termSafe writes to) is a
// terminal: a character device other than the null device, which cron, CI
// and `< /dev/null` hand a program.
func isTerminal(f any) bool {
	if t, ok := f.(*termSafe); ok {
		f = t.w
	}
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fi, err := file.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// A command that reads stdin says, when stdin is a terminal, what it waits
// for and how to end it, or refuses where only a program would write it:
// a person who forgot the argument otherwise sees a command that hangs.
const (
	typeMemory  = "mem: type the memory, then Ctrl-D on a line of its own to store it (Ctrl-C stores nothing)"
	typeProgram = "mem: %s reads what its client sends on stdin (mem install wires it in); here it waits for you to type it: Ctrl-D on a line of its own ends it"
)

// readsClient are the commands that read a program's messages on stdin: the
// MCP server and the hooks that take Claude Code's hook JSON.
var readsClient = map[string]bool{
	"mcp": true, "gate": true, "hook prompt": true, "hook gate": true, "hook post-tool": true, "hook session-start": true,
}

// noTranscript refuses capture and learn on a terminal: they read the hook
// JSON Claude Code sends, which no one types.
func noTranscript(command string) error {
	return withHint(errors.New("no transcript: give --transcript PATH"),
		fmt.Sprintf("usage: mem %s --transcript PATH [flags]; Claude Code's hooks send its path on stdin instead", command))
}
