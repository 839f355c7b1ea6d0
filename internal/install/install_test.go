package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/locate"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// env is a git repository in a temporary directory, isolated from the
// machine's git configuration, with fake mem and mem-hook binaries that
// log their arguments.
type env struct {
	root, work, home, bin, log string
	o                          Options
}

// newEnv makes one. Its paths contain spaces, so quoting is always tested.
func newEnv(t *testing.T) *env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	e := &env{
		root: root,
		work: filepath.Join(root, "my repo"),
		home: filepath.Join(root, "home"),
		bin:  filepath.Join(root, "mem bin"),
		log:  filepath.Join(root, "calls.log"),
	}
	must(t, os.MkdirAll(e.home, 0o755))
	must(t, os.MkdirAll(e.work, 0o755))
	gitconfig := filepath.Join(root, "gitconfig")
	writeFile(t, gitconfig, "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n", 0o644)
	t.Setenv("HOME", e.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(e.home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", gitconfig)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("MEM_STORE", "")
	t.Setenv("MEM_TEST_LOG", e.log)
	run(t, e.work, "git", "init", "-q")
	for _, name := range []string{"mem", "mem-hook"} {
		writeFile(t, filepath.Join(e.bin, name), "#!/bin/sh\necho \""+name+" $*\" >> \"$MEM_TEST_LOG\"\n", 0o755)
	}
	place, err := locate.Find(e.work, "")
	must(t, err)
	must(t, os.MkdirAll(place.Store, 0o755)) // as mem init leaves it
	e.o = Options{Place: place, Mem: filepath.Join(e.bin, "mem"), Home: e.home}
	// The hooks find mem-hook and mem on PATH, as a teammate's would; a mem
	// installed on this machine (the README's first command puts one on
	// PATH) would stand in for the one a test removes.
	t.Setenv("PATH", e.bin+string(os.PathListSeparator)+pathWithoutMem())
	return e
}

// pathWithoutMem is $PATH without the directories that hold mem or mem-hook.
func pathWithoutMem() string {
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if !isFile(filepath.Join(dir, "mem")) && !isFile(filepath.Join(dir, "mem-hook")) {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func (e *env) path(rel string) string { return filepath.Join(e.work, filepath.FromSlash(rel)) }

func (e *env) apply(t *testing.T, plan func(Options) ([]Change, error), o Options) []Change {
	t.Helper()
	changes, err := plan(o)
	must(t, err)
	must(t, Apply(changes))
	return changes
}

// snapshot records every file and directory install may touch: the work
// tree, the git config and hooks, and the home directory.
func (e *env) snapshot(t *testing.T) map[string]string {
	t.Helper()
	snap := map[string]string{}
	for _, top := range []string{e.work, e.home} {
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(e.root, path)
			if d.IsDir() {
				if gitInternal := filepath.Join(e.work, ".git"); strings.HasPrefix(path, gitInternal+"/") && !strings.HasPrefix(path, gitInternal+"/hooks") {
					return filepath.SkipDir
				}
				snap[rel+"/"] = "dir"
				return nil
			}
			if strings.HasPrefix(path, filepath.Join(e.work, ".git")+"/") && filepath.Base(path) != "config" && !strings.Contains(path, "/hooks/") {
				return nil
			}
			info, _ := d.Info()
			data, err := os.ReadFile(path)
			snap[rel] = fmt.Sprintf("%v\n%s", info.Mode(), data)
			return err
		})
		must(t, err)
	}
	return snap
}

func diffSnapshots(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if w, ok := after[k]; !ok {
			t.Errorf("%s: gone", k)
		} else if v != w {
			t.Errorf("%s: changed\n--- before\n%s\n--- after\n%s", k, v, w)
		}
	}
	for k, v := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s: left behind:\n%s", k, v)
		}
	}
}

const foreignSettings = `{
  "permissions": {
    "allow": ["Bash(go test:*)", "Read"],
    "deny": []
  },
  "hooks": {
    "UserPromptSubmit": [
      {
        "hooks": [
          { "type": "command", "command": "echo first", "timeout": 5 }
        ]
      }
    ],
    "PostToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./lint.sh" } ] }
    ]
  },
  "model": "opus",
  "env": { "A": "<&>" }
}
`

const foreignPreCommit = "#!/bin/sh\necho \"foreign pre-commit\" >> \"$MEM_TEST_LOG\"\nexit ${FOREIGN_EXIT:-0}\n"

