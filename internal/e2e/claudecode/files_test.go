package claudecode

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An Edit of a memory file (Read first, as Claude Code requires) is
// committed at the Stop as mem: edit SLUG, and is what the next prompt's
// injection shows.
func TestEditMemory(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.mem("install")
	file := filepath.Join(w.repo, ".claude/agent-memory/spanish-vat-rounds-per-line.md")

	w.claude(".", "note that gift cards are exempt from the spanish VAT rounding", steps(
		call("Read", map[string]any{"file_path": file}),
		call("Edit", map[string]any{"file_path": file, "old_string": "See shop/checkout/tax.py.",
			"new_string": "See shop/checkout/tax.py. Gift cards carry no VAT and are left out of the rounding."}),
		bash("true"),
		say("Noted in the memory."),
	))
	if !strings.Contains(w.read(".claude/agent-memory/spanish-vat-rounds-per-line.md"), "Gift cards carry no VAT") {
		t.Fatal("the Edit did not reach the memory file")
	}
	// The Stop hook committed the edit, as mem commits its own writes.
	if got := strings.TrimSpace(w.git("log", "-1", "--format=%s")); got != "mem: edit spanish-vat-rounds-per-line" {
		t.Fatalf("last commit %q, want the edit's (%s)", got, w.hookLog())
	}
	if st := strings.TrimSpace(w.git("status", "--porcelain", "--", ".claude/agent-memory")); st != "" {
		t.Fatalf("the store after the session: %q, want it committed", st)
	}

	s := w.claude(".", "do gift cards change the spanish VAT rounding at checkout?", steps(say("No.")))
	got := s.contexts(t, "UserPromptSubmit")
	if len(got) != 1 || !strings.Contains(got[0], "Gift cards carry no VAT and are left out of the rounding.") {
		t.Fatalf("the next prompt was sent %q, want the edited memory", got)
	}
	t.Logf("the next prompt's context:\n%s", got[0])
	if out := w.mem("doctor"); !strings.Contains(out, "mem doctor: all good") {
		t.Fatalf("mem doctor after the sessions:\n%s", out)
	}
}

// snapshot reads the files install may touch, with their modes: every
// file and directory under the work tree but .git, and git's config,
// info/exclude and hooks (the cache, .git/mem, is not install's); and the named files of the
// home directory, which Claude Code itself also writes to.
func (w *world) snapshot(t *testing.T, homeFiles ...string) map[string]string {
	t.Helper()
	files := map[string]string{}
	add := func(key, p string, d fs.DirEntry) {
		if d.IsDir() {
			files[key+"/"] = ""
			return
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		files[key] = fi.Mode().String() + "\n" + string(b)
	}
	err := filepath.WalkDir(w.repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(w.repo, p)
		switch {
		case rel == ".git/mem" || rel == ".git/objects" || rel == ".git/logs" || rel == ".git/refs":
			return fs.SkipDir
		case rel == ".git" || strings.HasPrefix(rel, ".git/") && d.IsDir() && rel != ".git/hooks":
			if !strings.HasPrefix(rel, ".git/hooks") {
				return nil
			}
		case strings.HasPrefix(rel, ".git/") && !strings.HasPrefix(rel, ".git/hooks/") && rel != ".git/config" && rel != ".git/info/exclude":
			return nil
		}
		add(rel, p, d)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range homeFiles {
		p := filepath.Join(w.home, rel)
		if fi, err := os.Stat(p); err == nil {
			add("~/"+rel, p, fs.FileInfoToDirEntry(fi))
		}
	}
	return files
}

// diffSnapshots names the paths whose content or mode differ.
func diffSnapshots(a, b map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if bv, ok := b[k]; !ok {
			out = append(out, "gone: "+k)
		} else if bv != a[k] {
			out = append(out, "changed: "+k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			out = append(out, "new: "+k)
		}
	}
	return out
}

// mem uninstall gives back every file install changed, byte for byte (and
// mode for mode), after a session in which the hooks ran; files install
// created are gone, and so are the directories it made for them.
func TestUninstallRestores(t *testing.T) {
	w := newWorld(t)
	w.storeVAT()
	w.write(".claude/settings.json", "{\n  \"permissions\": {\"allow\": [\"Bash(go test:*)\"]},\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n")
	w.write("CLAUDE.md", "# Rules\n\n- Run go test before you commit.\n")
	w.write(".mcp.json", "{\"mcpServers\": {\"other\": {\"command\": \"other-server\"}}}\n")
	w.write(".gitattributes", "*.png binary\n")
	w.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n")
	os.Chmod(filepath.Join(w.repo, ".git/hooks/pre-commit"), 0o755)
	w.git("add", ".")
	w.git("commit", "-q", "-m", "the team's files")
	homeFiles := []string{".claude/settings.json", ".codex/config.toml", ".kimi/mcp.json", ".config/opencode/opencode.json"}
	before := w.snapshot(t, homeFiles...)

	w.mem("install", "--agents", "claude,opencode,codex", "--mcp")
	if d := diffSnapshots(before, w.snapshot(t, homeFiles...)); len(d) == 0 {
		t.Fatal("install changed nothing")
	}
	s := w.claude(".", "why are spanish orders one cent off after the VAT rounding?", steps(say("Per-line rounding.")))
	if len(s.contexts(t, "UserPromptSubmit")) != 1 {
		t.Fatal("the installed hooks did not inject the memory")
	}
	w.mem("uninstall", "--agents", "claude,opencode,codex")
	if d := diffSnapshots(before, w.snapshot(t, homeFiles...)); len(d) > 0 {
		t.Fatalf("after uninstall:\n%s", strings.Join(d, "\n"))
	}
}
