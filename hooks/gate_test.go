package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/internal/transcript"
)

var gateNow = time.Date(2026, 8, 22, 10, 0, 0, 0, time.UTC)

// gateRepo makes a work tree with a .git directory, and returns it with
// its Place.
func gateRepo(t testing.TB) (string, locate.Place) {
	t.Helper()
	if tt, ok := t.(*testing.T); ok {
		tt.Setenv("MEM_STORE", "")
		tt.Setenv("CLAUDE_PROJECT_DIR", "")
	}
	dir := t.TempDir()
	for _, d := range []string{".git", filepath.FromSlash(locate.DefaultStore)} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	place, err := locate.Find(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return place.WorkTree, place
}

// gateTx builds a synthetic transcript in the shapes Claude Code 2.1 writes:
// one content block per assistant line, a user tool_result line per call.
type gateTx struct {
	b    bytes.Buffer
	n    int
	work string // the work tree, for relative names
}

func (x *gateTx) line(v map[string]any) {
	x.n++
	v["uuid"] = fmt.Sprintf("u%d", x.n)
	v["sessionId"] = "s1"
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	x.b.Write(b)
	x.b.WriteByte('\n')
}

func (x *gateTx) prompt(text string) {
	x.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

func (x *gateTx) say(text string) {
	x.line(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%d", x.n), "role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": text}}}})
}

func (x *gateTx) tool(name string, input map[string]any) {
	id := fmt.Sprintf("toolu_%d", x.n)
	x.line(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%d", x.n), "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
	x.line(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "ok"}}}})
}

func (x *gateTx) path(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(x.work, rel)
}

func (x *gateTx) read(rel string) { x.tool("Read", map[string]any{"file_path": x.path(rel)}) }
func (x *gateTx) edit(rel string) {
	x.tool("Edit", map[string]any{"file_path": x.path(rel), "old_string": "a", "new_string": "b"})
}
func (x *gateTx) write(rel string) {
	x.tool("Write", map[string]any{"file_path": x.path(rel), "content": "x"})
}
func (x *gateTx) bash(cmd string) { x.tool("Bash", map[string]any{"command": cmd}) }

// gateStep appends entries, then stops.
type gateStep struct {
	do     func(x *gateTx)
	active bool     // stop_hook_active
	want   int      // exit code
	says   []string // stderr contains
	silent []string // stderr does not contain
}