// TestInstallUninstall installs into repositories in various states, then
// checks that what was there survives, that a second install changes
// nothing, and that uninstall gives back the exact bytes.
func TestInstallUninstall(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string // relative to the work tree; "~/" for home
		agents  []string
		capture bool
		check   func(t *testing.T, e *env)
	}{
		{name: "fresh repository"},
		{
			name: "existing settings, hooks, rules and attributes",
			files: map[string]string{
				".claude/settings.json": foreignSettings,
				".git/hooks/pre-commit": foreignPreCommit,
				"CLAUDE.md":             "# Project\n\nUse tabs.\n",
				".gitattributes":        "*.png binary\n",
				".mcp.json":             `{"mcpServers": {"github": {"type": "http", "url": "https://api.example.com/mcp"}}}`,
			},
			check: func(t *testing.T, e *env) {
				got := readFile(t, e.path(".claude/settings.json"))
				// Every byte of the original survives, in order, with ours added.
				for _, s := range []string{"\"permissions\": {\n    \"allow\": [\"Bash(go test:*)\", \"Read\"],\n    \"deny\": []\n  },",
					`{ "type": "command", "command": "echo first", "timeout": 5 }`,
					`{ "matcher": "Bash", "hooks": [ { "type": "command", "command": "./lint.sh" } ] }`,
					`"model": "opus",`, `"env": { "A": "<&>" }`} {
					if !strings.Contains(got, s) {
						t.Errorf("settings.json lost %q:\n%s", s, got)
					}
				}
				if strings.Index(got, "echo first") > strings.Index(got, "mem-hook prompt") {
					t.Errorf("mem's prompt hook comes before the foreign one:\n%s", got)
				}
				if got := readFile(t, e.path(".git/hooks/pre-commit.mem-chained")); got != foreignPreCommit {
					t.Errorf("chained hook = %q", got)
				}
				if got := readFile(t, e.path("CLAUDE.md")); !strings.HasPrefix(got, "# Project\n\nUse tabs.\n\n<!-- >>> mem") {
					t.Errorf("CLAUDE.md = %q", got)
				}
				// Claude Code's MCP servers are left as they were: mem's
				// is added only when asked (TestClaudeMCPWhenAsked).
				var mcp struct{ McpServers map[string]json.RawMessage }
				must(t, json.Unmarshal([]byte(readFile(t, e.path(".mcp.json"))), &mcp))
				if len(mcp.McpServers) != 1 {
					t.Errorf(".mcp.json servers = %v", mcp.McpServers)
				}
			},
		},
		{
			name: "settings on one line without final newline",
			files: map[string]string{
				".claude/settings.json": `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`,
			},
			check: func(t *testing.T, e *env) {
				got := readFile(t, e.path(".claude/settings.json"))
				if strings.Contains(got, "\n") || !strings.HasPrefix(got, `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]},{"hooks":`) {
					t.Errorf("settings.json = %s", got)
				}
			},
		},
		{
			name: "settings indented with tabs",
			files: map[string]string{
				".claude/settings.json": "{\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}\n\t\t]\n\t}\n}",
			},
			check: func(t *testing.T, e *env) {
				got := readFile(t, e.path(".claude/settings.json"))
				if !strings.Contains(got, "\n\t\t\"UserPromptSubmit\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [") {
					t.Errorf("settings.json does not follow the file's tabs:\n%s", got)
				}
			},
		},
		{
			name:    "every agent, with capture",
			agents:  []string{Claude, OpenCode, Kimi, Codex},
			capture: true,
			files: map[string]string{
				"AGENTS.md":           "# Agents\nno final newline",
				"opencode.json":       "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"other\": { \"type\": \"remote\", \"url\": \"https://x\", \"enabled\": true }\n  }\n}\n",
				"~/.kimi/mcp.json":    "{\n    \"mcpServers\": {\n        \"context7\": { \"url\": \"https://mcp.context7.com/mcp\" }\n    }\n}\n",
				".codex/config.toml":  "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n",
				".git/hooks/pre-push": "#!/bin/sh\nexit 0\n",
			},
			check: func(t *testing.T, e *env) {
				s := readFile(t, e.path(".claude/settings.json"))
				for _, ev := range []string{"SessionEnd", "PreCompact"} {
					if !strings.Contains(s, `"`+ev+`"`) {
						t.Errorf("no %s hook:\n%s", ev, s)
					}
				}
				if a := readFile(t, e.path("AGENTS.md")); strings.Count(a, "mem search") != 1 {
					t.Errorf("AGENTS.md = %q", a)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			for rel, content := range tt.files {
				path := e.path(rel)
				if after, ok := strings.CutPrefix(rel, "~/"); ok {
					path = filepath.Join(e.home, after)
				}
				mode := fs.FileMode(0o644)
				if strings.Contains(rel, "/hooks/") {
					mode = 0o755
				}
				writeFile(t, path, content, mode)
			}
			o := e.o
			o.Agents, o.Capture = tt.agents, tt.capture
			before := e.snapshot(t)

			changes := e.apply(t, Plan, o)
			if len(changes) == 0 {
				t.Fatal("install planned nothing")
			}
			checkInstalled(t, e, o)
			if tt.check != nil {
				tt.check(t, e)
			}
			if again, err := Plan(o); err != nil || len(again) != 0 {
				t.Fatalf("second install: %v, %d changes:\n%s", err, len(again), diffs(again))
			}
			if ps := Doctor(o); len(ps) != 0 {
				t.Errorf("Doctor after install: %+v", ps)
			}

			e.apply(t, PlanUninstall, o)
			diffSnapshots(t, before, e.snapshot(t))
			if again, err := PlanUninstall(o); err != nil || len(again) != 0 {
				t.Fatalf("second uninstall: %v, %d changes:\n%s", err, len(again), diffs(again))
			}
		})
	}
}

