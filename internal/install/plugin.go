package install

import "path"

// # The Claude Code plugin
//
// mem ships as a Claude Code plugin too: plugin/ in mem's repository holds
// its manifest (.claude-plugin/plugin.json), its hooks (hooks/hooks.json,
// the same commands as the settings, HookCommand) and its MCP server
// (.mcp.json); .claude-plugin/marketplace.json at the top of the repository
// makes the repository a marketplace, so that
//
//	claude plugin marketplace add <a clone of mem, or mem's GitHub repository>
//	claude plugin install mem@mem
//
// enables it for the person, in every directory: Claude Code runs a
// plugin's hooks wherever it starts, unlike a repository's settings.json.
// The plugin carries no binary; its commands find mem on PATH and do
// nothing without it. PluginFiles renders these files, and a test keeps
// the committed ones equal to it.

// Plugin names: the marketplace and the plugin in it (the id is mem@mem).
const (
	PluginName      = "mem"
	MarketplaceName = "mem"
	// PluginDir is the plugin's directory in mem's repository.
	PluginDir = "plugin"
)

// PluginVersion is the plugin's version: Claude Code updates an installed
// plugin only when it changes.
const PluginVersion = "0.1.0"

const pluginDescription = "Git-native memory for coding agents: the memories that bear on each prompt, a Stop gate that asks for what was learned, and MCP tools to search and store."

// PluginFiles returns the plugin's files and the marketplace that lists it,
// by their paths in mem's repository.
func PluginFiles() (map[string][]byte, error) {
	var o Options
	events := object{}
	for _, s := range o.hookSpecs() {
		events = append(events, field{s.event, []any{s.group()}})
	}
	docs := map[string]any{
		".claude-plugin/marketplace.json": object{
			{"name", MarketplaceName},
			{"owner", object{{"name", "mem developers"}}},
			{"description", "mem, git-native memory for coding agents, as a Claude Code plugin"},
			{"plugins", []any{object{
				{"name", PluginName},
				{"source", "./" + PluginDir},
				{"description", pluginDescription},
			}}},
		},
		path.Join(PluginDir, ".claude-plugin/plugin.json"): object{
			{"name", PluginName},
			{"version", PluginVersion},
			{"description", pluginDescription},
			{"author", object{{"name", "mem developers"}}},
			{"keywords", []string{"memory", "git", "hooks", "mcp"}},
		},
		path.Join(PluginDir, "hooks/hooks.json"): object{
			{"description", "mem's hooks; each finds mem-hook or mem on PATH and does nothing without them"},
			{"hooks", events},
		},
		path.Join(PluginDir, ".mcp.json"): object{
			{"mcpServers", object{{"mem", object{{"command", sharedMem}, {"args", []string{"mcp"}}}}}},
		},
	}
	files := map[string][]byte{}
	for name, v := range docs {
		b, err := marshal(v, "", "  ")
		if err != nil {
			return nil, err
		}
		files[name] = append(b, '\n')
	}
	files[path.Join(PluginDir, "README.md")] = []byte(pluginReadme)
	return files, nil
}

const pluginReadme = `# mem for Claude Code

This plugin wires [mem](../README.md), a git-native memory for coding agents,
into Claude Code for you, in every directory of every repository:

- **UserPromptSubmit**: the memories of the repository's store that bear on
  the prompt arrive with it (nothing when none is relevant);
- **SessionStart**: the profile and one line on the store's health;
- **Stop**: the gate sends the agent back when it edited files and stored
  nothing it learned;
- **PostToolUse** on Edit, Write and MultiEdit: an edited memory is seen by
  the next prompt;
- the **MCP server** ` + "`mem mcp`" + `: context_query, memory_store and the rest.

The hooks act only in repositories that have a store (` + "`mem init`" + `). The
plugin carries no binary: install mem and mem-hook on your PATH first
(` + "`go install ./cmd/mem ./cmd/mem-hook`" + `); without them every hook does
nothing and exits 0.

Install it from a clone of mem, or from mem's repository on GitHub:

    claude plugin marketplace add ./path/to/mem
    claude plugin install mem@mem

and take it out with ` + "`claude plugin uninstall mem@mem`" + ` and
` + "`claude plugin marketplace remove mem`" + `. A repository may also have mem's
hooks in its committed .claude/settings.json (` + "`mem install`" + `): mem answers
each event once either way.
`
