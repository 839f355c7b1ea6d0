// Package mcptool names the tools mem's MCP server serves (package
// mcpserver registers them by these names). It links nothing, so that the
// hooks on the prompt path can tell mem's tools apart in a transcript
// (package memuse) by the very names the server gives them.
package mcptool

import "strings"

// The tools, by the names clients call them.
const (
	Store  = "memory_store"
	Update = "memory_update"
	Query  = "context_query"
	Forget = "memory_forget"
	Show   = "memory_show"
	List   = "memory_list"
)

// All lists the tools in the order the server registers them.
var All = []string{Store, Update, Query, Forget, Show, List}

// Of returns the mem tool that a client's name for a tool calls, and false
// when it calls none. Claude Code names an MCP tool mcp__<server>__<tool>,
// with the server named as its configuration says, so any server name is
// taken.
func Of(name string) (string, bool) {
	if !strings.HasPrefix(name, "mcp__") {
		return "", false
	}
	for _, t := range All {
		if strings.HasSuffix(name, "__"+t) {
			return t, true
		}
	}
	return "", false
}
