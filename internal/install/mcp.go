package install

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// sharedMem is how files a team shares name mem: by the bare name, looked
// up on each teammate's PATH.
const sharedMem = "mem"

// mcpJSON is an agent's JSON file of MCP servers.
type mcpJSON struct {
	agent     string
	path      string
	container string // the key that holds the servers
	entry     object // mem's server, as the agent wants it
	// ours reports whether an existing "mem" server runs mem.
	ours func(d *jdoc, n *jnode) bool
}

func (pl *planner) mcpFiles() []mcpJSON {
	o := pl.o
	commandIsMem := func(d *jdoc, n *jnode) bool {
		cmd, ok := d.str(n.member("command"))
		return ok && binName(cmd) == "mem"
	}
	files := []mcpJSON{
		{Claude, filepath.Join(o.Place.WorkTree, ".mcp.json"), "mcpServers",
			object{{"type", "stdio"}, {"command", sharedMem}, {"args", []string{"mcp"}}}, commandIsMem},
		{OpenCode, filepath.Join(o.Place.WorkTree, "opencode.json"), "mcp",
			object{{"type", "local"}, {"command", []string{sharedMem, "mcp"}}, {"enabled", true}},
			func(d *jdoc, n *jnode) bool {
				cmd := n.member("command")
				if cmd == nil || cmd.kind != '[' || len(cmd.elems) == 0 {
					return false
				}
				first, ok := d.str(cmd.elems[0])
				return ok && binName(first) == "mem"
			}},
	}
	if o.Home != "" {
		// Claude-compatible, without "type", which Kimi does not use.
		files = append(files, mcpJSON{Kimi, filepath.Join(o.Home, ".kimi", "mcp.json"), "mcpServers",
			object{{"command", o.Mem}, {"args", []string{"mcp"}}}, commandIsMem})
	}
	return files
}

// memServer returns the container and mem's entry in it, either may be nil.
func (m mcpJSON) memServer(d *jdoc) (c, n *jnode) {
	c = d.root.member(m.container)
	if c == nil || c.kind != '{' {
		return c, nil
	}
	return c, c.member("mem")
}

func planMCP(pl *planner) error {
	for _, m := range pl.mcpFiles() {
		if !pl.has(m.agent) || m.agent == Claude && !pl.o.MCP {
			continue
		}
		if err := m.plan(pl); err != nil {
			return err
		}
	}
	if pl.has(Codex) {
		return planCodex(pl)
	}
	return nil
}

func (m mcpJSON) plan(pl *planner) error {
	src, exists, err := pl.read(m.path)
	if err != nil {
		return err
	}
	if !exists {
		src = []byte("{}\n")
	}
	d, err := parseObject(m.path, src)
	if err != nil {
		return err
	}
	c, n := m.memServer(d)
	switch {
	case c == nil:
		err = d.add(d.root, m.container, object{{"mem", m.entry}})
	case c.kind != '{':
		return fmt.Errorf("%s: %q is not an object", m.path, m.container)
	case n == nil:
		err = d.add(c, "mem", m.entry)
	case n.kind != '{' || !m.ours(d, n):
		return fmt.Errorf("%s: an MCP server named \"mem\" is already there and does not run mem; rename or remove it, then install again", m.path)
	default:
		// Set only the fields mem owns; any the user added (env, timeout) stay.
		for _, f := range m.entry {
			if err := edit(d, func() (bool, error) {
				_, n := m.memServer(d)
				return d.set(n, f.key, f.val)
			}); err != nil {
				return err
			}
		}
	}
	if err != nil {
		return err
	}
	return pl.write(m.path, d.src, 0o644, fmt.Sprintf("add mem's MCP server for %s", m.agent))
}

func unplanMCP(pl *planner) error {
	for _, m := range pl.mcpFiles() {
		if !pl.has(m.agent) {
			continue
		}
		if err := m.unplan(pl); err != nil {
			return err
		}
	}
	return unplanCodex(pl)
}

