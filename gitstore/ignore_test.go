package gitstore

import (
	"context"
	"path/filepath"
	"testing"
)

func TestIgnored(t *testing.T) {
	tests := []struct {
		name, file, rules, want string
	}{
		{"no rules", ".gitignore", "", ""},
		{"the parent directory", ".gitignore", "build/\n.claude/\n", ".gitignore:2: .claude/"},
		{"its files", ".gitignore", "*.md\n", ".gitignore:1: *.md"},
		{"re-included", ".gitignore", ".claude/*\n!.claude/agent-memory/\n", ""},
		{"another directory", ".gitignore", ".claude/settings.local.json\n", ""},
		{"info/exclude", ".git/info/exclude", ".claude\n", ".git/info/exclude:1: .claude"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, s := newRepo(t)
			write(t, filepath.Join(repo, tt.file), tt.rules)
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
