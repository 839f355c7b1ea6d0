package memuse

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/transcript"
)

func TestRuns(t *testing.T) {
	tests := []struct {
		cmd           string
		store, search bool
	}{
		{`mem store "x"`, true, false},
		{`mem search vat`, false, true},
		{`cd /w && mem store --class gotcha --name "a" "b"`, true, false},
		{`./bin/mem store -`, true, false},
		{`/usr/local/bin/mem --store .mem store x`, true, false},
		{`mem --store=.mem search x`, false, true},
		{`go run ./cmd/mem search "x" | head`, false, true},
		{`out=$(mem search x); mem store "$out"`, true, true},
		{"echo hi\nmem store y", true, false},
		{`(cd a; mem search q)`, false, true},
		{"`mem search q`", false, true},
		{`grep "mem store" README.md`, false, false},
		{`echo 'mem search x'`, false, false},
		{`mem show store`, false, false},
		{`mem`, false, false},
		{`memo store`, false, false},
		{`mem-store x`, false, false},
		{`ls mem`, false, false},
		{`git commit -m "mem: store vat"`, false, false},
		{`mem\ store`, false, false}, // one word "mem store"
		{`"mem" store x`, false, false},
		{`echo "unterminated mem store`, false, false},
		{`echo 'unterminated`, false, false},
		{`mem search \`, false, true},
		{`mem -C /w search x`, false, true},
		{`mem -C store search x`, false, true}, // -C takes a value
		// Read as a shell reads them (package shell): a heredoc's body and a
		// comment run nothing, and a substitution inside double quotes runs.
		{"cat <<'EOF' > plan.md\nmem store the plan\nEOF", false, false},
		{"make test # then mem store what broke", false, false},
		{`echo "found: $(mem search vat)"`, false, true},
	}
	for _, tt := range tests {
		store, search := storeSearch(tt.cmd)
		if store != tt.store || search != tt.search {
			t.Errorf("storeSearch(%q) = %v, %v; want %v, %v", tt.cmd, store, search, tt.store, tt.search)
		}
	}
}

// FuzzRuns: any command line is read without panicking, and what
// follows `cd x && ` reads the same as on its own.
func FuzzRuns(f *testing.F) {
	for _, s := range []string{`mem store "x"`, `./bin/mem --store s search q`, `echo "a \" mem store"`, "a `mem search` b", `$(mem store`, `'`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		store, search := storeSearch(cmd)
		s2, q2 := storeSearch("cd x && " + cmd)
		if store != s2 || search != q2 {
			t.Fatalf("%q: %v %v alone, %v %v after cd", cmd, store, search, s2, q2)
		}
	})
}

// storeSearch reports whether a shell command line runs `mem store` and
// `mem search`, as Runs finds them.
func storeSearch(cmd string) (store, search bool) {
	for _, r := range Runs(cmd) {
		store = store || r.Sub == "store"
		search = search || r.Sub == "search"
	}
	return store, search
}

func TestRunsArgs(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{`mem show spanish-vat`, "show[spanish-vat]"},
		{`cd /w && mem --store .mem -C /w show "a b" c | head`, "show[a b c]"},
		{`mem search x; mem show y`, "search[x] show[y]"},
		{`echo "mem show x"`, ""},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Runs(tt.cmd) {
			got = append(got, r.Sub+"["+strings.Join(r.Args, " ")+"]")
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Runs(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

// TestOf: each way of reaching the store, through the CLI in a Bash
// command or mem's MCP tools, and each file a call edits or reads.
func TestOf(t *testing.T) {
	bash := func(cmd string) transcript.ToolUse { return transcript.ToolUse{Name: "Bash", Command: cmd} }
	tests := []struct {
		name string
		u    transcript.ToolUse
		want []Use
	}{
		{"mem store", bash(`mem store --class gotcha "x"`), []Use{{Kind: Stored}}},
		{"search then show", bash(`mem search vat && mem show vat-rounding.md other --json`),
			[]Use{{Kind: Searched}, {Kind: Shown, Slugs: []string{"vat-rounding", "other", "--json"}}}},
		{"another command", bash(`mem log`), nil},
		{"no mem", bash(`go test ./...`), nil},
		{"memory_store", transcript.ToolUse{Name: "mcp__mem__memory_store"}, []Use{{Kind: Stored}}},
		{"context_query", transcript.ToolUse{Name: "mcp__mem__context_query"}, []Use{{Kind: Searched}}},
		{"memory_show", transcript.ToolUse{Name: "mcp__mem__memory_show", Input: json.RawMessage(`{"slug":"vat-rounding"}`)},
			[]Use{{Kind: Shown, Slugs: []string{"vat-rounding"}}}},
		{"memory_show without a slug", transcript.ToolUse{Name: "mcp__mem__memory_show", Input: json.RawMessage(`{}`)}, []Use{{Kind: Shown}}},
		{"memory_list", transcript.ToolUse{Name: "mcp__mem__memory_list"}, nil},
		{"another server", transcript.ToolUse{Name: "mcp__notes__search"}, nil},
		{"edit", transcript.ToolUse{Name: "MultiEdit", FilePath: "a/b.go"}, []Use{{Kind: Edited, Path: "a/b.go"}}},
		{"notebook", transcript.ToolUse{Name: "NotebookEdit", FilePath: "n.ipynb"}, []Use{{Kind: Edited, Path: "n.ipynb"}}},
		{"edit of nothing", transcript.ToolUse{Name: "Write"}, nil},
		{"read", transcript.ToolUse{Name: "Read", FilePath: ".claude/agent-memory/vat.md"}, []Use{{Kind: Read, Path: ".claude/agent-memory/vat.md"}}},
		{"read of nothing", transcript.ToolUse{Name: "Read"}, nil},
	}
	for _, tt := range tests {
		got := Of(tt.u)
		if !slices.EqualFunc(got, tt.want, func(a, b Use) bool {
			return a.Kind == b.Kind && a.Path == b.Path && slices.Equal(a.Slugs, b.Slugs)
		}) {
			t.Errorf("%s: Of = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
