package claudecode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/e2e/messagesapi"
)

// The binaries under test: claude from PATH, mem and mem-hook built once
// for the package.
var (
	claudeBin  string
	binDir     string
	skipReason string
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if skipReason != "" {
		return m.Run()
	}
	var err error
	claudeBin, err = exec.LookPath("claude")
	if err != nil {
		skipReason = "skipping: the claude CLI is not on PATH (npm install -g @anthropic-ai/claude-code@2.1.328; .ci/run does this)"
		return m.Run()
	}
	binDir, err = os.MkdirTemp("", "mem-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(binDir)
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	build := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./cmd/mem", "./cmd/mem-hook")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build mem: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

func needClaude(t *testing.T) {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
}

// world is one test's machine: a home directory, a git repository with a
// store, a fake Messages API, and the PATH Claude Code and its hooks see.
type world struct {
	t    *testing.T
	home string
	repo string
	api  *messagesapi.Server
	// path is PATH for every process; withMem says whether mem and
	// mem-hook are on it.
	path    string
	withMem bool
}

// newWorld makes a repository with one commit and a mem store, mem on PATH.
func newWorld(t *testing.T) *world {
	t.Helper()
	needClaude(t)
	base := t.TempDir()
	w := &world{t: t, home: filepath.Join(base, "home"), repo: filepath.Join(base, "repo"), withMem: true}
	for _, d := range []string{w.home, w.repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := "[user]\n\tname = Ada Tester\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n"
	if err := os.WriteFile(filepath.Join(w.home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w.setPath(true)
	api, err := messagesapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	w.api = api
	w.git("init", "-q")
	w.write("README.md", "# shop\n")
	w.git("add", "README.md")
	w.git("commit", "-q", "-m", "init")
	w.mem("init")
	return w
}

// setPath puts mem on PATH or takes it off; git and claude stay.
func (w *world) setPath(withMem bool) {
	dirs := []string{filepath.Dir(claudeBin), "/usr/local/bin", "/usr/bin", "/bin"}
	if git, err := exec.LookPath("git"); err == nil {
		dirs = append(dirs, filepath.Dir(git))
	}
	if withMem {
		dirs = append([]string{binDir}, dirs...)
	}
	w.path, w.withMem = strings.Join(dirs, string(os.PathListSeparator)), withMem
}

// env is the whole environment of every process the test starts: nothing
// of the machine's (an ANTHROPIC_ variable of the developer's, a git
// identity) leaks in.
func (w *world) env() []string {
	return []string{
		"PATH=" + w.path,
		"HOME=" + w.home,
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
		"ANTHROPIC_BASE_URL=" + w.api.URL,
		"ANTHROPIC_API_KEY=sk-test",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// bypassPermissions refuses to run as root outside a sandbox.
		"IS_SANDBOX=1",
		// Claude Code waits a few seconds for MCP servers and then starts
		// without them; on a loaded CI machine that wait can run out. The
		// tests want the tools every time (how long mem mcp takes to connect
		// is measured on its own, see the notes).
		"MCP_CONNECTION_NONBLOCKING=false",
		// mem's detached passes (enrich after a write, the daily sweep) call
		// the model, `claude -p`, which would talk to the fake API and
		// outlive the test.
		"MEM_BACKGROUND=off",
	}
}

func (w *world) cmd(dir, name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = dir
	c.Env = w.env()
	return c
}

func (w *world) runIn(dir, name string, args ...string) string {
	w.t.Helper()
	out, err := w.cmd(dir, name, args...).CombinedOutput()
	if err != nil {
		w.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (w *world) git(args ...string) string { w.t.Helper(); return w.runIn(w.repo, "git", args...) }

// mem runs the built mem binary in the repository.
func (w *world) mem(args ...string) string {
	w.t.Helper()
	return w.runIn(w.repo, filepath.Join(binDir, "mem"), args...)
}

func (w *world) write(rel, content string) {
	w.t.Helper()
	p := filepath.Join(w.repo, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(rel string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.repo, rel))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// session is one run of claude -p: its hook events and every request the
// fake API received.
type session struct {
	events []map[string]any
	reqs   []messagesapi.Request
	stdout string
}

// claude runs `claude -p prompt` in dir (relative to the repository) with
// the replies script gives, and returns what happened.
func (w *world) claude(dir, prompt string, script messagesapi.Script, extra ...string) *session {
	w.t.Helper()
	w.api.SetScript(script)
	w.api.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"-p", prompt, "--permission-mode", "bypassPermissions",
		"--output-format", "stream-json", "--verbose", "--include-hook-events"}, extra...)
	c := exec.CommandContext(ctx, claudeBin, args...)
	c.Dir = filepath.Join(w.repo, dir)
	c.Env = w.env()
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		w.t.Fatalf("claude -p %q in %s: %v\nstderr: %s\nstdout: %s", prompt, dir, err, stderr.String(), clipOut(stdout.String()))
	}
	s := &session{reqs: w.api.Requests(), stdout: stdout.String()}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			s.events = append(s.events, ev)
		}
	}
	return s
}

func clipOut(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}

// hookRun is one hook's response as --include-hook-events reports it.
type hookRun struct {
	Name, Event, Stdout, Stderr, Outcome string
	ExitCode                             int
}

func (s *session) hooks(event string) []hookRun {
	var out []hookRun
	for _, ev := range s.events {
		if ev["type"] != "system" || ev["subtype"] != "hook_response" || ev["hook_event"] != event {
			continue
		}
		str := func(k string) string { v, _ := ev[k].(string); return v }
		code, _ := ev["exit_code"].(float64)
		out = append(out, hookRun{str("hook_name"), str("hook_event"), str("stdout"), str("stderr"), str("outcome"), int(code)})
	}
	return out
}

// contexts returns the hook context Claude Code sent the model for event
// (SessionStart, UserPromptSubmit): each additionalContext a hook of the
// event printed that arrived in a request as a system message headed
// "<event> hook additional context: ", once each, in order. A context a
// hook printed that never reached the model fails the test.
func (s *session) contexts(t *testing.T, event string) []string {
	t.Helper()
	head := event + " hook additional context: "
	var out []string
	for _, h := range s.hooks(event) {
		var v struct {
			Out struct {
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if h.Stdout == "" || json.Unmarshal([]byte(h.Stdout), &v) != nil || v.Out.Context == "" || slices.Contains(out, v.Out.Context) {
			continue
		}
		if !s.sentSystem(head + v.Out.Context) {
			t.Fatalf("%s printed context that no request carried: %q", h.Name, v.Out.Context)
		}
		out = append(out, v.Out.Context)
	}
	return out
}

// sentSystem reports whether a system message of some request holds text.
func (s *session) sentSystem(text string) bool {
	for _, r := range s.reqs {
		for _, m := range r.Messages {
			if m.Role == "system" && strings.Contains(m.Content.Text(), text) {
				return true
			}
		}
	}
	return false
}

// sent is every text the model was sent in the session's last request of
// the main conversation (the one with the most messages).
func (s *session) last() messagesapi.Request {
	var best messagesapi.Request
	for _, r := range s.reqs {
		if len(r.Tools) > 0 && len(r.Messages) >= len(best.Messages) {
			best = r
		}
	}
	return best
}

// userTexts lists the texts of the user messages in the last request.
func (s *session) userTexts() []string {
	var out []string
	for _, m := range s.last().Messages {
		if m.Role == "user" {
			for _, b := range m.Content {
				if b.Text != "" {
					out = append(out, b.Text)
				}
			}
		}
	}
	return out
}

// steps scripts a conversation: a request of the main conversation (one
// that offers tools) with k assistant turns already in it gets replies[k];
// past the end, and for any side request, a plain "done".
func steps(replies ...messagesapi.Reply) messagesapi.Script {
	return func(_ int, r messagesapi.Request) messagesapi.Reply {
		if len(r.Tools) == 0 {
			return messagesapi.Reply{Text: "done"}
		}
		k := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				k++
			}
		}
		if k < len(replies) {
			return replies[k]
		}
		return messagesapi.Reply{Text: "done"}
	}
}

func say(text string) messagesapi.Reply { return messagesapi.Reply{Text: text} }

func call(name string, input any) messagesapi.Reply {
	return messagesapi.Reply{Tools: []messagesapi.ToolCall{{Name: name, Input: input}}}
}

func bash(command string) messagesapi.Reply {
	return call("Bash", map[string]any{"command": command, "description": "run"})
}

// toolResults lists the text of every tool result in the last request, in
// order.
func (s *session) toolResults() []string {
	var out []string
	for _, m := range s.last().Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				out = append(out, b.Content.Text())
			}
		}
	}
	return out
}

