package install

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/locate"
)

func TestJSONEditRoundTrip(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"empty", `{}`, "{\n  \"k\": [\n    1\n  ]\n}"},
		{"empty with newline", "{}\n", "{\n  \"k\": [\n    1\n  ]\n}\n"},
		{"flat", `{"a":1}`, `{"a":1,"k":[1]}`},
		{"flat spaced", `{"a": 1, "b": 2}`, `{"a": 1, "b": 2, "k":[1]}`},
		{"pretty", "{\n  \"a\": 1\n}", "{\n  \"a\": 1,\n  \"k\": [\n    1\n  ]\n}"},
		{"four spaces", "{\n    \"a\": {\n        \"b\": 2\n    }\n}\n", "{\n    \"a\": {\n        \"b\": 2\n    },\n    \"k\": [\n        1\n    ]\n}\n"},
		{"escapes kept", `{"a":"\u00e9\n<&>"}`, `{"a":"\u00e9\n<&>","k":[1]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseJSON([]byte(tt.src))
			must(t, err)
			must(t, d.add(d.root, "k", []int{1}))
			if string(d.src) != tt.want {
				t.Errorf("add:\n%s\nwant\n%s", d.src, tt.want)
			}
			d.remove(d.root, d.root.find("k"))
			if string(d.src) != tt.src {
				t.Errorf("remove gave %q, want %q", d.src, tt.src)
			}
		})
	}
}

func TestJSONEditRemoveMiddle(t *testing.T) {
	d, err := parseJSON([]byte("[\n  1,\n  2,\n  3\n]"))
	must(t, err)
	d.remove(d.root, 1)
	if got := string(d.src); got != "[\n  1,\n  3\n]" {
		t.Errorf("got %q", got)
	}
	d.remove(d.root, 0)
	d.remove(d.root, 0)
	if got := string(d.src); got != "[]" {
		t.Errorf("got %q", got)
	}
}

// FuzzJSONEdit checks, for any JSON object, that adding a member gives
// valid JSON holding it, and that removing it gives back the same bytes.
func FuzzJSONEdit(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, "{\n\t\"a\": [1, {\"b\": null}]\n}\n", foreignSettings, ` { "x" : "\"}" } `} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := parseJSON([]byte(src))
		if err != nil || d.root.kind != '{' || d.root.find("mem") >= 0 {
			return
		}
		want := src
		if len(d.root.elems) == 0 { // an emptied object is written "{}"
			want = src[:d.root.start] + "{}" + src[d.root.end:]
		}
		must(t, d.add(d.root, "mem", object{{"command", "/x y/mem"}, {"args", []string{"mcp"}}}))
		var v map[string]any
		if err := json.Unmarshal(d.src, &v); err != nil {
			t.Fatalf("add made invalid JSON: %v\n%s", err, d.src)
		}
		if _, ok := v["mem"]; !ok {
			t.Fatalf("member missing:\n%s", d.src)
		}
		d.remove(d.root, d.root.find("mem"))
		if string(d.src) != want {
			t.Fatalf("round trip:\n%q\n%q", want, d.src)
		}
	})
}

func TestMarkersRoundTrip(t *testing.T) {
	m := hashMarkers("test")
	for _, src := range []string{"", "a", "a\n", "a\n\n", "\n"} {
		out, err := m.upsert([]byte(src), "x = 1\n")
		must(t, err)
		again, err := m.upsert(out, "x = 1\n")
		must(t, err)
		if string(again) != string(out) {
			t.Errorf("%q: second upsert changed %q to %q", src, out, again)
		}
		back, err := m.remove(out)
		must(t, err)
		if string(back) != src {
			t.Errorf("%q: upsert then remove gave %q", src, back)
		}
	}
	if _, err := m.upsert([]byte(m.begin+"\nx\n"), "y\n"); err == nil {
		t.Error("a block without its end marker went unnoticed")
	}
}

func TestConfigSectionSurvivesGitEdits(t *testing.T) {
	src := "[core]\n\tbare = false\n"
	out, err := configMarkers.upsert([]byte(src), "[merge \"mem-memory-index\"]\n\tdriver = x\n")
	must(t, err)
	// git appends sections after ours, and may drop the section itself.
	appended := string(out) + "[remote \"origin\"]\n\turl = u\n"
	back, err := configMarkers.remove([]byte(appended))
	must(t, err)
	if string(back) != src+"[remote \"origin\"]\n\turl = u\n" {
		t.Errorf("got %q", back)
	}
	emptied := src + "\n" + configMarkers.begin + "\n[foo]\n\tbar = 1\n"
	back, err = configMarkers.remove([]byte(emptied))
	must(t, err)
	if string(back) != src+"[foo]\n\tbar = 1\n" {
		t.Errorf("got %q", back)
	}
}

func TestOurKind(t *testing.T) {
	tests := []struct{ cmd, kind string }{
		{"/usr/local/bin/mem-hook prompt", kindPrompt},
		{"'/a b/mem-hook' gate", kindGate},
		{`"/a b/mem" hook post-tool`, kindPostTool},
		{`"$CLAUDE_PROJECT_DIR"/bin/mem hook session-start`, kindSessionStart},
		{"mem gate", kindGate},
		{`C:\tools\mem.exe hook prompt`, ""}, // a backslash is an escape to sh
		{"/x/mem capture --detach", kindCapture},
		{"/x/mem-hook prompt --verbose", ""},
		{"/x/memo hook prompt", ""},
		{"/x/mem search prompt", ""},
		{"echo mem-hook prompt", ""},
		{"", ""},
	}
	for _, tt := range tests {
		kind, ok := ourKind(tt.cmd)
		if kind != tt.kind || ok != (tt.kind != "") {
			t.Errorf("ourKind(%q) = %q, %v; want %q", tt.cmd, kind, ok, tt.kind)
		}
	}
}

func FuzzShellQuote(f *testing.F) {
	for _, s := range []string{"/usr/bin/mem", "/a b/mem", "it's", `"$x"`, "a\\b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		if w := shellFields(shellQuote(s) + " prompt"); len(w) != 2 || w[0] != s || w[1] != "prompt" {
			t.Fatalf("shellFields(shellQuote(%q)) = %q", s, w)
		}
	})
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		c    Change
		want string
	}{
		{"new", Change{Path: "/f", After: []byte("a\n"), Mode: 0o644, Why: "w"},
			"# w\n--- /dev/null\n+++ /f (new, mode 0644)\n@@ -0,0 +1,1 @@\n+a\n"},
		{"removed", Change{Path: "/f", Before: []byte("a\nb"), Mode: 0o644, Why: "w"},
			"# w\n--- /f\n+++ /dev/null (removed)\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n"},
		{"mode", Change{Path: "/f", Before: []byte("a"), After: []byte("a"), Mode: 0o755, Why: "w"}, "# w\nchmod 0755 /f\n"},
		{"dir", Change{Path: "/d", Mode: fs.ModeDir | 0o755, Why: "w"}, "# w\nrmdir /d\n"},
		{"hunks", Change{Path: "/f", Before: []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"), After: []byte("1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n"), Why: "w"},
			"# w\n--- /f\n+++ /f\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
	}
	for _, tt := range tests {
		if got := Diff(tt.c); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestMergeDriverRuns merges two branches that both changed MEMORY.md and
// checks git called mem's driver through the config install wrote.
func TestMergeDriverRuns(t *testing.T) {
	e := newEnv(t)
	e.apply(t, Plan, e.o)
	index := filepath.Join(e.o.Place.Store, "MEMORY.md")
	writeFile(t, index, "- a\n", 0o644)
	run(t, e.work, "git", "add", "-A")
	run(t, e.work, "git", "commit", "-qm", "base")
	run(t, e.work, "git", "checkout", "-qb", "other")
	writeFile(t, index, "- a\n- other\n", 0o644)
	run(t, e.work, "git", "commit", "-qam", "other")
	run(t, e.work, "git", "checkout", "-q", "main")
	writeFile(t, index, "- a\n- main\n", 0o644)
	run(t, e.work, "git", "commit", "-qam", "main")
	writeFile(t, e.log, "", 0o644)
	run(t, e.work, "git", "merge", "-q", "--no-edit", "other")
	log := readFile(t, e.log)
	if !strings.Contains(log, "mem budget --fix --merge ") || !strings.HasSuffix(strings.TrimSpace(log), " .claude/agent-memory/MEMORY.md") {
		t.Errorf("driver calls: %q", log)
	}
}

// TestLinkedWorktree installs from a linked worktree: hooks and config go
// to the common git dir, which every worktree uses.
func TestLinkedWorktree(t *testing.T) {
	e := newEnv(t)
	run(t, e.work, "git", "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(e.root, "wt")
	run(t, e.work, "git", "worktree", "add", "-q", wt)
	o := e.o
	p, err := locate.Find(wt, "")
	must(t, err)
	o.Place = p
	must(t, os.MkdirAll(p.Store, 0o755))
	e.apply(t, Plan, o)
	if !isOurPreCommit([]byte(readFile(t, filepath.Join(e.work, ".git", "hooks", "pre-commit")))) {
		t.Error("pre-commit not in the common hooks directory")
	}
	if ps := Doctor(o); len(ps) != 0 {
		t.Errorf("Doctor: %+v", ps)
	}
}