func runGateSteps(t *testing.T, lookup bool, steps []gateStep) {
	t.Helper()
	work, place := gateRepo(t)
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	x := &gateTx{work: work}
	if lookup {
		if err := RecordLookup(place.StateDir(), "s1"); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range steps {
		if s.do != nil {
			s.do(x)
		}
		if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		in := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":%v}`, path, work, s.active)
		var stderr bytes.Buffer
		code := Gate(strings.NewReader(in), &stderr, gateNow, nil)
		if code != s.want {
			t.Fatalf("stop %d: exit %d, want %d; stderr:\n%s", i+1, code, s.want, stderr.String())
		}
		if code == 0 && stderr.Len() > 0 {
			t.Errorf("stop %d: exit 0 with stderr %q", i+1, stderr.String())
		}
		for _, w := range s.says {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("stop %d: stderr lacks %q:\n%s", i+1, w, stderr.String())
			}
		}
		for _, w := range s.silent {
			if strings.Contains(stderr.String(), w) {
				t.Errorf("stop %d: stderr has %q:\n%s", i+1, w, stderr.String())
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(place.StateDir(), "hook.log")); err == nil {
		t.Errorf("hook.log written:\n%s", b)
	}
}

const storeCmd = `mem store --class decision --name "<what changed>" "<what you learned and why>"`

func TestGate(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "claude"))
	tests := []struct {
		name   string
		lookup bool // the prompt hook injected memories before the first stop
		steps  []gateStep
	}{
		{
			// Failure mode (a): a short session whose edit passed silently.
			name: "short session with an edit and no store blocks", lookup: true,
			steps: []gateStep{{do: func(x *gateTx) {
				x.prompt("round VAT per line")
				x.read("shop/tax.py")
				x.edit("shop/tax.py")
				x.bash("go test ./...")
				x.say("Done.")
			}, want: 2, says: []string{"shop/tax.py", storeCmd}, silent: []string{"mem search"}}},
		},
		{
			// Failure mode (b): an early store must not cover edits much
			// later, and a flagged window is flagged once.
			name: "early store, later edits flagged once in their own window", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.read("a.go")
					x.edit("a.go")
					x.bash(`mem store --name "a uses b" "because c"`)
					x.say("Stored.")
				}, want: 0},
				{do: func(x *gateTx) { x.prompt("explain b"); x.read("b.go"); x.say("b does c.") }, want: 0},
				{do: func(x *gateTx) { x.prompt("now change d"); x.edit("d.go"); x.say("Changed d.") }, want: 2, says: []string{"d.go"}, silent: []string{"a.go"}},
				{do: func(x *gateTx) { x.say("Nothing worth storing: a rename.") }, active: true, want: 0},
				{do: func(x *gateTx) { x.prompt("thanks"); x.read("e.go"); x.say("ok") }, want: 0},
				{do: func(x *gateTx) { x.prompt("and?"); x.say("That is all."); x.say("Really.") }, want: 0},
			},
		},
		{
			name: "stored after the edit in the same window: never blocked for it", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.edit("a.go"); x.bash("go test"); x.bash("cd sub && mem store 'x'"); x.say("done") }, want: 0},
				{do: func(x *gateTx) { x.read("a.go"); x.say("a"); x.say("b") }, want: 0},
				{do: func(x *gateTx) { x.say("c"); x.say("d") }, want: 0},
			},
		},
		{
			name: "a store in the retry answers the block and does not excuse later edits", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a.go"); x.edit("a.go"); x.bash("go vet"); x.say("done") }, want: 2, says: []string{"a.go"}},
				{do: func(x *gateTx) { x.bash(storeCmd); x.say("Stored.") }, active: true, want: 0},
				{do: func(x *gateTx) { x.prompt("next"); x.edit("b.go"); x.say("done") }, want: 2, says: []string{"b.go"}, silent: []string{"a.go"}},
			},
		},
		{
			name: "stop_hook_active from another hook's block is let through and its work is kept", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a.go"); x.read("b.go"); x.bash("ls"); x.say("hm") }, want: 0},
				{do: func(x *gateTx) { x.edit("c.go"); x.say("x"); x.say("y") }, active: true, want: 0},
				{do: func(x *gateTx) { x.say("z"); x.say("w") }, want: 2, says: []string{"c.go"}},
			},
		},
		{
			name: "fewer than 3 tool calls: no check, the window waits", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.edit("a.go"); x.bash("go test"); x.say("done"); x.say("really") }, want: 0},
				{do: func(x *gateTx) { x.prompt("more"); x.read("b.go"); x.say("ok") }, want: 2, says: []string{"a.go"}},
			},
		},
		{
			name: "at most one check per 2 assistant entries", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a"); x.read("b"); x.read("c"); x.say("fine") }, want: 0},
				{do: func(x *gateTx) { x.edit("d.go") }, want: 0}, // 1 new entry: not checked
				{do: func(x *gateTx) { x.say("done") }, want: 2, says: []string{"d.go"}},
			},
		},
		{
			name: "first check without any lookup asks for a search, once",
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a"); x.bash("ls"); x.bash("git log"); x.say("here") }, want: 2,
					says: []string{`mem search "<topic>"`}, silent: []string{"mem store"}},
				{do: func(x *gateTx) { x.say("ok") }, active: true, want: 0},
				{do: func(x *gateTx) { x.prompt("go on"); x.read("b"); x.say("b") }, want: 0},
			},
		},
		{
			name: "no lookup and unstored edits: one block names both",
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a"); x.edit("a.go"); x.bash("ls"); x.say("here") }, want: 2,
					says: []string{`mem search "<topic>"`, storeCmd, "a.go"}},
			},
		},
		{
			name: "lookup by mem search through Bash",
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.bash(`cd /repo && ./bin/mem search "vat rounding"`)
					x.read("a")
					x.read("b")
					x.say("ok")
				}, want: 0},
			},
		},
		{
			name: "lookup by MCP context_query",
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.tool("mcp__mem__context_query", map[string]any{"query": "vat"})
					x.read("a")
					x.read("b")
					x.say("ok")
				}, want: 0},
			},
		},
		{
			name: "lookup by the prompt hook's injection", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) { x.read("a"); x.read("b"); x.read("c"); x.say("ok") }, want: 0},
			},
		},
		{
			name: "store by MCP memory_store", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.edit("a.go")
					x.tool("mcp__plugin_mem_mem__memory_store", map[string]any{"name": "x", "body": "y"})
					x.bash("go test")
					x.say("ok")
				}, want: 0},
			},
		},
		{
			name: "editing the store counts as storing", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.edit("a.go")
					x.write(".claude/agent-memory/vat-rounds-per-line.md")
					x.bash("go test")
					x.say("ok")
				}, want: 0},
				{do: func(x *gateTx) {
					x.edit(".claude/agent-memory/MEMORY.md")
					x.edit(".claude/agent-memory/team/x.md")
					x.say("ok")
				}, want: 0},
			},
		},
		{
			name: "writing a memory Claude Code keeps elsewhere counts as storing", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.edit("a.go")
					personal, _ := locate.PersonalStore(x.work)
					x.write(filepath.Join(personal, "vat.md"))
					x.bash("go test")
					x.say("ok")
				}, want: 0},
				{do: func(x *gateTx) {
					x.edit("b.go")
					x.write(".claude/agent-memory-local/reviewer/MEMORY.md")
					x.say("ok")
				}, want: 0},
				{do: func(x *gateTx) {
					x.edit("c.go")
					x.write(filepath.Join(locate.UserAgents(), "reviewer", "MEMORY.md"))
					x.say("ok")
				}, want: 0},
				{do: func(x *gateTx) {
					x.edit("d.go")
					x.write(filepath.Join(filepath.Dir(locate.UserAgents()), "settings.json"))
					x.say("ok")
				}, want: 2, says: []string{"d.go", "settings.json"}},
			},
		},
		{
			name: "mem store spelled other ways", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.edit("a.go")
					x.bash("go run ./cmd/mem --store /tmp/s store -")
					x.say("1")
					x.say("2")
				}, want: 0},
				{do: func(x *gateTx) { x.edit("b.go"); x.bash("true; /usr/local/bin/mem store \\\n --name x y"); x.say("1") }, want: 0},
				{do: func(x *gateTx) { x.edit("c.go"); x.bash("echo x | mem store -"); x.say("1") }, want: 0},
			},
		},
		{
			name: "talking about mem store is not storing", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.edit("a.go")
					x.bash(`grep -rn "mem store" docs/ && echo 'mem store'`)
					x.bash("mem show store")
					x.say("ok")
				}, want: 2, says: []string{"a.go"}},
			},
		},
		{
			name: "the message names at most 5 files", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					for _, f := range []string{"f1.go", "f2.go", "f1.go", "f3.go", "f4.go", "f5.go", "f6.go", "f7.go"} {
						x.edit(f)
					}
					x.tool("MultiEdit", map[string]any{"file_path": "sub/m.go", "edits": []any{}}) // relative: taken from cwd
					x.tool("NotebookEdit", map[string]any{"notebook_path": x.path("nb.ipynb"), "new_source": "x"})
					x.say("ok")
				}, want: 2, says: []string{"f1.go, f2.go, f3.go, f4.go, f5.go and 4 more"}, silent: []string{"f6.go"}},
			},
		},
		{
			name: "no edits at all: silent", lookup: true,
			steps: []gateStep{
				{do: func(x *gateTx) {
					x.read("a")
					x.bash("go test ./...")
					x.tool("Grep", map[string]any{"pattern": "x"})
					x.say("all green")
				}, want: 0},
				{do: func(x *gateTx) { x.read("b"); x.say("b") }, want: 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runGateSteps(t, tt.lookup, tt.steps) })
	}
}

