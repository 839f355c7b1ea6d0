package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestIgnored(t *testing.T) {
	global := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "git", "ignore")
	tests := []struct {
		name, file, rules, want string
		asks                    bool // whether git is asked (mayBeIgnored)
		excludes                bool // file is core.excludesFile in the repository's config
	}{
		{"no rules", ".gitignore", "", "", false, false},
		{"the parent directory", ".gitignore", "build/\n.claude/\n", ".gitignore:2: .claude/", true, false},
		{"its files", ".gitignore", "*.md\n", ".gitignore:1: *.md", true, false},
		{"re-included", ".gitignore", ".claude/*\n!.claude/agent-memory/\n", "", true, false},
		{"another directory", ".gitignore", ".claude/settings.local.json\n", "", false, false},
		{"info/exclude", ".git/info/exclude", ".claude\n", ".git/info/exclude:1: .claude", true, false},
		{"a project's rules", ".gitignore", "node_modules/\n*.log\n/build\ndist/*.js\n.env\n# .claude\n!keep.md\n", "", false, false},
		{"everything", ".gitignore", "*\n", ".gitignore:1: *", true, false},
		{"any depth", ".gitignore", "**/agent-memory\n", ".gitignore:1: **/agent-memory", true, false},
		{"below it", ".gitignore", ".claude/**\n", ".gitignore:1: .claude/**", true, false},
		{"anchored", ".gitignore", "/.claude\n", ".gitignore:1: /.claude", true, false},
		{"a glob", ".gitignore", "agent-*\n", ".gitignore:1: agent-*", true, false},
		{"a bracket", ".gitignore", "[.]claude\n", ".gitignore:1: [.]claude", true, false},
		{"an escape", ".gitignore", "\\.claude\n", ".gitignore:1: \\.claude", true, false},
		{"in the directory above", ".claude/.gitignore", "agent-memory/\n", ".claude/.gitignore:1: agent-memory/", true, false},
		{"in the store", ".claude/agent-memory/.gitignore", "*.md\n", ".claude/agent-memory/.gitignore:1: *.md", true, false},
		{"the global file", global, ".claude/\n", global + ":1: .claude/", true, false},
		{"the global file, other rules", global, "*.swp\n.DS_Store\n", "", false, false},
		{"core.excludesFile", filepath.Join(os.Getenv("HOME"), "excludes"), ".claude\n", filepath.Join(os.Getenv("HOME"), "excludes") + ":1: .claude", true, true},
		{"core.excludesFile, other rules", filepath.Join(os.Getenv("HOME"), "excludes"), "*.o\n", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, s := newRepo(t)
			file := tt.file
			if !filepath.IsAbs(file) {
				file = filepath.Join(repo, file)
			}
			write(t, file, tt.rules)
			t.Cleanup(func() { os.Remove(file) })
			if tt.excludes {
				run(t, repo, "config", "core.excludesFile", file)
			}
			dir := s.GitPath("")
			if _, err := runGitErr(repo, "check-ignore", "--no-index", "--", dir+"/", dir+"/memory.md"); (err == nil) != (tt.want != "") {
				t.Errorf("git check-ignore says ignored %v, the case %q", err == nil, tt.want)
			}
			// The answer is git's, and git is asked whenever it may cover the store.
			if asks := s.mayBeIgnored(dir); asks != tt.asks {
				t.Errorf("mayBeIgnored = %v, want %v", asks, tt.asks)
			}
			got, err := s.Ignored(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Ignored() = %q, want %q", got, tt.want)
			}
			// Ignored or not, a write is committed.
			if res := apply(t, s, CommitInfo{Action: "store", Slug: "a"}, Change{Path: "a.md", Data: []byte("a\n")}); !res.Committed {
				t.Errorf("not committed: %+v", res)
			}
			if out := run(t, repo, "ls-files", "--", ".claude/agent-memory/a.md"); out != ".claude/agent-memory/a.md" {
				t.Errorf("git ls-files = %q: the memory is not tracked", out)
			}
		})
	}
}