// checkInstalled checks what every install must leave, by reading the files
// as their consumers do.
func checkInstalled(t *testing.T, e *env, o Options) {
	t.Helper()
	var settings struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	must(t, json.Unmarshal([]byte(readFile(t, e.path(".claude/settings.json"))), &settings))
	for _, s := range o.hookSpecs() {
		n := 0
		for _, g := range settings.Hooks[s.event] {
			for _, h := range g.Hooks {
				if h.Command == s.command {
					n++
					if g.Matcher != s.matcher {
						t.Errorf("%s: matcher %q, want %q", s.event, g.Matcher, s.matcher)
					}
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d hooks run %q, want 1", s.event, n, s.command)
		}
	}
	hook := e.path(".git/hooks/pre-commit")
	if !isOurPreCommit([]byte(readFile(t, hook))) || !executable(hook) {
		t.Errorf("pre-commit is not mem's executable hook")
	}
	if got := run(t, e.work, "git", "config", "--get", "merge.mem-memory-index.driver"); got != shellQuote(o.Mem)+" budget --fix --merge %O %A %B %P" {
		t.Errorf("merge driver = %q", got)
	}
	if got := run(t, e.work, "git", "config", "--get", "merge.mem-memory-index.name"); got != "mem MEMORY.md regenerator" {
		t.Errorf("merge driver name = %q", got)
	}
	for _, f := range []string{".claude/agent-memory/MEMORY.md", ".claude/agent-memory/reviewer/MEMORY.md"} {
		if got := run(t, e.work, "git", "check-attr", "merge", "--", f); got != f+": merge: mem-memory-index" {
			t.Errorf("check-attr: %q", got)
		}
	}
	if got := run(t, e.work, "git", "check-attr", "merge", "--", "docs/MEMORY.md"); !strings.HasSuffix(got, "unspecified") {
		t.Errorf("merge driver reaches outside the store: %q", got)
	}
	if got := readFile(t, e.path("CLAUDE.md")); strings.Count(got, "mem store --name") != 1 {
		t.Errorf("CLAUDE.md rules: %q", got)
	}
}

func TestInstallMovedBinaryReplaces(t *testing.T) {
	e := newEnv(t)
	o := e.o
	o.Agents = []string{Claude, OpenCode, Kimi, Codex}
	e.apply(t, Plan, o)

	moved := filepath.Join(e.root, "new place")
	for _, name := range []string{"mem", "mem-hook"} {
		writeFile(t, filepath.Join(moved, name), "#!/bin/sh\n", 0o755)
	}
	o.Mem = filepath.Join(moved, "mem")
	changes := e.apply(t, Plan, o)
	if len(changes) == 0 {
		t.Fatal("nothing changed after the binary moved")
	}
	checkInstalled(t, e, o)
	for _, c := range changes {
		if bytes.Contains(c.After, []byte("mem bin")) {
			t.Errorf("%s still names the old binary:\n%s", c.Path, c.After)
		}
	}
	if again, _ := Plan(o); len(again) != 0 {
		t.Errorf("second install after the move: %s", diffs(again))
	}
	if ps := Doctor(o); len(ps) != 0 {
		t.Errorf("Doctor: %+v", ps)
	}
}

// TestHookCommandsRun runs the installed commands the way Claude Code does:
// mem-hook when it is on PATH, else mem, else nothing, with exit 0; the
// gate's exit 2 comes through.
func TestHookCommandsRun(t *testing.T) {
	e := newEnv(t)
	onlyMem := filepath.Join(e.root, "only mem")
	writeFile(t, filepath.Join(onlyMem, "mem"), "#!/bin/sh\necho \"mem $*\" >> \"$MEM_TEST_LOG\"\n", 0o755)
	gate2 := filepath.Join(e.root, "blocking gate")
	writeFile(t, filepath.Join(gate2, "mem-hook"), "#!/bin/sh\necho blocked >&2\nexit 2\n", 0o755)
	tests := []struct {
		name, path string
		want       func(kind string) string // the log line; "" for none
		exit       int
	}{
		{"mem-hook and mem", e.bin, func(k string) string {
			if k == kindSessionStart {
				return "mem hook " + k + "\n"
			}
			return "mem-hook " + k + "\n"
		}, 0},
		{"mem only", onlyMem, func(k string) string { return "mem hook " + k + "\n" }, 0},
		{"neither (a teammate without mem)", "/usr/bin:/bin", func(string) string { return "" }, 0},
	}
	for _, tt := range tests {
		for _, s := range e.o.hookSpecs() {
			writeFile(t, e.log, "", 0o644)
			cmd := exec.Command("/bin/sh", "-c", s.command)
			cmd.Env = append(os.Environ(), "PATH="+tt.path)
			out, err := cmd.CombinedOutput()
			if err != nil || len(out) > 0 {
				t.Errorf("%s: %s: %v, output %q; want exit 0 and no output", tt.name, s.command, err, out)
			}
			if got := readFile(t, e.log); got != tt.want(s.kind) {
				t.Errorf("%s: %s ran %q, want %q", tt.name, s.command, got, tt.want(s.kind))
			}
		}
	}
	cmd := exec.Command("/bin/sh", "-c", HookCommand(kindGate))
	cmd.Env = append(os.Environ(), "PATH="+gate2+":/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || string(out) != "blocked\n" {
		t.Errorf("the gate's block: %v, output %q; want exit 2 and its message", err, out)
	}
}

// TestPreCommitChain commits for real: the hook that was there runs
// first, its failure stops the commit, and mem runs after it.
func TestPreCommitChain(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path(".git/hooks/pre-commit"), foreignPreCommit, 0o755)
	e.apply(t, Plan, e.o)
	writeFile(t, e.path("a.txt"), "a\n", 0o644)
	run(t, e.work, "git", "add", "a.txt")

	t.Setenv("FOREIGN_EXIT", "3")
	writeFile(t, e.log, "", 0o644)
	cmd := exec.Command("git", "commit", "-qm", "a")
	cmd.Dir = e.work
	if err := cmd.Run(); err == nil {
		t.Fatal("commit went through although the chained hook failed")
	}
	if got := readFile(t, e.log); got != "foreign pre-commit\n" {
		t.Errorf("calls = %q, want only the chained hook", got)
	}

	t.Setenv("FOREIGN_EXIT", "0")
	writeFile(t, e.log, "", 0o644)
	run(t, e.work, "git", "commit", "-qm", "a")
	if got := readFile(t, e.log); got != "foreign pre-commit\nmem precommit\n" {
		t.Errorf("calls = %q", got)
	}
}

func TestHooksPath(t *testing.T) {
	e := newEnv(t)
	run(t, e.work, "git", "config", "core.hooksPath", ".githooks")
	before := e.snapshot(t)
	e.apply(t, Plan, e.o)
	if !isOurPreCommit([]byte(readFile(t, e.path(".githooks/pre-commit")))) {
		t.Error("pre-commit not in core.hooksPath")
	}
	if _, err := os.Stat(e.path(".git/hooks/pre-commit")); err == nil {
		t.Error("pre-commit written to .git/hooks although core.hooksPath is set")
	}
	if ps := Doctor(e.o); len(ps) != 0 {
		t.Errorf("Doctor: %+v", ps)
	}
	e.apply(t, PlanUninstall, e.o)
	diffSnapshots(t, before, e.snapshot(t))
}

func TestDryRunWritesNothing(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path(".claude/settings.json"), foreignSettings, 0o644)
	o := e.o
	o.Agents = []string{Claude, OpenCode, Kimi, Codex}
	before := e.snapshot(t)
	changes, err := Plan(o)
	must(t, err)
	if len(changes) == 0 {
		t.Fatal("install planned nothing, so the dry run showed nothing")
	}
	for _, c := range changes {
		if d := Diff(c); !strings.Contains(d, "\n+") {
			t.Errorf("Diff shows no added line:\n%s", d)
		}
	}
	if _, err := PlanUninstall(o); err != nil {
		t.Fatal(err)
	}
	diffSnapshots(t, before, e.snapshot(t))
}