func TestGateMessageRelativeAndOverflow(t *testing.T) {
	work, place := gateRepo(t)
	st := gateState{ToolCalls: 3, SinceCheck: 2, LookedUp: true}
	for i := range gateMaxEditedKept + 3 {
		st.Window.addEdit(filepath.Join(work, fmt.Sprintf("f%02d.go", i)))
	}
	res := st.check(place)
	if !res.Block || !strings.Contains(res.Message, "f00.go, f01.go, f02.go, f03.go, f04.go and 59+ more") {
		t.Errorf("message:\n%s", res.Message)
	}
	if st.Checks != 1 || !st.Blocked || len(st.Window.Edited) != 0 || st.SinceCheck != 0 {
		t.Errorf("state after check: %+v", st)
	}
}

func TestGateFailsOpen(t *testing.T) {
	work, place := gateRepo(t)
	cache := place.StateDir()
	good := filepath.Join(t.TempDir(), "t.jsonl")
	x := &gateTx{work: work}
	x.edit("a.go")
	x.edit("b.go")
	x.edit("c.go")
	x.say("done")
	if err := os.WriteFile(good, x.b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	input := func(session, path, cwd string) string {
		return fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"stop_hook_active":false}`, session, path, cwd)
	}
	tests := []struct {
		name    string
		setup   func()
		in      string
		env     string // CLAUDE_PROJECT_DIR
		wantLog string // "" means no hook.log line expected
	}{
		{name: "bad JSON, no project dir", in: `{"session_id":`},
		{name: "bad JSON, project dir known", in: `{"session_id":`, env: work, wantLog: "read stop input"},
		{name: "empty input", in: ``},
		{name: "not in a git repository", in: input("s", good, t.TempDir())},
		{name: "no store in this repository", in: input("s1", good, work), setup: func() { os.Rename(place.Store, place.Store+".off") }},
		// Claude Code had not written it yet: nothing to judge, no error.
		{name: "missing transcript", in: input("s2", filepath.Join(work, "nope.jsonl"), work)},
		{name: "no session id", in: input("", good, work), wantLog: "no session_id"},
		{name: "no transcript path", in: input("s3", "", work), wantLog: "no transcript_path"},
		{name: "transcript is a directory", in: input("s4", work, work), wantLog: "read transcript"},
		{name: "unwritable state", in: input("s5", good, work), wantLog: "state", setup: func() {
			os.MkdirAll(cache, 0o755)
			os.WriteFile(filepath.Join(cache, "gate"), []byte("a file, not a directory"), 0o644)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.RemoveAll(cache)
			os.Rename(place.Store+".off", place.Store)
			t.Setenv("CLAUDE_PROJECT_DIR", tt.env)
			if tt.setup != nil {
				tt.setup()
			}
			var stderr bytes.Buffer
			if code := Gate(strings.NewReader(tt.in), &stderr, gateNow, nil); code != 0 || stderr.Len() != 0 {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
			}
			b, err := os.ReadFile(filepath.Join(cache, "hook.log"))
			switch {
			case tt.wantLog == "" && err == nil:
				t.Errorf("unexpected hook.log:\n%s", b)
			case tt.wantLog != "" && (bytes.Count(b, []byte("\n")) != 1 || !bytes.Contains(b, []byte(tt.wantLog)) || bytes.Contains(b, []byte("gate: gate:"))):
				t.Errorf("hook.log = %q (%v), want one line with %q", b, err, tt.wantLog)
			}
		})
	}
}

// TestGateAwaitsTranscript: Claude Code writes the transcript after it
// runs the Stop hook on a busy machine, and in pieces; when the stop names
// the turn that ended, the gate waits for the file and reads on until that
// turn is in, then judges all of it.
func TestGateAwaitsTranscript(t *testing.T) {
	for _, early := range []int{0, 1} { // entries written before the stop
		work, place := gateRepo(t)
		if err := RecordLookup(place.StateDir(), "s1"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "t.jsonl")
		x := &gateTx{work: work}
		x.edit("a.go")
		first := x.b.Len()
		x.edit("b.go")
		x.edit("c.go")
		x.say("All  three\nedited.")
		all := x.b.Bytes()
		if early > 0 {
			if err := os.WriteFile(path, all[:first], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error)
		go func() {
			time.Sleep(150 * time.Millisecond)
			done <- os.WriteFile(path, all, 0o644)
		}()
		in := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"stop_hook_active":false,"last_assistant_message":"All three edited."}`, path, work)
		var stderr bytes.Buffer
		code := Gate(strings.NewReader(in), &stderr, gateNow, nil)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if code != 2 || !strings.Contains(stderr.String(), "you edited a.go, b.go, c.go") {
			t.Fatalf("%d entries early: exit %d, stderr %q; want the block for all the edits the late transcript holds", early, code, stderr.String())
		}
	}
}

// TestGateSeesTheTurnAtOnce: when the turn that ended is not in the
// transcript at the first read, the gate sees it within a millisecond of
// its write (Claude Code 2.1.328 writes it a few milliseconds into the
// hook), not at a coarse poll's next tick. The pauses are counted, not
// taken: the turn is written during the first.
func TestGateSeesTheTurnAtOnce(t *testing.T) {
	work, place := gateRepo(t)
	if err := RecordLookup(place.StateDir(), "s1"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	x := &gateTx{work: work}
	x.edit("a.go")
	x.bash("go test ./...")
	x.bash("git diff")
	early := x.b.Len()
	x.say("Done.")
	if err := os.WriteFile(path, x.b.Bytes()[:early], 0o644); err != nil {
		t.Fatal(err)
	}
	var paused time.Duration
	saved := gateSleep
	t.Cleanup(func() { gateSleep = saved })
	gateSleep = func(d time.Duration) {
		if paused == 0 {
			if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
				t.Error(err)
			}
		}
		paused += d
	}
	in := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"stop_hook_active":false,"last_assistant_message":"Done."}`, path, work)
	var stderr bytes.Buffer
	if code := Gate(strings.NewReader(in), &stderr, gateNow, nil); code != 2 || !strings.Contains(stderr.String(), "you edited a.go") {
		t.Fatalf("exit %d, stderr %q; want the block for a.go", code, stderr.String())
	}
	if paused > time.Millisecond {
		t.Errorf("the gate paused %s before it looked again at a transcript written during its first pause", paused)
	}
}

// TestGateTranscriptReplaced: a transcript shorter than the saved offset, or
// one whose offset no longer starts a line, is read again from the start.
func TestGateTranscriptReplaced(t *testing.T) {
	work, place := gateRepo(t)
	if err := RecordLookup(place.StateDir(), "s1"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	stop := func() GateResult {
		t.Helper()
		res, err := CheckStop(StopInput{SessionID: "s1", TranscriptPath: path, CWD: work}, place, gateNow)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	long := &gateTx{work: work}
	for range 5 {
		long.read("a")
	}
	long.say("ok")
	os.WriteFile(path, long.b.Bytes(), 0o644)
	if res := stop(); !res.Checked || res.Block {
		t.Fatalf("first stop: %+v", res)
	}
	short := &gateTx{work: work}
	short.edit("new.go")
	short.bash("ls")
	short.bash("ls")
	short.say("ok")
	os.WriteFile(path, short.b.Bytes(), 0o644) // shorter: offset past the end
	if res := stop(); !res.Block || len(res.Edited) != 1 {
		t.Fatalf("after shrink: %+v", res)
	}
	st, _, _ := loadGateState(filepath.Join(place.StateDir(), "gate", "s1.json"))
	if st.ToolCalls != 3 || st.Offset != int64(short.b.Len()) || st.Checks != 2 {
		t.Errorf("state after shrink: %+v", st)
	}
	// Same length class but different lines: offset lands mid-line.
	st.Offset = 7
	writeGateState(filepath.Join(place.StateDir(), "gate"), filepath.Join(place.StateDir(), "gate", "s1.json"), &st)
	if _, err := CheckStop(StopInput{SessionID: "s1", TranscriptPath: path, CWD: work}, place, gateNow); err != nil {
		t.Fatal(err)
	}
	st, _, _ = loadGateState(filepath.Join(place.StateDir(), "gate", "s1.json"))
	if st.ToolCalls != 3 || st.Offset != int64(short.b.Len()) {
		t.Errorf("state after a mid-line offset: %+v", st)
	}
}

func TestGateStateFile(t *testing.T) {
	work, place := gateRepo(t)
	path := filepath.Join(t.TempDir(), "t.jsonl")
	x := &gateTx{work: work}
	x.read("a")
	x.edit("a.go")
	os.WriteFile(path, x.b.Bytes(), 0o644)
	in := StopInput{SessionID: "../../etc/passwd", TranscriptPath: path, CWD: work}
	if _, err := CheckStop(in, place, gateNow); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(place.StateDir(), "gate"))
	if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), "_.._.._etc_passwd-") || !strings.HasSuffix(ents[0].Name(), ".json") {
		t.Fatalf("state files: %v", ents)
	}
	b, _ := os.ReadFile(filepath.Join(place.StateDir(), "gate", ents[0].Name()))
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"assistant_since_check":2,"blocked":false,"checks":0,"looked_up":false,"offset":%d,"tool_calls":2,`+
		`"transcript":%q,"updated":"2026-08-22T10:00:00Z","version":1,"window":{"edited":[%q],"stored":false}}`,
		x.b.Len(), path, filepath.Join(work, "a.go"))
	if g, _ := json.Marshal(got); string(g) != want {
		t.Errorf("state:\n got %s\nwant %s", g, want)
	}
	// A torn state file is a fresh start, not an error.
	os.WriteFile(filepath.Join(place.StateDir(), "gate", ents[0].Name()), []byte(`{"version":1,"off`), 0o644)
	if _, err := CheckStop(in, place, gateNow); err != nil {
		t.Errorf("torn state: %v", err)
	}
}