func init() {
	if runtime.GOOS == "windows" {
		skipReason = "skipping: the end-to-end suite runs Claude Code's hooks through a POSIX shell"
	}
}

// allText is every text a request carries: system prompt and messages.
func allText(r messagesapi.Request) string {
	var b strings.Builder
	b.WriteString(r.System.Text())
	for _, m := range r.Messages {
		b.WriteString(m.Content.Text())
	}
	return b.String()
}

// hookLog is what the hooks logged while failing open, for a failure's
// message.
func (w *world) hookLog() string {
	b, _ := os.ReadFile(filepath.Join(w.repo, ".git", "mem", "hook.log"))
	return "hook.log: " + string(b)
}

// gateStates is the gate's per-session state files, for a failure's
// message.
func (w *world) gateStates() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(w.repo, ".git", "mem", "gate", "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "%s: %s\n", filepath.Base(f), data)
	}
	return b.String()
}

// mcpServers lists the MCP servers of the session's init event as
// "name=status".
func (s *session) mcpServers() []string {
	var out []string
	for _, ev := range s.events {
		if ev["type"] != "system" || ev["subtype"] != "init" {
			continue
		}
		list, _ := ev["mcp_servers"].([]any)
		for _, v := range list {
			m, _ := v.(map[string]any)
			out = append(out, fmt.Sprintf("%v=%v", m["name"], m["status"]))
		}
	}
	return out
}