// TestGoldenPlan pins what a dry run prints for a fresh repository and for
// one with settings of its own.
func TestGoldenPlan(t *testing.T) {
	for _, name := range []string{"fresh", "existing"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			if name == "existing" {
				writeFile(t, e.path(".claude/settings.json"), foreignSettings, 0o644)
				writeFile(t, e.path(".git/hooks/pre-commit"), foreignPreCommit, 0o755)
			}
			o := e.o
			o.Agents = []string{Claude, Codex}
			changes, err := Plan(o)
			must(t, err)
			got := strings.ReplaceAll(diffs(changes), e.root, "$ROOT")
			golden := filepath.Join("testdata", "plan-"+name+".golden")
			if *update {
				writeFile(t, golden, got, 0o644)
			}
			if want := readFile(t, golden); got != want {
				t.Errorf("plan differs from %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

func TestMCP(t *testing.T) {
	tests := []struct {
		agent, file, existing string
		want                  func(o Options) string // mem's entry, as JSON
		others                []string               // texts that must survive
	}{
		// Files a team shares name mem by its bare name, whatever o.Mem.
		{Claude, ".mcp.json", `{"mcpServers":{"github":{"type":"http","url":"https://x/mcp"}}}`,
			func(o Options) string { return `{"type":"stdio","command":"mem","args":["mcp"]}` },
			[]string{`"github":{"type":"http","url":"https://x/mcp"}`}},
		{OpenCode, "opencode.json", "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"fs\": {\"type\": \"local\", \"command\": [\"fs-mcp\"]}\n  }\n}\n",
			func(o Options) string { return `{"type":"local","command":["mem","mcp"],"enabled":true}` },
			[]string{`"$schema": "https://opencode.ai/config.json",`, `"fs": {"type": "local", "command": ["fs-mcp"]}`}},
		{Kimi, "~/.kimi/mcp.json", `{"mcpServers": {"context7": {"url": "https://mcp.context7.com/mcp"}}, "other": 1}`,
			func(o Options) string { return `{"command":` + q(o.Mem) + `,"args":["mcp"]}` },
			[]string{`"context7": {"url": "https://mcp.context7.com/mcp"}`, `"other": 1`}},
	}
	for _, tt := range tests {
		for _, existing := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/existing=%v", tt.agent, existing), func(t *testing.T) {
				e := newEnv(t)
				path := e.path(tt.file)
				if after, ok := strings.CutPrefix(tt.file, "~/"); ok {
					path = filepath.Join(e.home, after)
				}
				if existing {
					writeFile(t, path, tt.existing, 0o600)
				}
				o := e.o
				o.Agents = []string{tt.agent}
				o.MCP = true
				before := e.snapshot(t)
				e.apply(t, Plan, o)

				var doc map[string]any
				must(t, json.Unmarshal([]byte(readFile(t, path)), &doc))
				container := "mcpServers"
				if tt.agent == OpenCode {
					container = "mcp"
				}
				server := doc[container].(map[string]any)["mem"]
				var want any
				must(t, json.Unmarshal([]byte(tt.want(o)), &want))
				if !reflect.DeepEqual(server, want) {
					t.Errorf("mem server = %v, want %s", server, tt.want(o))
				}
				if existing {
					for _, s := range tt.others {
						if !strings.Contains(readFile(t, path), s) {
							t.Errorf("lost %s:\n%s", s, readFile(t, path))
						}
					}
					if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
						t.Errorf("mode = %v, want the file's 0600 kept", fi.Mode())
					}
				}
				// A user's extra field on mem's server survives a reinstall,
				// which follows a moved binary in the person's own file and
				// replaces an older install's absolute path in a shared one.
				srv := server.(map[string]any)
				srv["timeout"] = 9000.0
				old := filepath.Join(e.root, "old place", "mem")
				if tt.agent == OpenCode {
					srv["command"] = []any{old, "mcp"}
				} else {
					srv["command"] = old
				}
				b, _ := json.MarshalIndent(doc, "", "  ")
				writeFile(t, path, string(b), 0o600)
				o.Mem = filepath.Join(e.root, "elsewhere", "mem")
				e.apply(t, Plan, o)
				wantPath := `"mem"`
				if tt.agent == Kimi {
					wantPath = "elsewhere"
				}
				if got := readFile(t, path); !strings.Contains(got, `"timeout": 9000`) || !strings.Contains(got, wantPath) || strings.Contains(got, "old place") {
					t.Errorf("reinstall lost the user's field or kept the old path:\n%s", got)
				}
				e.apply(t, PlanUninstall, o)
				if existing {
					if got := readFile(t, path); strings.Contains(got, `"mem"`) {
						t.Errorf("uninstall left mem's server:\n%s", got)
					}
				} else {
					diffSnapshots(t, before, e.snapshot(t))
				}
			})
		}
	}
}