func TestGatePrune(t *testing.T) {
	_, place := gateRepo(t)
	dir := filepath.Join(place.StateDir(), "gate")
	os.MkdirAll(dir, 0o755)
	old := gateNow.Add(-31 * 24 * time.Hour)
	for _, name := range []string{"old.json", "old.lookup", "keep.txt"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	os.WriteFile(filepath.Join(dir, "new.json"), nil, 0o644)
	pruneGateDir(dir, time.Now())
	var names []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "keep.txt,new.json" {
		t.Errorf("after prune: %v", names)
	}
}

func TestGateFileName(t *testing.T) {
	tests := map[string]string{
		"0a5857c1-7c3d-4165-b520-c7eff1cfa27a": "0a5857c1-7c3d-4165-b520-c7eff1cfa27a",
		"abc_1.2":                              "abc_1.2",
	}
	for in, want := range tests {
		if got := gateFileName(in); got != want {
			t.Errorf("gateFileName(%q) = %q, want %q", in, got, want)
		}
	}
	seen := map[string]string{}
	for _, in := range []string{"a/b", "a_b", "a:b", "", ".", "..", ".x", strings.Repeat("z", 300), strings.Repeat("z", 301)} {
		got := gateFileName(in)
		if strings.ContainsAny(got, `/\:`) || got == "" || got[0] == '.' || len(got) > 120 {
			t.Errorf("gateFileName(%q) = %q", in, got)
		}
		if prev, ok := seen[got]; ok {
			t.Errorf("gateFileName(%q) = gateFileName(%q) = %q", in, prev, got)
		}
		seen[got] = in
	}
}

// TestGateRealTranscripts runs the gate over every real transcript, once on
// the whole file (a cold first stop) and as the session grew, stopping where
// turns end (before each typed prompt, after each stop_hook_summary or
// turn_duration line, and at the end), with a stop_hook_active retry after
// each block. It must never fail (exit 0 or 2, no log line).
func TestGateRealTranscripts(t *testing.T) {
	for _, path := range shareddata.Transcripts(t) {
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			work, place := gateRepo(t)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			gate := func(session, p string, active bool) int {
				in := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"stop_hook_active":%v}`, session, p, work, active)
				var stderr bytes.Buffer
				code := Gate(strings.NewReader(in), &stderr, gateNow, nil)
				if code != 0 && code != 2 || (code == 2) != (stderr.Len() > 0) {
					t.Fatalf("exit %d, stderr %q", code, stderr.String())
				}
				return code
			}
			cold := gate("cold", path, false)

			grow := filepath.Join(t.TempDir(), "grow.jsonl")
			f, err := os.Create(grow)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			stops, blocks, toolCalls := 0, 0, 0
			stop := func() {
				stops++
				if gate("grow", grow, false) == 2 {
					blocks++
					gate("grow", grow, true)
				}
			}
			for line := range bytes.Lines(b) {
				e, err := transcript.ParseLine(bytes.TrimRight(line, "\n"))
				if err != nil {
					t.Fatalf("line does not parse: %v", err)
				}
				if e.Prompt != "" && toolCalls > 0 {
					stop()
				}
				f.Write(line)
				toolCalls += len(e.ToolUses)
				if e.Subtype == "stop_hook_summary" || e.Subtype == "turn_duration" {
					stop()
				}
			}
			stop()
			if log, err := os.ReadFile(filepath.Join(place.StateDir(), "hook.log")); err == nil {
				t.Fatalf("hook.log:\n%s", log)
			}
			st, _, err := loadGateState(filepath.Join(place.StateDir(), "gate", "grow.json"))
			if err != nil || st.ToolCalls != toolCalls || st.Offset != int64(len(b)) {
				t.Errorf("state after growing: %+v (%v), want %d tool calls, offset %d", st, err, toolCalls, len(b))
			}
			t.Logf("cold exit %d; grown: %d stops, %d checks, %d blocks, %d tool calls", cold, stops, st.Checks, blocks, toolCalls)
		})
	}
}

// largestReal returns the largest real transcript.
func largestReal(b *testing.B) (string, int64) {
	var largest string
	var size int64
	for _, p := range shareddata.Transcripts(b) {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			largest, size = p, fi.Size()
		}
	}
	return largest, size
}

func benchGateCold(b *testing.B, path string, size int64) {
	work, place := gateRepo(b)
	in := StopInput{SessionID: "bench", TranscriptPath: path, CWD: work}
	state := filepath.Join(place.StateDir(), "gate", "bench.json")
	b.SetBytes(size)
	for b.Loop() {
		os.Remove(state)
		if _, err := CheckStop(in, place, gateNow); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGateCold: the first stop of a session on the largest real
// transcript, which reads the whole file.
func BenchmarkGateCold(b *testing.B) {
	path, size := largestReal(b)
	benchGateCold(b, path, size)
}

// BenchmarkGateCold20MB: the same on a ~20 MB transcript made by repeating
// the largest real one.
func BenchmarkGateCold20MB(b *testing.B) {
	path, _ := largestReal(b)
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(b.TempDir(), "big.jsonl")
	var buf bytes.Buffer
	for buf.Len() < 20<<20 {
		buf.Write(src)
	}
	if err := os.WriteFile(big, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	benchGateCold(b, big, int64(buf.Len()))
}

// BenchmarkGateIncremental: a later stop on the largest real transcript,
// with the last turn (the last 64 KiB) new since the previous stop; the
// Gate entry point, with input decoding and locating the repository.
func BenchmarkGateIncremental(b *testing.B) {
	path, size := largestReal(b)
	work, place := gateRepo(b)
	in := fmt.Sprintf(`{"session_id":"bench","transcript_path":%q,"cwd":%q,"stop_hook_active":false}`, path, work)
	if _, err := CheckStop(StopInput{SessionID: "bench", TranscriptPath: path, CWD: work}, place, gateNow); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(place.StateDir(), "gate")
	statePath := filepath.Join(dir, "bench.json")
	st, _, err := loadGateState(statePath)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	st.Offset = int64(bytes.LastIndexByte(data[:size-64<<10], '\n') + 1)
	st.SinceCheck = 0
	for b.Loop() {
		if err := writeGateState(dir, statePath, &st); err != nil {
			b.Fatal(err)
		}
		if code := Gate(strings.NewReader(in), io.Discard, gateNow, nil); code != 0 && code != 2 {
			b.Fatal(code)
		}
	}
}

// TestGateFound: the gate calls its Learner at a stop after the agent
// looked a memory up itself, each lookup once, and never otherwise.
func TestGateFound(t *testing.T) {
	tests := []struct {
		name string
		do   func(x *gateTx)
		want bool
	}{
		{"mem search", func(x *gateTx) { x.bash("mem search 'vat rounding'") }, true},
		{"mem show", func(x *gateTx) { x.bash("cd /w && mem show spanish-vat") }, true},
		{"a memory file read", func(x *gateTx) { x.read(".claude/agent-memory/spanish-vat.md") }, true},
		{"context_query", func(x *gateTx) { x.tool("mcp__mem__context_query", map[string]any{"query": "vat"}) }, true},
		{"memory_show", func(x *gateTx) { x.tool("mcp__mem__memory_show", map[string]any{"slug": "spanish-vat"}) }, true},
		{"a store", func(x *gateTx) { x.bash("mem store 'x'") }, false},
		{"a source file read", func(x *gateTx) { x.read("main.go") }, false},
		{"a grep for mem show", func(x *gateTx) { x.bash(`grep "mem show" README.md`) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work, _ := gateRepo(t)
			path := filepath.Join(t.TempDir(), "s1.jsonl")
			x := &gateTx{work: work}
			x.prompt("why is the basket a penny short?")
			tt.do(x)
			calls := 0
			learn := func(in StopInput, place locate.Place) error {
				calls++
				if in.TranscriptPath != path || place.WorkTree != work {
					t.Errorf("learn(%+v, %s)", in, place.WorkTree)
				}
				return nil
			}
			stop := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"hook_event_name":"Stop"}`, path, work)
			for range 2 { // the second stop reads nothing new
				if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				Gate(strings.NewReader(stop), io.Discard, gateNow, learn)
			}
			if want := map[bool]int{true: 1, false: 0}[tt.want]; calls != want {
				t.Errorf("learn called %d times, want %d", calls, want)
			}
		})
	}
}