func (m mcpJSON) unplan(pl *planner) error {
	src, exists, err := pl.read(m.path)
	if err != nil || !exists {
		return err
	}
	d, err := parseObject(m.path, src)
	if err != nil {
		return err
	}
	c, n := m.memServer(d)
	if n == nil || n.kind != '{' || !m.ours(d, n) {
		return nil
	}
	if len(c.elems) > 1 {
		d.remove(c, c.find("mem"))
	} else {
		d.remove(d.root, d.root.find(m.container))
	}
	if len(d.root.elems) == 0 {
		return pl.del(m.path, "remove mem's MCP server; nothing else is left")
	}
	return pl.write(m.path, d.src, 0o644, "remove mem's MCP server")
}

// Codex keeps MCP servers in TOML; mem appends a marked block and leaves the
// rest of the file as it is. Codex reads a project's .codex/config.toml only
// once the person has trusted the project (measured with codex-cli 0.169.0:
// `codex mcp list` in an untrusted project says "No MCP servers configured
// yet"), and its users add servers with `codex mcp add`, which writes the
// user's $CODEX_HOME/config.toml (default ~/.codex). So mem writes both: the
// project's file, shared, for teammates who trust the project, and the
// user's, which Codex reads in every project (mem mcp finds the store from
// the directory Codex starts it in).

var codexMarkers = hashMarkers("MCP server for Codex")

func codexPath(o Options) string { return filepath.Join(o.Place.WorkTree, ".codex", "config.toml") }

// codexUserPath is the user's Codex config, "" when the home is unknown.
func codexUserPath(o Options) string {
	if dir := os.Getenv("CODEX_HOME"); dir != "" {
		return filepath.Join(dir, "config.toml")
	}
	if o.Home == "" {
		return ""
	}
	return filepath.Join(o.Home, ".codex", "config.toml")
}

// codexEnvVars are the variables of mem's a person may set for `mem mcp`.
// Codex starts an MCP server with a few variables of its own choosing, and
// forwards others only when the server's env_vars names them (measured with
// codex-cli 0.169.0: without it, MEM_BACKGROUND=off in Codex's environment
// did not reach mem mcp, whose store then started a detached enrichment).
var codexEnvVars = []string{"MEM_STORE", "MEM_MODEL_CMD", "MEM_MODEL_TIMEOUT", "MEM_BACKGROUND", "MEM_LOCK_TIMEOUT"}

// codexMemTable finds a [mcp_servers.mem] table header.
var codexMemTable = lazyregexp.New(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*("mem"|'mem'|mem)[ \t]*\]`)

func planCodex(pl *planner) error {
	if err := planCodexFile(pl, codexPath(pl.o), sharedMem, "add mem's MCP server for codex (read once the project is trusted)"); err != nil {
		return err
	}
	if user := codexUserPath(pl.o); user != "" {
		return planCodexFile(pl, user, pl.o.Mem, "add mem's MCP server to your Codex config (Codex reads it in every project)")
	}
	return nil
}

func planCodexFile(pl *planner, path, mem, why string) error {
	src, _, err := pl.read(path)
	if err != nil {
		return err
	}
	rest, err := codexMarkers.strip(src)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if codexMemTable.Match(rest) {
		return fmt.Errorf("%s: [mcp_servers.mem] is already there and mem did not write it; remove it, then install again", path)
	}
	vars := make([]string, len(codexEnvVars))
	for i, v := range codexEnvVars {
		vars[i] = tomlString(v)
	}
	body := "[mcp_servers.mem]\ncommand = " + tomlString(mem) + "\nargs = [\"mcp\"]\nenv_vars = [" + strings.Join(vars, ", ") + "]\n"
	out, err := codexMarkers.upsert(src, body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return pl.write(path, out, 0o644, why)
}

// unplanCodex takes the block out of the project's file, and out of the
// user's when codex is named (other projects may rely on it).
func unplanCodex(pl *planner) error {
	if err := unplanBlock(pl, codexPath(pl.o), codexMarkers, "remove mem's MCP server for codex"); err != nil {
		return err
	}
	if user := codexUserPath(pl.o); user != "" && slices.Contains(pl.o.Agents, Codex) {
		return unplanBlock(pl, user, codexMarkers, "remove mem's MCP server from your Codex config")
	}
	return nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