func TestCodexTOML(t *testing.T) {
	e := newEnv(t)
	o := e.o
	o.Agents = []string{Codex}
	orig := "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"" // no final newline
	writeFile(t, e.path(".codex/config.toml"), orig, 0o644)
	e.apply(t, Plan, o)
	block := func(mem string) string {
		return "# >>> mem: MCP server for Codex (mem uninstall removes this block)\n[mcp_servers.mem]\ncommand = " +
			tomlString(mem) + "\nargs = [\"mcp\"]\n" +
			`env_vars = ["MEM_STORE", "MEM_MODEL_CMD", "MEM_MODEL_TIMEOUT", "MEM_BACKGROUND", "MEM_LOCK_TIMEOUT"]` + "\n# <<< mem\n"
	}
	// The project's file, shared, names the bare mem; the user's, which
	// Codex reads in untrusted projects too, this machine's binary.
	if got, want := readFile(t, e.path(".codex/config.toml")), orig+"\n"+block("mem"); got != want {
		t.Errorf("config.toml =\n%s\nwant\n%s", got, want)
	}
	user := filepath.Join(e.home, ".codex", "config.toml")
	if got, want := readFile(t, user), block(o.Mem); got != want {
		t.Errorf("~/.codex/config.toml =\n%s\nwant\n%s", got, want)
	}
	e.apply(t, PlanUninstall, o)
	if got := readFile(t, e.path(".codex/config.toml")); got != orig {
		t.Errorf("after uninstall %q, want %q", got, orig)
	}
	if _, err := os.Stat(user); err == nil {
		t.Errorf("uninstall --agents codex left %s", user)
	}

	writeFile(t, e.path(".codex/config.toml"), "[mcp_servers.mem]\ncommand = \"other\"\n", 0o644)
	if _, err := Plan(o); err == nil || !strings.Contains(err.Error(), "config.toml") {
		t.Errorf("a foreign [mcp_servers.mem]: err = %v", err)
	}
}

// Claude Code gets mem's MCP server only when asked: a plain install
// writes no .mcp.json, one with MCP does, a later plain install leaves it,
// and uninstall removes it either way.
func TestClaudeMCPWhenAsked(t *testing.T) {
	e := newEnv(t)
	mcp := e.path(".mcp.json")
	e.apply(t, Plan, e.o)
	if _, err := os.Stat(mcp); !os.IsNotExist(err) {
		t.Fatalf("a plain install wrote .mcp.json: %v", err)
	}
	o := e.o
	o.MCP = true
	e.apply(t, Plan, o)
	if got := readFile(t, mcp); !strings.Contains(got, `"command": "mem"`) {
		t.Fatalf(".mcp.json = %s, want mem's server", got)
	}
	e.apply(t, Plan, e.o)
	if got := readFile(t, mcp); !strings.Contains(got, `"command": "mem"`) {
		t.Fatalf("a plain reinstall dropped mem's server: %s", got)
	}
	e.apply(t, PlanUninstall, e.o)
	if _, err := os.Stat(mcp); !os.IsNotExist(err) {
		t.Errorf("uninstall left .mcp.json: %v", err)
	}
}