// TestGateOnce: the same stop handled twice (mem's plugin and the project's
// settings both run the gate, in parallel) blocks once; the prompt's next
// stop is judged again.
func TestGateOnce(t *testing.T) {
	work, place := gateRepo(t)
	if err := RecordLookup(place.StateDir(), "s1"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	x := &gateTx{work: work}
	x.edit("a.go")
	x.edit("b.go")
	x.edit("c.go")
	x.say("done")
	if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := func(active bool, text string) string {
		return fmt.Sprintf(`{"session_id":"s1","prompt_id":"p1","transcript_path":%q,"cwd":%q,"stop_hook_active":%v,"last_assistant_message":%q}`, path, work, active, text)
	}
	var codes []int
	for _, in := range []string{stop(false, "done"), stop(false, "done")} {
		var stderr bytes.Buffer
		codes = append(codes, Gate(strings.NewReader(in), &stderr, gateNow, nil))
	}
	if codes[0] != 2 || codes[1] != 0 {
		t.Fatalf("exit codes %v, want the first to block and its duplicate to pass", codes)
	}
	x.tool("Bash", map[string]any{"command": `mem store "x"`})
	x.say("stored")
	if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := Gate(strings.NewReader(stop(true, "stored")), &stderr, gateNow, nil); code != 0 {
		t.Fatalf("the retry's stop: exit %d", code)
	}
	st, _, err := loadGateState(filepath.Join(place.StateDir(), "gate", "s1.json"))
	if err != nil || st.Blocked {
		t.Fatalf("state after the retry %+v %v: the retry's stop was not handled", st, err)
	}
}

func init() {
	// The hooks' tests have no mem binary to commit edits with; the one
	// test of it watches the calls.
	commitEdits = func(locate.Place, []string) error { return nil }
}

// TestGateCommitsEdits: memory files the agent edited in place are handed
// to the committer at the next stop, once, and only the project store's
// (the personal stores are not in git); a failure is logged.
func TestGateCommitsEdits(t *testing.T) {
	work, place := gateRepo(t)
	var calls [][]string
	fail := false
	defer func(f func(locate.Place, []string) error) { commitEdits = f }(commitEdits)
	commitEdits = func(p locate.Place, paths []string) error {
		calls = append(calls, paths)
		if fail {
			return errors.New("commit edited memories: boom")
		}
		return nil
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	x := &gateTx{work: work}
	memory := filepath.Join(place.Store, "vat.md")
	x.edit(memory)
	x.edit("a.go")
	x.write(memory)
	x.say("done")
	stop := func() {
		t.Helper()
		if err := os.WriteFile(path, x.b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		in := fmt.Sprintf(`{"session_id":"s1","transcript_path":%q,"cwd":%q,"stop_hook_active":false}`, path, work)
		Gate(strings.NewReader(in), io.Discard, gateNow, nil)
	}
	stop()
	if len(calls) != 1 || !slices.Equal(calls[0], []string{memory}) {
		t.Fatalf("committer calls %q, want one with %s", calls, memory)
	}
	x.say("nothing new")
	stop()
	if len(calls) != 1 {
		t.Fatalf("a stop without new memory edits committed again: %q", calls)
	}
	fail = true
	x.edit(memory)
	x.say("again")
	stop()
	b, _ := os.ReadFile(filepath.Join(place.StateDir(), "hook.log"))
	if len(calls) != 2 || !bytes.Contains(b, []byte("commit edited memories: boom")) {
		t.Fatalf("calls %q, hook.log %q: want the failure logged", calls, b)
	}
}
