// Package memuse recognises what an agent's tool calls did that may concern
// its memory: a `mem store`, `mem search` or `mem show` in a Bash command,
// a call of one of mem's MCP tools, an edit or a read of a file. The gate
// (package hooks) and alias learning (package learn) read a transcript's
// tool calls through it, so that a new way of reaching the store is taught
// here once. Whether a file lies in the store is for the caller to say: it
// knows where the store is.
//
// It is on the prompt path (the gate runs in mem-hook), so it links only
// the standard library and mem's lean packages.
package memuse

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/mcpserver/mcptool"
	"github.com/mem-dev/mem/internal/shell"
	"github.com/mem-dev/mem/internal/transcript"
)

// Kind is what a tool call did.
type Kind uint8

const (
	Stored   Kind = iota + 1 // wrote a memory: mem store, memory_store
	Searched                 // looked memories up: mem search, context_query
	Shown                    // opened memories by slug: mem show, memory_show
	Edited                   // wrote a file: Edit, Write, MultiEdit, NotebookEdit
	Read                     // read a file: Read
)

// Use is one thing a tool call did.
type Use struct {
	Kind Kind
	// Slugs, for Shown, are the memories asked for: mem show's arguments
	// without a .md (it takes a file's name too), memory_show's slug as given.
	Slugs []string
	// Path, for Edited and Read, is the file as the call named it.
	Path string
}

// Of lists what the tool call u did, in the order its command line says; a
// call that concerns no memory and no file gives nothing.
func Of(u transcript.ToolUse) []Use {
	switch u.Name {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		if u.FilePath == "" {
			return nil
		}
		return []Use{{Kind: Edited, Path: u.FilePath}}
	case "Read":
		if u.FilePath == "" {
			return nil
		}
		return []Use{{Kind: Read, Path: u.FilePath}}
	case "Bash":
		var out []Use
		for _, r := range Runs(u.Command) {
			switch r.Sub {
			case "store":
				out = append(out, Use{Kind: Stored})
			case "search":
				out = append(out, Use{Kind: Searched})
			case "show":
				use := Use{Kind: Shown}
				for _, a := range r.Args {
					use.Slugs = append(use.Slugs, strings.TrimSuffix(a, ".md"))
				}
				out = append(out, use)
			}
		}
		return out
	}
	switch tool, _ := mcptool.Of(u.Name); tool {
	case mcptool.Store:
		return []Use{{Kind: Stored}}
	case mcptool.Query:
		return []Use{{Kind: Searched}}
	case mcptool.Show:
		use := Use{Kind: Shown}
		var in struct {
			Slug string `json:"slug"`
		}
		if json.Unmarshal(u.Input, &in) == nil && in.Slug != "" {
			use.Slugs = []string{in.Slug}
		}
		return []Use{use}
	}
	return nil
}

// Run is one run of mem in a shell command line: its subcommand and the
// words after it, quotes removed.
type Run struct {
	Sub  string
	Args []string
}

// Runs lists the runs of mem in a shell command line: a word whose base
// name is "mem" (mem, ./bin/mem, /usr/local/bin/mem, go run ./cmd/mem)
// followed, after any flags, by the subcommand, anywhere in the line
// (after cd, &&, ;, |, in $(…) or `…`), as package shell splits the line:
// quoted text is one word, so `grep "mem store"` is not a run, and neither
// is a comment or a heredoc's body.
func Runs(cmd string) []Run {
	if !strings.Contains(cmd, "mem") {
		return nil
	}
	var out []Run
	for _, words := range shell.All(cmd) {
		for i, w := range words {
			if w.Quoted || filepath.Base(w.Text) != "mem" {
				continue
			}
			j := i + 1
			for j < len(words) && strings.HasPrefix(words[j].Text, "-") {
				if words[j].Text == "--store" || words[j].Text == "-C" {
					j++ // its value
				}
				j++
			}
			if j < len(words) {
				r := Run{Sub: words[j].Text}
				for _, a := range words[j+1:] {
					r.Args = append(r.Args, a.Text)
				}
				out = append(out, r)
			}
		}
	}
	return out
}