func TestForeignMemServerRefused(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path(".mcp.json"), `{"mcpServers":{"mem":{"command":"npx","args":["mem0-mcp"]}}}`, 0o644)
	o := e.o
	o.MCP = true
	_, err := Plan(o)
	if err == nil || !strings.Contains(err.Error(), e.path(".mcp.json")) {
		t.Fatalf("err = %v, want one naming .mcp.json", err)
	}
	changes, err := PlanUninstall(e.o)
	must(t, err)
	for _, c := range changes {
		if c.Path == e.path(".mcp.json") {
			t.Errorf("uninstall touches a server that is not mem's")
		}
	}
}

func TestMalformedSettings(t *testing.T) {
	for _, bad := range []string{"{\n  \"hooks\": {,}\n}\n", "[1, 2]", `{"hooks": []}`, `{"hooks": {"Stop": {}}}`} {
		e := newEnv(t)
		path := e.path(".claude/settings.json")
		writeFile(t, path, bad, 0o644)
		before := e.snapshot(t)
		changes, err := Plan(e.o)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: err = %v, want one naming %s", bad, err, path)
		}
		if changes != nil {
			t.Errorf("%q: planned changes despite the error", bad)
		}
		if strings.HasPrefix(bad, "{\n") && !strings.Contains(err.Error(), "line 2") {
			t.Errorf("error does not say where: %v", err)
		}
		diffSnapshots(t, before, e.snapshot(t))
	}
}

func TestCaptureSwitch(t *testing.T) {
	e := newEnv(t)
	o := e.o
	o.Capture = true
	e.apply(t, Plan, o)
	if s := readFile(t, e.path(".claude/settings.json")); strings.Count(s, "capture --detach") != 2 {
		t.Fatalf("capture hooks:\n%s", s)
	}
	o.Capture = false
	e.apply(t, Plan, o)
	if s := readFile(t, e.path(".claude/settings.json")); strings.Contains(s, "capture") || strings.Contains(s, "SessionEnd") {
		t.Errorf("capture hooks left after install without capture:\n%s", s)
	}
}

func TestDuplicatesCollapse(t *testing.T) {
	e := newEnv(t)
	cmd := HookCommand(kindPrompt)
	dup := `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":` + q(cmd) + `}]},` +
		`{"hooks":[{"type":"command","command":"/old/mem hook prompt"},{"type":"command","command":"echo keep"}]}]}}`
	writeFile(t, e.path(".claude/settings.json"), dup, 0o644)
	e.apply(t, Plan, e.o)
	s := readFile(t, e.path(".claude/settings.json"))
	if strings.Count(s, "exec mem-hook prompt") != 1 || !strings.Contains(s, "echo keep") {
		t.Errorf("settings.json:\n%s", s)
	}
}

func TestSymlinkedClaudeMD(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path("AGENTS.md"), "# Rules\n", 0o644)
	must(t, os.Symlink("AGENTS.md", e.path("CLAUDE.md")))
	o := e.o
	o.Agents = []string{Claude, Codex}
	e.apply(t, Plan, o)
	if fi, err := os.Lstat(e.path("CLAUDE.md")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("CLAUDE.md is no longer a link")
	}
	if got := readFile(t, e.path("AGENTS.md")); strings.Count(got, "mem search") != 1 {
		t.Errorf("AGENTS.md:\n%s", got)
	}
	e.apply(t, PlanUninstall, o)
	if got := readFile(t, e.path("AGENTS.md")); got != "# Rules\n" {
		t.Errorf("AGENTS.md after uninstall: %q", got)
	}
}

func TestForeignPreCommitWithLeftoverChain(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path(".git/hooks/pre-commit"), "#!/bin/sh\n", 0o755)
	writeFile(t, e.path(".git/hooks/pre-commit.mem-chained"), "#!/bin/sh\necho old\n", 0o755)
	if _, err := Plan(e.o); err == nil || !strings.Contains(err.Error(), "pre-commit.mem-chained") {
		t.Errorf("err = %v", err)
	}
}

// A chained hook that is a symbolic link is refused, as the hook itself
// is, instead of being followed (uninstall used to panic on it).
func TestSymlinkedChainedPreCommit(t *testing.T) {
	e := newEnv(t)
	writeFile(t, e.path(".git/hooks/pre-commit"), "#!/bin/sh\necho theirs\n", 0o755)
	e.apply(t, Plan, e.o)
	chained := e.path(".git/hooks/pre-commit.mem-chained")
	target := e.path("their-hook")
	must(t, os.Rename(chained, target))
	must(t, os.Symlink(target, chained))
	for name, plan := range map[string]func(Options) ([]Change, error){"install": Plan, "uninstall": PlanUninstall} {
		if _, err := plan(e.o); err == nil || !strings.Contains(err.Error(), "pre-commit.mem-chained is a symbolic link") {
			t.Errorf("%s: err = %v, want the link refused", name, err)
		}
	}
}

