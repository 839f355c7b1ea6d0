package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/locate"
)

func write(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "reviewer.md", "---\nname: reviewer\ndescription: Reviews code\nmemory: user\n---\nYou review.\n")
	write(t, dir, "tester.md", "---\ndescription: Writes tests\nmemory: Local\n---\n")
	write(t, dir, "plain.md", "---\nname: plain\n---\nNo memory.\n")
	write(t, dir, "odd.md", "---\nname: odd\nmemory: everywhere\n---\n")
	write(t, dir, "broken.md", "---\nname: [broken\n---\n")
	write(t, dir, "notes.txt", "not a definition")
	got, bad := Read(dir)
	want := map[string]string{"reviewer": ScopeUser, "tester": ScopeLocal, "plain": "", "odd": ""}
	if len(got) != len(want) {
		t.Fatalf("read %+v, want %d agents", got, len(want))
	}
	for _, a := range got {
		if scope, ok := want[a.Name]; !ok || a.Memory != scope {
			t.Errorf("%s: memory %q, want %q", a.Name, a.Memory, scope)
		}
	}
	if len(bad) != 2 || !strings.Contains(bad[0].Error()+bad[1].Error(), "broken.md") || !strings.Contains(bad[0].Error()+bad[1].Error(), `"everywhere"`) {
		t.Errorf("bad = %v, want the broken file and the unknown scope", bad)
	}
	if got, bad := Read(filepath.Join(dir, "missing")); got != nil || bad != nil {
		t.Errorf("a missing directory: %v, %v", got, bad)
	}
}

func TestOfAndMemoryDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", home)
	tree := t.TempDir()
	write(t, filepath.Join(home, "agents"), "reviewer.md", "---\nname: reviewer\nmemory: user\n---\n")
	write(t, filepath.Join(home, "agents"), "shared.md", "---\nname: shared\nmemory: user\n---\n")
	// The project's definition of shared wins over the user's.
	write(t, filepath.Join(tree, ".claude", "agents"), "shared.md", "---\nname: shared\nmemory: project\n---\n")
	write(t, filepath.Join(tree, ".claude", "agents"), "tester.md", "---\nname: tester\nmemory: local\n---\n")
	p := locate.Place{WorkTree: tree, Store: filepath.Join(tree, ".claude", "agent-memory")}
	got, bad := Of(p)
	if len(bad) != 0 || len(got) != 3 {
		t.Fatalf("Of = %+v, %v", got, bad)
	}
	want := map[string]string{
		"reviewer": filepath.Join(home, "agent-memory", "reviewer"),
		"shared":   filepath.Join(tree, ".claude", "agent-memory", "shared"),
		"tester":   filepath.Join(tree, ".claude", "agent-memory-local", "tester"),
	}
	for _, a := range got {
		if d := a.MemoryDir(p); d != want[a.Name] {
			t.Errorf("%s (%s): memory in %q, want %q", a.Name, a.Memory, d, want[a.Name])
		}
	}
	if d := (Agent{Name: "x"}).MemoryDir(p); d != "" {
		t.Errorf("memory off: %q", d)
	}
}

// FuzzRead: a definition of any content is read or reported, never a panic.
func FuzzRead(f *testing.F) {
	f.Add("---\nname: reviewer\nmemory: user\n---\nbody\n")
	f.Add("---\n---\n")
	f.Add("no frontmatter")
	f.Add("---\nmemory: [1, 2]\n---\n")
	f.Fuzz(func(t *testing.T, data string) {
		dir := t.TempDir()
		write(t, dir, "a.md", data)
		got, bad := Read(dir)
		// One file: an agent, an error, or both (a scope it does not know).
		if len(got) > 1 || len(bad) > 1 || len(got)+len(bad) == 0 {
			t.Fatalf("%d agents and %d errors for one file", len(got), len(bad))
		}
		for _, a := range got {
			switch a.Memory {
			case "", ScopeProject, ScopeLocal, ScopeUser:
			default:
				t.Fatalf("scope %q", a.Memory)
			}
		}
	})
}
