// Package agents reads Claude Code's subagent definitions: markdown files
// with YAML frontmatter in a project's .claude/agents/ and in the user's
// <ClaudeDir>/agents/. Their memory field says which scope a subagent keeps
// its memory in (project: .claude/agent-memory/<agent>, local:
// .claude/agent-memory-local/<agent>, user: <ClaudeDir>/agent-memory/<agent>),
// and Claude Code loads the first 200 lines or 25,000 bytes of that
// directory's MEMORY.md into the subagent's prompt.
//
// Definitions are read-only and structured, so they are read with
// adrg/frontmatter; mdparse's own splitter is for the memories mem rewrites
// byte for byte. A project's definition wins over a user's of the same
// name, as in Claude Code.
package agents

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	fmparse "github.com/adrg/frontmatter"
	"gopkg.in/yaml.v3"

	"github.com/mem-dev/mem/internal/locate"
)

// The memory scopes a definition may name.
const (
	ScopeProject = "project"
	ScopeLocal   = "local"
	ScopeUser    = "user"
)

// Agent is one subagent definition.
type Agent struct {
	Name   string // the frontmatter's name, or the file's base name
	Memory string // its memory scope, "" when memory is off
	Path   string // the definition file
}

var yamlFrontmatter = fmparse.NewFormat("---", "---", yaml.Unmarshal)

// Read reads the definitions (*.md) in dir; a missing dir has none. A file
// that does not parse is reported in bad and left out.
func Read(dir string) (agents []Agent, bad []error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		var fm struct {
			Name   string `yaml:"name"`
			Memory string `yaml:"memory"`
		}
		if _, err := fmparse.MustParse(bytes.NewReader(data), &fm, yamlFrontmatter); err != nil {
			bad = append(bad, fmt.Errorf("%s: %w", p, err))
			continue
		}
		a := Agent{Name: strings.TrimSpace(fm.Name), Memory: strings.ToLower(strings.TrimSpace(fm.Memory)), Path: p}
		if a.Name == "" {
			a.Name = strings.TrimSuffix(e.Name(), ".md")
		}
		switch a.Memory {
		case ScopeProject, ScopeLocal, ScopeUser, "":
		default:
			bad = append(bad, fmt.Errorf("%s: memory scope %q is none of project, local, user", p, fm.Memory))
			a.Memory = ""
		}
		agents = append(agents, a)
	}
	return agents, bad
}

// Of returns the subagents a session in the place's work tree sees: the
// project's definitions and the user's, a project's winning a name they
// share, by name.
func Of(p locate.Place) (agents []Agent, bad []error) {
	byName := map[string]Agent{}
	if dir, err := locate.ClaudeDir(); err == nil {
		user, b := Read(filepath.Join(dir, "agents"))
		bad = append(bad, b...)
		for _, a := range user {
			byName[a.Name] = a
		}
	}
	if p.WorkTree != "" {
		project, b := Read(filepath.Join(p.WorkTree, ".claude", "agents"))
		bad = append(bad, b...)
		for _, a := range project {
			byName[a.Name] = a
		}
	}
	for _, a := range byName {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].Name < agents[j].Name })
	return agents, bad
}

// MemoryDir is where Claude Code keeps the subagent's memory for the
// place's work tree, "" when its memory is off or the directory cannot be
// named (no work tree for a project or local scope, no Claude directory for
// a user one).
func (a Agent) MemoryDir(p locate.Place) string {
	var root string
	project := ""
	if p.WorkTree != "" {
		project = filepath.Join(p.WorkTree, filepath.FromSlash(locate.DefaultStore))
	}
	switch a.Memory {
	case ScopeProject:
		root = project
	case ScopeLocal:
		if project != "" {
			root = project + "-local"
		}
	case ScopeUser:
		root = locate.UserAgents()
	}
	if root == "" {
		return ""
	}
	return filepath.Join(root, a.Name)
}