func TestOptionsRefused(t *testing.T) {
	e := newEnv(t)
	for name, c := range map[string]struct {
		o    Options
		want string
	}{
		"relative mem":  {Options{Place: e.o.Place, Mem: "bin/mem"}, "absolute path or a bare command name"},
		"unknown agent": {Options{Place: e.o.Place, Mem: e.o.Mem, Agents: []string{"cursor"}}, `unknown agent "cursor"`},
		"no repository": {Options{Mem: e.o.Mem}, "not inside a git work tree"},
		"renamed mem":   {Options{Place: e.o.Place, Mem: filepath.Join(e.bin, "review-mem")}, `must be named mem, not "review-mem"`},
	} {
		if _, err := Plan(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
	// Uninstall needs no binary: it recognises mem's work by its shape.
	e.apply(t, Plan, e.o)
	e.apply(t, PlanUninstall, Options{Place: e.o.Place})
	if _, err := os.Stat(e.path(".claude/settings.json")); err == nil {
		t.Error("uninstall without Mem left settings.json")
	}
}

func TestDoctor(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, e *env)
		want   []string // checks that must report, in order
	}{
		{"healthy", func(*testing.T, *env) {}, nil},
		// The hooks fall back to mem.
		{"missing hook binary", func(t *testing.T, e *env) { must(t, os.Remove(filepath.Join(e.bin, "mem-hook"))) }, nil},
		// SessionStart needs mem itself.
		{"missing mem binary", func(t *testing.T, e *env) { must(t, os.Remove(e.o.Mem)) }, []string{"path", "pre-commit", "merge-driver"}},
		{"settings set a PATH without mem", func(t *testing.T, e *env) {
			s := readFile(t, e.path(".claude/settings.json"))
			writeFile(t, e.path(".claude/settings.json"), strings.Replace(s, "{", `{"env": {"PATH": "/usr/bin:/bin"},`, 1), 0o644)
		}, []string{"path"}},
		{"an older install's absolute path", func(t *testing.T, e *env) {
			s := readFile(t, e.path(".claude/settings.json"))
			writeFile(t, e.path(".claude/settings.json"), strings.Replace(s, HookCommand(kindPrompt), filepath.Join(e.bin, "mem-hook")+" prompt", 1), 0o644)
		}, []string{"hooks"}},
		{"missing pre-commit", func(t *testing.T, e *env) { must(t, os.Remove(e.path(".git/hooks/pre-commit"))) }, []string{"pre-commit"}},
		{"foreign pre-commit", func(t *testing.T, e *env) { writeFile(t, e.path(".git/hooks/pre-commit"), "#!/bin/sh\n", 0o755) }, []string{"pre-commit"}},
		{"pre-commit not executable", func(t *testing.T, e *env) { must(t, os.Chmod(e.path(".git/hooks/pre-commit"), 0o644)) }, []string{"pre-commit"}},
		{"no identity", func(t *testing.T, e *env) {
			writeFile(t, filepath.Join(e.root, "gitconfig"), "", 0o644)
		}, []string{"identity"}},
		{"no store", func(t *testing.T, e *env) { must(t, os.RemoveAll(e.o.Place.Store)) }, []string{"store"}},
		{"no settings", func(t *testing.T, e *env) { must(t, os.Remove(e.path(".claude/settings.json"))) }, []string{"hooks"}},
		{"hook removed by hand", func(t *testing.T, e *env) {
			s := readFile(t, e.path(".claude/settings.json"))
			writeFile(t, e.path(".claude/settings.json"), strings.Replace(s, "gate", "gone", 1), 0o644)
		}, []string{"hooks"}},
		{"merge driver unset", func(t *testing.T, e *env) {
			run(t, e.work, "git", "config", "--remove-section", "merge.mem-memory-index")
		}, []string{"merge-driver"}},
		{"attributes gone", func(t *testing.T, e *env) { must(t, os.Remove(e.path(".gitattributes"))) }, []string{"merge-driver"}},
		{"rules gone", func(t *testing.T, e *env) { must(t, os.Remove(e.path("CLAUDE.md"))) }, []string{"install"}},
		{"hook errors this week", func(t *testing.T, e *env) {
			must(t, os.MkdirAll(e.o.Place.StateDir(), 0o755))
			old := time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339)
			recent := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			writeFile(t, filepath.Join(e.o.Place.StateDir(), "hook.log"),
				old+" prompt: old news\n"+recent+" prompt: mem and mem-hook write different index formats\n", 0o644)
		}, []string{"hook-log"}},
		{"hook errors long ago", func(t *testing.T, e *env) {
			must(t, os.MkdirAll(e.o.Place.StateDir(), 0o755))
			old := time.Now().Add(-30 * 24 * time.Hour).UTC().Format(time.RFC3339)
			writeFile(t, filepath.Join(e.o.Place.StateDir(), "hook.log"), old+" prompt: old news\n", 0o644)
		}, nil},
		{"cache not writable", func(t *testing.T, e *env) {
			if os.Geteuid() == 0 {
				t.Skip("root writes anywhere")
			}
			must(t, os.MkdirAll(e.o.Place.StateDir(), 0o755))
			must(t, os.Chmod(e.o.Place.StateDir(), 0o555))
			t.Cleanup(func() { os.Chmod(e.o.Place.StateDir(), 0o755) })
		}, []string{"cache"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.apply(t, Plan, e.o)
			tt.break_(t, e)
			var got []string
			for _, p := range Doctor(e.o) {
				if p.Message == "" || p.Fix == "" {
					t.Errorf("problem without message or fix: %+v", p)
				}
				if !slices.Contains(got, p.Check) {
					got = append(got, p.Check)
				}
				t.Logf("%s: %s (fix: %s)", p.Check, p.Message, p.Fix)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("checks reporting = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplyRefusesStalePlan(t *testing.T) {
	e := newEnv(t)
	changes, err := Plan(e.o)
	must(t, err)
	writeFile(t, e.path("CLAUDE.md"), "written meanwhile\n", 0o644)
	before := e.snapshot(t)
	if err := Apply(changes); err == nil || !strings.Contains(err.Error(), "CLAUDE.md") {
		t.Errorf("err = %v", err)
	}
	diffSnapshots(t, before, e.snapshot(t))
}

// helpers

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

func diffs(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(Diff(c))
	}
	return b.String()
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(content), mode))
	must(t, os.Chmod(path, mode))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return string(b)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUserInstall: --user writes the same hooks, and nothing else, to the
// user's Claude Code settings (next to what the person had there), needs no
// repository, and its uninstall gives the file back.
func TestUserInstall(t *testing.T) {
	e := newEnv(t)
	claudeDir := filepath.Join(e.home, "claude config")
	t.Setenv("CLAUDE_CONFIG_DIR", claudeDir)
	user := filepath.Join(claudeDir, "settings.json")
	mine := "{\n  \"theme\": \"dark\",\n  \"enabledPlugins\": {\"x@y\": true}\n}\n"
	writeFile(t, user, mine, 0o600)
	o := Options{Mem: e.o.Mem, User: true} // no repository
	changes := e.apply(t, Plan, o)
	if len(changes) != 1 || changes[0].Path != user {
		t.Fatalf("user install changed %s, want only %s", diffs(changes), user)
	}
	got := readFile(t, user)
	for _, s := range o.hookSpecs() {
		if !strings.Contains(got, s.command) {
			t.Errorf("user settings lack the %s hook:\n%s", s.event, got)
		}
	}
	if !strings.Contains(got, `"theme": "dark"`) {
		t.Errorf("user settings lost the person's keys:\n%s", got)
	}
	if again, _ := Plan(o); len(again) != 0 {
		t.Errorf("second user install: %s", diffs(again))
	}
	e.apply(t, PlanUninstall, o)
	if got := readFile(t, user); got != mine {
		t.Errorf("after uninstall --user:\n%s\nwant\n%s", got, mine)
	}
}

// TestDoctorUserAndPlugin: hooks from the user's settings or mem's plugin
// count as much as the project's.
func TestDoctorUserAndPlugin(t *testing.T) {
	for _, tt := range []struct{ name, user string }{
		{"user install", ""},
		{"plugin", `{"enabledPlugins": {"mem@mem": true}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(e.home, ".claude"))
			e.apply(t, Plan, e.o)
			must(t, os.Remove(e.path(".claude/settings.json")))
			if tt.user == "" {
				e.apply(t, Plan, Options{Mem: e.o.Mem, User: true})
			} else {
				writeFile(t, filepath.Join(e.home, ".claude", "settings.json"), tt.user, 0o644)
			}
			for _, p := range Doctor(e.o) {
				if p.Check == "hooks" || p.Check == "path" {
					t.Errorf("%s: %+v", tt.name, p)
				}
			}
		})
	}
}

// TestDoctorPluginOnly: in a repository where nobody ran mem install, a
// person whose Claude Code has mem's plugin enabled gets the memories from
// the plugin, so doctor does not ask for CLAUDE.md's rules; without the
// plugin it does (and never for .mcp.json, which install writes only when
// asked). What only a repository
// install does (the pre-commit hook, the merge driver) is still asked for.
func TestDoctorPluginOnly(t *testing.T) {
	for _, tt := range []struct {
		name, user string
		wantAsked  bool
	}{
		{"plugin enabled", `{"enabledPlugins": {"mem@mem": true}}`, false},
		{"plugin disabled", `{"enabledPlugins": {"mem@mem": false}}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(e.home, ".claude"))
			writeFile(t, filepath.Join(e.home, ".claude", "settings.json"), tt.user, 0o644)
			var asked, preCommit []string
			for _, p := range Doctor(e.o) {
				switch {
				case p.Check == "install" && strings.Contains(p.Message, ".mcp.json"):
					t.Errorf("doctor asks for .mcp.json: %s", p.Message)
				case p.Check == "install" && strings.Contains(p.Message, "CLAUDE.md"):
					asked = append(asked, p.Message)
				case p.Check == "pre-commit":
					preCommit = append(preCommit, p.Message)
				}
			}
			if got := len(asked) == 1; got != tt.wantAsked {
				t.Errorf("doctor asks for CLAUDE.md: %v, want %v: %q", got, tt.wantAsked, asked)
			}
			if len(preCommit) != 1 {
				t.Errorf("pre-commit problems %q, want the missing hook", preCommit)
			}
		})
	}
}

func TestUserCovered(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.home, ".claude")
	t.Setenv("CLAUDE_CONFIG_DIR", dir)
	if UserCovered() {
		t.Fatal("covered with no user settings")
	}
	writeFile(t, filepath.Join(dir, "settings.json"), `{"enabledPlugins": {"mem@mem": false}}`, 0o644)
	if UserCovered() {
		t.Fatal("covered by a disabled plugin")
	}
	writeFile(t, filepath.Join(dir, "settings.json"), `{"enabledPlugins": {"mem@team": true}}`, 0o644)
	if !UserCovered() {
		t.Fatal("not covered by the enabled plugin")
	}
	must(t, os.Remove(filepath.Join(dir, "settings.json")))
	e.apply(t, Plan, Options{Mem: e.o.Mem, User: true})
	if !UserCovered() {
		t.Fatal("not covered after mem install --user")
	}
}
