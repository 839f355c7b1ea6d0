// Command floorhook is the floor for a SessionStart hook in bench/start.sh:
// it prints one fixed additionalContext, as mem's hook would.
package main

import "os"

func main() {
	os.Stdout.WriteString(`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"mem: 1 memories in .claude/agent-memory; relevant ones arrive with each prompt, and ` + "`mem search <topic>`" + ` looks up more."}}` + "\n")
}
