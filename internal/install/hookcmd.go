package install

import "strings"

// # Hook commands
//
// The hooks sit in files a team shares (.claude/settings.json, the plugin),
// so their commands name no path of one machine and must not break a
// teammate who has not installed mem: each runs mem-hook when it is on PATH,
// else mem, else does nothing and exits 0, e.g.
//
//	command -v mem-hook >/dev/null && exec mem-hook prompt; command -v mem >/dev/null && exec mem hook prompt; exit 0
//
// Claude Code runs a handler once when several settings files hold the same
// command, so every install (project, user, plugin) writes the same text.
// The gate's deliberate exit 2 passes through exec. SessionStart and capture
// need the full binary (the parser, the model runner).

// HookCommand is the command line of one of mem's hooks: kind is prompt,
// gate, post-tool, session-start or capture.
func HookCommand(kind string) string {
	var runs []string
	switch kind {
	case kindPrompt, kindGate, kindPostTool:
		runs = []string{"mem-hook " + kind, "mem hook " + kind}
	case kindSessionStart:
		runs = []string{"mem hook " + kind}
	case kindCapture:
		runs = []string{"mem capture --detach"}
	}
	var b strings.Builder
	for _, run := range runs {
		bin, _, _ := strings.Cut(run, " ")
		b.WriteString("command -v " + bin + " >/dev/null && exec " + run + "; ")
	}
	b.WriteString("exit 0")
	return b.String()
}

// hookBinaries lists the programs a hook command may run, in the order it
// tries them: for mem's own form, the bare names; for a command written
// otherwise (an older install's "/abs/mem-hook prompt"), its first word.
func hookBinaries(cmd string) []string {
	var bins []string
	for _, words := range simpleCommands(cmd) {
		if n := binName(words[0]); n == "mem" || n == "mem-hook" {
			bins = append(bins, words[0])
		}
	}
	return bins
}

// simpleCommands splits a command line into its simple commands, at ;, &&
// and || between words, each without a leading exec (mem's form execs the
// binary it found): enough to read the commands mem writes and the
// one-binary commands older installs wrote.
func simpleCommands(cmd string) [][]string {
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) >= 2 && cur[0] == "exec" {
			cur = cur[1:]
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, w := range shellFields(cmd) {
		switch {
		case w == "&&" || w == "||" || w == ";":
			flush()
		case strings.HasSuffix(w, ";"):
			cur = append(cur, strings.TrimSuffix(w, ";"))
			flush()
		default:
			cur = append(cur, w)
		}
	}
	flush()
	return out
}
