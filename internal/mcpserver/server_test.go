package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/gittest"
	"github.com/mem-dev/mem/internal/mcpserver/mcptool"
)

// TestMain isolates git from this machine's configuration.
func TestMain(m *testing.M) {
	gittest.Main(m, "[init]\n\tdefaultBranch = main\n")
}

// git runs git in dir and returns its trimmed output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a git repository with one commit and an empty store at
// .claude/agent-memory, and returns its work tree.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	git(t, dir, "config", "user.name", "Test User")
	git(t, dir, "config", "user.email", "test@example.com")
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "README.md")
	git(t, dir, "commit", "-q", "-m", "initial")
	if err := os.MkdirAll(filepath.Join(dir, ".claude", "agent-memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// connect serves a fresh repository's store and returns a client session to
// it, over the SDK's in-memory transports.
func connect(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	dir := newRepo(t)
	r, err := mem.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(r, "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, dir
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured content.
func ok[Out any](t *testing.T, cs *mcp.ClientSession, tool string, args any) (Out, string) {
	t.Helper()
	res := call(t, cs, tool, args)
	var out Out
	if res.IsError {
		t.Fatalf("%s(%v): tool error: %s", tool, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, b, err)
	}
	return out, text(res)
}

// text joins a result's text content.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func commits(t *testing.T, dir string) int {
	t.Helper()
	var n int
	fmt.Sscan(git(t, dir, "rev-list", "--count", "HEAD"), &n)
	return n
}

func slugs(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	l, _ := ok[listed](t, cs, "memory_list", nil)
	var out []string
	for _, e := range l.Memories {
		out = append(out, e.Slug)
	}
	return out
}

var vat = map[string]any{
	"name":        "Spanish VAT rounds per line",
	"description": "VAT is rounded per order line, never on the order total",
	"class":       "gotcha",
	"importance":  7,
	"tags":        []string{"checkout", "vat"},
	"content":     "Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py.",
}

func TestListTools(t *testing.T) {
	cs, _ := connect(t)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"memory_store":  {"content"},
		"context_query": {"query"},
		"memory_forget": {"slug"},
		"memory_update": {"slug"},
		"memory_show":   {"slug"},
		"memory_list":   nil,
	}
	got := map[string][]string{}
	schemas := map[string]map[string]any{}
	for _, tool := range res.Tools {
		var s struct {
			Type       string         `json:"type"`
			Required   []string       `json:"required"`
			Properties map[string]any `json:"properties"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: input schema %s: %v", tool.Name, b, err)
		}
		if s.Type != "object" || tool.Description == "" || tool.OutputSchema == nil {
			t.Errorf("%s: type %q, description %q, output schema %v", tool.Name, s.Type, tool.Description, tool.OutputSchema)
		}
		got[tool.Name] = s.Required
		schemas[tool.Name] = s.Properties
	}
	for name, req := range want {
		r, found := got[name]
		if !found {
			t.Errorf("tool %s is missing", name)
		} else if !slices.Equal(r, req) {
			t.Errorf("%s requires %v, want %v", name, r, req)
		}
	}
	if len(got) != len(want) {
		t.Errorf("tools = %v, want %d", got, len(want))
	}
	// The hooks know mem's tools by mcptool's names: each one served must be there.
	served := slices.Sorted(maps.Keys(got))
	if named := slices.Sorted(slices.Values(mcptool.All)); !slices.Equal(served, named) {
		t.Errorf("the server serves %v, mcptool.All names %v", served, named)
	}
	store := schemas["memory_store"]
	for _, arg := range []string{"content", "name", "description", "class", "importance", "tags"} {
		if store[arg] == nil {
			t.Errorf("memory_store has no %q argument", arg)
		}
	}
	schema, _ := json.Marshal(store["class"])
	for _, c := range class.Names {
		if !strings.Contains(string(schema), `"`+c+`"`) {
			t.Errorf("class schema %s lacks %q", schema, c)
		}
	}
	imp, _ := json.Marshal(store["importance"])
	if !strings.Contains(string(imp), `"minimum":1`) || !strings.Contains(string(imp), `"maximum":10`) {
		t.Errorf("importance schema %s is not 1-10", imp)
	}
}

func TestStoreCommitsAndLists(t *testing.T) {
	cs, dir := connect(t)
	before := commits(t, dir)
	w, txt := ok[written](t, cs, "memory_store", vat)
	if w.Slug != "spanish-vat-rounds-per-line" || w.Path != ".claude/agent-memory/spanish-vat-rounds-per-line.md" || !w.Committed || w.Commit == "" {
		t.Errorf("stored %+v", w)
	}
	if !strings.Contains(txt, w.Slug) || !strings.Contains(txt, "committed") {
		t.Errorf("text = %q", txt)
	}
	if n := commits(t, dir); n != before+1 {
		t.Errorf("%d new commits, want 1", n-before)
	}
	msg := git(t, dir, "log", "-1", "--format=%B")
	if !strings.Contains(msg, "Mem-Action: store") {
		t.Errorf("commit message %q has no Mem-Action: store", msg)
	}
	if head := git(t, dir, "rev-parse", "HEAD"); head != w.Commit {
		t.Errorf("commit %s, HEAD %s", w.Commit, head)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after store:\n%s", st)
	}

	l, txt := ok[listed](t, cs, "memory_list", map[string]any{})
	if len(l.Memories) != 1 {
		t.Fatalf("list = %+v", l)
	}
	e := l.Memories[0]
	if e.Slug != w.Slug || e.Class != "gotcha" || e.Importance != 7 || !slices.Equal(e.Tags, []string{"checkout", "vat"}) {
		t.Errorf("entry = %+v", e)
	}
	if !strings.Contains(txt, w.Slug) {
		t.Errorf("list text = %q", txt)
	}

	s, txt := ok[shown](t, cs, "memory_show", map[string]any{"slug": w.Slug})
	if !strings.Contains(s.Text, "off by one cent") || !strings.Contains(s.Text, "class: gotcha") || txt != s.Text {
		t.Errorf("show = %+v, text %q", s, txt)
	}
}

func TestStoreDuplicate(t *testing.T) {
	cs, dir := connect(t)
	ok[written](t, cs, "memory_store", vat)
	before := commits(t, dir)
	res := call(t, cs, "memory_store", map[string]any{"name": vat["name"], "content": "something else"})
	if !res.IsError {
		t.Fatalf("duplicate stored: %s", text(res))
	}
	if msg := text(res); !strings.Contains(msg, "spanish-vat-rounds-per-line") || !strings.Contains(msg, "another name") || !strings.Contains(msg, "memory_show") {
		t.Errorf("duplicate message = %q", msg)
	}
	if commits(t, dir) != before {
		t.Error("a duplicate made a commit")
	}
}

func TestContextQuery(t *testing.T) {
	cs, _ := connect(t)
	for _, m := range []map[string]any{
		vat,
		{"name": "Deploy with make release", "class": "procedure", "tags": []string{"deploy"},
			"content": "Run `make release` from main; it tags, builds the image and rolls out to staging first."},
		{"name": "Use pnpm not npm", "class": "preference",
			"content": "The frontend uses pnpm workspaces; npm install breaks the lockfile."},
		{"name": "Postgres migrations run in CI", "class": "fact", "tags": []string{"database"},
			"content": "Migrations under db/migrations run automatically in the CI deploy job; never run them by hand."},
	} {
		ok[written](t, cs, "memory_store", m)
	}

	q, txt := ok[queryResult](t, cs, "context_query", map[string]any{
		"query": "Spanish orders come out one cent off; how is VAT rounded in checkout?"})
	if len(q.Results) == 0 || q.Results[0].Slug != "spanish-vat-rounds-per-line" {
		t.Fatalf("query results = %+v", q.Results)
	}
	h := q.Results[0]
	if h.Path == "" || h.Class != "gotcha" || h.Score <= 0 || h.Name == "" || h.Labels == nil || h.Snippet == "" {
		t.Errorf("hit = %+v", h)
	}
	if !strings.Contains(txt, h.Slug) || !strings.Contains(txt, "memory_show") {
		t.Errorf("query text = %q", txt)
	}
	if len(q.Results) > defaultLimit {
		t.Errorf("%d results, default limit %d", len(q.Results), defaultLimit)
	}

	res := call(t, cs, "context_query", map[string]any{"query": "thanks!", "limit": 10})
	if res.IsError {
		t.Fatalf("thanks!: %s", text(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if string(raw) != `{"results":[]}` {
		t.Errorf("thanks! structured = %s, want empty results", raw)
	}
	if !strings.Contains(text(res), "No memory is relevant enough") {
		t.Errorf("thanks! text = %q", text(res))
	}
}

func TestForget(t *testing.T) {
	cs, dir := connect(t)
	ok[written](t, cs, "memory_store", vat)
	ok[written](t, cs, "memory_store", map[string]any{"content": "Staging is at staging.example.com"})
	before := commits(t, dir)
	w, txt := ok[written](t, cs, "memory_forget", map[string]any{"slug": "spanish-vat-rounds-per-line"})
	if !w.Committed || !strings.Contains(txt, "mem undo") {
		t.Errorf("forget = %+v, %q", w, txt)
	}
	if commits(t, dir) != before+1 || !strings.Contains(git(t, dir, "log", "-1", "--format=%B"), "Mem-Action: forget") {
		t.Error("forget did not make one Mem-Action: forget commit")
	}
	if got := slugs(t, cs); len(got) != 1 || slices.Contains(got, "spanish-vat-rounds-per-line") {
		t.Errorf("list after forget = %v", got)
	}
	q, _ := ok[queryResult](t, cs, "context_query", map[string]any{"query": "how is Spanish VAT rounded on orders?"})
	for _, h := range q.Results {
		if h.Slug == "spanish-vat-rounds-per-line" {
			t.Errorf("a forgotten memory was found: %+v", h)
		}
	}
	if res := call(t, cs, "memory_forget", map[string]any{"slug": "spanish-vat-rounds-per-line"}); !res.IsError {
		t.Errorf("forgetting twice: %s", text(res))
	}
	// Storing it again says it is forgotten and which undo brings it back.
	res := call(t, cs, "memory_store", map[string]any{"name": vat["name"], "content": "again"})
	if msg := text(res); !res.IsError || !strings.Contains(msg, "is forgotten") || !strings.Contains(msg, "mem undo "+short(w.Commit)) {
		t.Errorf("store of a forgotten memory = %v %q", res.IsError, msg)
	}
	if res := call(t, cs, "memory_forget", map[string]any{"slug": "no-such-memory"}); !res.IsError || !strings.Contains(text(res), "memory_list") {
		t.Errorf("forget missing = %v %q", res.IsError, text(res))
	}
}

// TestUpdate: memory_update changes the fields it is given and keeps the
// rest of the file, as one Mem-Action: update commit; what store would
// refuse, update refuses too.
func TestUpdate(t *testing.T) {
	cs, dir := connect(t)
	ok[written](t, cs, "memory_store", vat)
	slug := "spanish-vat-rounds-per-line"
	path := filepath.Join(dir, ".claude/agent-memory", slug+".md")
	before := commits(t, dir)
	w, txt := ok[written](t, cs, "memory_update", map[string]any{"slug": slug,
		"content": "Round VAT per line; refunds are rounded the same way.", "tags": []string{"vat", "refunds"}, "importance": 8})
	if !w.Committed || !strings.Contains(txt, "Updated "+slug) {
		t.Errorf("update = %+v, %q", w, txt)
	}
	if commits(t, dir) != before+1 || !strings.Contains(git(t, dir, "log", "-1", "--format=%B"), "Mem-Action: update") {
		t.Error("update did not make one Mem-Action: update commit")
	}
	file, _ := os.ReadFile(path)
	for _, want := range []string{"name: Spanish VAT rounds per line", "class: gotcha", "importance: 8", "tags: [vat, refunds]", "refunds are rounded the same way", "modified: "} {
		if !strings.Contains(string(file), want) {
			t.Errorf("updated file lacks %q:\n%s", want, file)
		}
	}
	if strings.Contains(string(file), "off by one cent") {
		t.Errorf("the old body stayed:\n%s", file)
	}
	for _, bad := range []map[string]any{
		{"slug": slug},
		{"slug": slug, "importance": 0},
		{"slug": slug, "class": "vibe"},
		{"slug": slug, "content": "the prod admin password is Xq7p" + "L2vR9"},
		{"slug": slug, "name": "red \x1b[31m"},
		{"slug": "no-such-memory", "content": "x"},
	} {
		if res := call(t, cs, "memory_update", bad); !res.IsError {
			t.Errorf("update %v was accepted: %s", bad, text(res))
		}
	}
	if commits(t, dir) != before+1 {
		t.Error("a refused update committed")
	}
}

func TestShowMissing(t *testing.T) {
	cs, _ := connect(t)
	res := call(t, cs, "memory_show", map[string]any{"slug": "no-such-memory"})
	if !res.IsError {
		t.Fatalf("show of a missing slug: %s", text(res))
	}
	if msg := text(res); !strings.Contains(msg, `"no-such-memory"`) || !strings.Contains(msg, "memory_list") {
		t.Errorf("message = %q", msg)
	}
}

func TestBadArguments(t *testing.T) {
	cs, dir := connect(t)
	before := commits(t, dir)
	for _, tc := range []struct {
		tool string
		args any
		want string // in the message
	}{
		{"memory_store", map[string]any{"name": "no content"}, `memory_store needs the argument "content"`},
		{"memory_store", map[string]any{}, `needs the argument "content"`},
		{"memory_store", nil, `needs the argument "content"`},
		{"memory_store", map[string]any{"content": "x", "importance": 42}, `"importance" must be from 1 to 10, not 42`},
		{"memory_store", map[string]any{"content": "x", "importance": 0}, `"importance" must be from 1 to 10, not 0`},
		{"memory_store", map[string]any{"content": "x", "importance": 2.5}, `"importance" must be a whole number from 1 to 10`},
		{"memory_store", map[string]any{"content": "x", "importance": "7"}, `"importance" must be a whole number`},
		{"memory_store", map[string]any{"content": "x", "class": "banana"}, `"class" must be one of rule, fact, event, gotcha, reference, procedure, preference, decision, not "banana"`},
		{"memory_store", map[string]any{"content": "x", "tags": "a,b"}, `"tags" must be an array of strings`},
		{"memory_store", map[string]any{"content": "x", "tags": []any{"a", 1}}, `"tags" must be an array of strings`},
		{"memory_store", map[string]any{"content": "   \n"}, `"content" is empty`},
		{"memory_store", map[string]any{"content": 12}, `"content" must be a string`},
		{"memory_store", map[string]any{"content": "x", "body": "y"}, `memory_store has no argument "body"; its arguments are content, name,`},
		{"context_query", map[string]any{}, `context_query needs the argument "query"`},
		{"context_query", map[string]any{"query": "vat", "limit": 42}, `"limit" must be from 1 to 10, not 42`},
		{"context_query", map[string]any{"query": "  "}, `"query" is empty`},
		{"memory_show", map[string]any{}, `needs the argument "slug"`},
		{"memory_show", map[string]any{"slug": "../../README"}, "is not a memory slug"},
		{"memory_forget", map[string]any{"slug": "../README"}, "is not a memory slug"},
		{"memory_forget", map[string]any{"slug": ""}, `"slug" is empty`},
		{"memory_list", map[string]any{"all": true}, `memory_list takes no arguments, but was given "all"`},
	} {
		b, _ := json.Marshal(tc.args)
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError {
			t.Errorf("%s %s: no error: %s", tc.tool, b, text(res))
			continue
		}
		if msg := text(res); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, b, msg, tc.want)
		}
	}
	if n := commits(t, dir); n != before {
		t.Errorf("bad arguments made %d commits", n-before)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".claude", "agent-memory", "*.md"))
	if len(files) != 0 {
		t.Errorf("bad arguments wrote %v", files)
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	cs, _ := connect(t)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "memory_nuke", Arguments: map[string]any{}}); err == nil {
		t.Error("an unknown tool was not a protocol error")
	}
}

func TestNullMeansAbsent(t *testing.T) {
	cs, _ := connect(t)
	w, _ := ok[written](t, cs, "memory_store", map[string]any{
		"content": "Feature flags live in config/flags.yaml", "name": nil, "class": nil, "importance": nil, "tags": nil})
	if w.Slug != "feature-flags-live-in-config-flags-yaml" {
		t.Errorf("slug = %q", w.Slug)
	}
	l, _ := ok[listed](t, cs, "memory_list", nil)
	if len(l.Memories) != 1 || l.Memories[0].Class != "fact" || l.Memories[0].Importance != 5 {
		t.Errorf("list = %+v", l.Memories)
	}
}

func TestEmptyStore(t *testing.T) {
	cs, _ := connect(t)
	l, txt := ok[listed](t, cs, "memory_list", nil)
	if l.Memories == nil || len(l.Memories) != 0 || !strings.Contains(txt, "no memories") {
		t.Errorf("list = %+v, %q", l, txt)
	}
	q, txt := ok[queryResult](t, cs, "context_query", map[string]any{"query": "how is VAT rounded?"})
	if len(q.Results) != 0 || !strings.Contains(txt, "No memory") {
		t.Errorf("query on an empty store = %+v, %q", q, txt)
	}
}

// TestServe runs Serve over pipes, as `mem mcp` does over stdin and stdout,
// and checks that it returns nil when the client hangs up.
func TestServe(t *testing.T) {
	dir := newRepo(t)
	r, err := mem.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), r, "v9", inR, outW) }()

	ctx := t.Context()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info := cs.InitializeResult().ServerInfo; info.Name != "mem" || info.Version != "v9" {
		t.Errorf("server info = %+v", info)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "context_query") {
		t.Errorf("instructions = %q", cs.InitializeResult().Instructions)
	}
	w, _ := ok[written](t, cs, "memory_store", vat)
	if !w.Committed {
		t.Errorf("store over stdio = %+v", w)
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil when the client hangs up", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the client hung up")
	}
}

// TestServeCancel checks that Serve stops, without error, when its context is
// cancelled.
func TestServeCancel(t *testing.T) {
	dir := newRepo(t)
	r, err := mem.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, r, "v9", inR, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v, want nil on cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
}

// TestConcurrentStores checks that calls in flight together all land, each
// as its own commit.
func TestConcurrentStores(t *testing.T) {
	cs, dir := connect(t)
	before := commits(t, dir)
	const n = 6
	errs := make(chan string, n)
	for i := range n {
		go func() {
			res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "memory_store",
				Arguments: map[string]any{"content": fmt.Sprintf("Service %d listens on port %d", i, 8000+i)}})
			switch {
			case err != nil:
				errs <- err.Error()
			case res.IsError:
				errs <- text(res)
			default:
				errs <- ""
			}
		}()
	}
	for range n {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
	if got := commits(t, dir) - before; got != n {
		t.Errorf("%d commits, want %d", got, n)
	}
	if got := slugs(t, cs); len(got) != n {
		t.Errorf("list = %v", got)
	}
}

// TestGuardRecovers checks that a panic in a call becomes a tool error.
func TestGuardRecovers(t *testing.T) {
	s := &server{tools: map[string]toolSchemas{}}
	h := s.guard(func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("boom") })
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "memory_list"}}
	res, err := h(t.Context(), "tools/call", req)
	if err != nil {
		t.Fatalf("protocol error %v", err)
	}
	if r, ok := res.(*mcp.CallToolResult); !ok || !r.IsError || !strings.Contains(text(r), "boom") {
		t.Errorf("result = %#v", res)
	}
	if _, err := h(t.Context(), "tools/list", &mcp.ListToolsRequest{}); err == nil {
		t.Error("a panic in tools/list was not an error")
	}
}

// TestLongSessionKeepsNoMappings: the server lives as long as the agent's
// session, so every query must release the index file it mapped.
func TestLongSessionKeepsNoMappings(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/maps")
	}
	cs, _ := connect(t)
	ok[written](t, cs, "memory_store", vat)
	mapped := func() int {
		b, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Skip(err)
		}
		return strings.Count(string(b), ".bin")
	}
	ok[queryResult](t, cs, "context_query", map[string]any{"query": "spanish vat rounding"})
	before := mapped()
	for i := range 50 {
		ok[queryResult](t, cs, "context_query", map[string]any{"query": "spanish vat rounding"})
		ok[written](t, cs, "memory_store", map[string]any{"content": fmt.Sprintf("note %d", i)})
	}
	if after := mapped(); after > before {
		t.Errorf("index mappings grew from %d to %d over 50 queries and stores", before, after)
	}
}

// TestServeAnswersBatch: a client that writes its requests and closes its
// end gets every answer before Serve returns, even for a slow tool call.
func TestServeAnswersBatch(t *testing.T) {
	r, err := mem.Open(newRepo(t), "")
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"Round VAT per line."}}}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := Serve(t.Context(), r, "test", strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{`"id":1`, `"id":2`, `"id":3`} {
		if !strings.Contains(out.String(), id) {
			t.Errorf("no answer with %s before Serve returned:\n%s", id, out.String())
		}
	}
}

// TestServeBadFrames: a line that is not JSON, JSON that is not a message,
// a message over the frame limit and a request whose id is null are each
// answered with a JSON-RPC error (with the request's id when it can be
// read), and the session goes on to answer what follows.
func TestServeBadFrames(t *testing.T) {
	defer func(n int) { maxFrame = n }(maxFrame)
	maxFrame = 1 << 10
	r, err := mem.Open(newRepo(t), "")
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		`42`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"` + strings.Repeat("x", 5000) + `"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"` + strings.Repeat("y", 200),
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":"a request whose id is null"}}}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := Serve(t.Context(), r, "test", strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"line 3 is not JSON"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"line 4 is not a JSON-RPC 2.0 message`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"message on line 5 is over 1024 bytes: not read"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"line 6 is not JSON"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"line 8 is a request whose id is null: give it a string or a number, or no id for a notification"}}`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
		}
	}
	if entries, _, err := r.List(t.Context()); err != nil || len(entries) != 0 {
		t.Errorf("the store holds %d memories (%v): a request answered with an error was run", len(entries), err)
	}
}

// TestDrainWaitsForWhatIsAnswered: at the end of input the server waits for
// the calls the SDK will answer, and only those, whatever their ids.
func TestDrainWaitsForWhatIsAnswered(t *testing.T) {
	tests := []struct {
		name    string
		in, out []string
		want    int
	}{
		{"a call answered", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, []string{`{"jsonrpc":"2.0","id":1,"result":{}}`}, 0},
		{"a call unanswered", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
			[]string{`{"jsonrpc":"2.0","id":2,"result":{}}`}, 1},
		{"a null id is no call", []string{`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`}, nil, 0},
		{"a notification", []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, nil, 0},
		{"the client's response", []string{`{"jsonrpc":"2.0","id":4,"result":{}}`}, nil, 0},
		{"an id reused in flight is answered once", []string{`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`},
			[]string{`{"jsonrpc":"2.0","id":7,"result":{}}`}, 0},
		{"a string id is not a number", []string{`{"jsonrpc":"2.0","id":"1","method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
			[]string{`{"jsonrpc":"2.0","id":1,"result":{}}`}, 1},
		{"a number as the SDK answers it", []string{`{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2e0,"method":"tools/list"}`},
			[]string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"x"}}`}, 0},
	}
	for _, tt := range tests {
		d := &drain{ctx: t.Context(), in: strings.NewReader(strings.Join(tt.in, "\n") + "\n"), out: io.Discard}
		if _, err := d.Read(make([]byte, 4096)); err != nil {
			t.Fatal(err)
		}
		for _, line := range tt.out {
			if _, err := d.Write([]byte(line + "\n")); err != nil {
				t.Fatal(err)
			}
		}
		if got := d.unanswered(); got != tt.want {
			t.Errorf("%s: %d calls wait for an answer, want %d", tt.name, got, tt.want)
		}
	}
}

// TestShowResolves: memory_show takes what context_query and memory_list
// print (a path, the start of a slug) and answers with the slug it found;
// a slug that fits nothing names the nearest.
func TestShowResolves(t *testing.T) {
	cs, _ := connect(t)
	w, _ := ok[written](t, cs, "memory_store", vat)
	for _, ref := range []string{w.Path, "spanish-vat"} {
		s, _ := ok[shown](t, cs, "memory_show", map[string]any{"slug": ref})
		if s.Slug != w.Slug || !strings.Contains(s.Text, "off by one cent") {
			t.Errorf("memory_show %q = %+v", ref, s)
		}
	}
	res := call(t, cs, "memory_forget", map[string]any{"slug": "spanish-vat-rounds-per-lines"})
	if msg := text(res); !res.IsError || !strings.Contains(msg, "did you mean spanish-vat-rounds-per-line?") {
		t.Errorf("memory_forget of a near slug: %q", msg)
	}
}
