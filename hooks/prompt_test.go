package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/search"
)

var update = flag.Bool("update", false, "rewrite golden files")

var promptNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// promptRepo makes a work tree with a store and a search cache built from
// docs, and returns its root.
func promptRepo(t *testing.T, docs []search.Doc) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{".git", ".claude/agent-memory"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	place, err := locate.Find(root, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(place.StateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := search.Build(docs).WriteFile(place.IndexPath(), nil); err != nil {
		t.Fatal(err)
	}
	return root
}

var promptDocs = []search.Doc{
	{Slug: "vat-rounding", Path: ".claude/agent-memory/vat-rounding.md", Store: "project",
		Name: "Spanish VAT rounds per line", Description: "VAT is rounded per order line, never on the order total",
		Class: "gotcha", Importance: 7, Modified: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
		Tags: []string{"checkout", "vat"}, Body: "Rounding the total is off by one cent on multi-item orders. See shop/checkout/tax.py."},
	{Slug: "staging-db-host", Path: ".claude/agent-memory/staging-db-host.md", Store: "project",
		Name: "Staging database host", Description: "Staging Postgres lives on atlas-staging.internal, port 5432",
		Class: "fact", Importance: 8, Modified: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		SupersededBy: "staging-db-moved", Unverified: []string{"path infra/staging.tf does not exist (2026-11-21)"},
		Tags: []string{"staging", "postgres"}, Body: "Connect to the staging postgres database on atlas-staging.internal with the readonly role."},
	{Slug: "MEMORY.md#L12", Path: ".claude/agent-memory/MEMORY.md", Store: "project", Line: 12,
		Name: "Notes", Class: "fact", Body: "The staging database is reset every Sunday night; never keep test data there."},
	{Slug: "never-deploy-fridays", Path: ".claude/agent-memory/never-deploy-fridays.md", Store: "project",
		Name: "No production deploys on Fridays", Description: "Nothing ships to production on a Friday; staging is fine",
		Class: "rule", Importance: 8, Modified: time.Date(2025, 5, 2, 0, 0, 0, 0, time.UTC),
		Tags: []string{"deploy", "release"}, Body: "Since the April outage production deploys stop on Fridays."},
}

// TestPromptGolden runs the hook on prompts and compares its stdout with
// golden files (refresh with -update): what the agent actually receives.
func TestPromptGolden(t *testing.T) {
	root := promptRepo(t, promptDocs)
	tests := []struct{ name, prompt string }{
		{"gotcha", "why are spanish orders off by a cent at checkout? the vat total looks wrong"},
		{"labels", "how do i connect to the atlas-staging postgres host with the readonly role"},
		{"rule", "can you deploy this to production on friday"},
		{"silent-filler", "ok go ahead"},
		{"silent-offtopic", "what's the difference between a mutex and a semaphore"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"prompt":` + quote(tt.prompt) + `,"cwd":` + quote(root) + `,"session_id":"s1"}`
			var out bytes.Buffer
			Prompt(strings.NewReader(in), &out, nil, promptNow)
			golden := filepath.Join("testdata", "prompt", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("hook output differs from %s:\n got %s\nwant %s", golden, out.Bytes(), want)
			}
			if strings.HasPrefix(tt.name, "silent") && out.Len() != 0 {
				t.Errorf("%q must stay silent", tt.prompt)
			}
		})
	}
	// Every decision, injection or silence, is logged for review.
	place, _ := locate.Find(root, "")
	log, err := os.ReadFile(filepath.Join(place.StateDir(), "injections.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(log, []byte("\n")); n != len(tests) {
		t.Errorf("injections.jsonl has %d lines, want %d:\n%s", n, len(tests), log)
	}
	if !bytes.Contains(log, []byte(`"injected":false`)) || !bytes.Contains(log, []byte(`"slug":"vat-rounding"`)) {
		t.Errorf("injections.jsonl lacks the decisions:\n%s", log)
	}
}

// TestPromptFailsOpen: on errors of our own, a panic included (it would exit
// 2, which blocks the user's prompt), the hook prints nothing and leaves one
// line in the hook log.
func TestPromptFailsOpen(t *testing.T) {
	root := promptRepo(t, promptDocs)
	place, _ := locate.Find(root, "")
	if err := os.WriteFile(place.IndexPath(), []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	failing := func(locate.Place) error { return errors.New("mem binary not found") }
	panicking := func(locate.Place) error { panic("index out of range") }
	topical := `{"prompt":"spanish vat rounding","cwd":` + quote(root) + `}`
	tests := []struct {
		name, in string
		refresh  Refresher
		log      string // "" when no place is known to log in
	}{
		{"malformed json", `{"prompt": `, failing, ""},
		{"corrupt cache and no refresh", topical, failing, "prompt: refresh index: mem binary not found"},
		{"a panic of ours", topical, panicking, "prompt: panic: index out of range"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		Prompt(strings.NewReader(tt.in), &out, tt.refresh, promptNow)
		if out.Len() != 0 {
			t.Errorf("%s: printed %q, want nothing", tt.name, out.String())
		}
		log, _ := os.ReadFile(filepath.Join(place.StateDir(), "hook.log"))
		if tt.log != "" && !bytes.Contains(log, []byte(tt.log)) {
			t.Errorf("%s: hook.log = %q, want %q", tt.name, log, tt.log)
		}
	}
}

// TestPromptWithinBudget: a refresh that never returns holds the prompt up
// no longer than RefreshWait; the hook then answers from the cache as it is
// (or, with none, prints nothing) and says so in its log, and so it does
// when the refresh is busy or slow.
func TestPromptWithinBudget(t *testing.T) {
	defer func(b time.Duration) { RefreshWait = b }(RefreshWait)
	RefreshWait = 50 * time.Millisecond
	root := promptRepo(t, promptDocs)
	place, _ := locate.Find(root, "")
	in := `{"prompt":"spanish vat rounding","cwd":` + quote(root) + `}`
	logged := func() string {
		b, _ := os.ReadFile(filepath.Join(place.StateDir(), "hook.log"))
		return string(b)
	}

	os.Remove(place.IndexPath())
	never := make(chan struct{}) // never closed: the refresh stays hung
	var out bytes.Buffer
	Prompt(strings.NewReader(in), &out, func(locate.Place) error { <-never; return nil }, promptNow)
	if out.Len() != 0 || !strings.Contains(logged(), "prompt: the refresh takes longer than a prompt may wait and there is no cache yet: answered nothing") {
		t.Errorf("a hung refresh: printed %q, hook.log %q", out.String(), logged())
	}

	for i, err := range []error{ErrRefreshBusy, ErrRefreshSlow, nil} {
		// A stale cache: one whose stamps no longer match.
		if err := search.Build(promptDocs).WriteFile(place.IndexPath(), []search.Source{search.Stat(root, search.SourceDir)}); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, fmt.Sprint("touched", i)), nil, 0o644)
		refresh := func(locate.Place) error { return err }
		want := ""
		switch err {
		case nil:
			refresh = func(locate.Place) error { <-never; return nil }
			want = ErrRefreshSlow.Error() + ": answered from the cache as it was"
		default:
			want = err.Error() + ": answered from the cache as it was"
		}
		out.Reset()
		os.Remove(filepath.Join(place.StateDir(), "hook.log"))
		Prompt(strings.NewReader(in), &out, refresh, promptNow)
		if !strings.Contains(out.String(), "vat-rounding.md") || !strings.Contains(logged(), want) {
			t.Errorf("%v: printed %q, hook.log %q", err, out.String(), logged())
		}
	}
}

// TestPromptNamesVersionSkew: a mem from another version refreshes the
// cache under a name this mem-hook does not look for; the hook fails open
// and its log says what to do rather than "no such file".
func TestPromptNamesVersionSkew(t *testing.T) {
	root := promptRepo(t, promptDocs)
	place, _ := locate.Find(root, "")
	os.Remove(place.IndexPath())
	elsewhere := func(p locate.Place) error {
		return search.Build(promptDocs).WriteFile(filepath.Join(p.StateDir(), "index-0000000000000000.bin"), nil)
	}
	var out bytes.Buffer
	in := `{"prompt":"spanish vat rounding off by a cent","cwd":` + quote(root) + `}`
	Prompt(strings.NewReader(in), &out, elsewhere, promptNow)
	log, _ := os.ReadFile(filepath.Join(place.StateDir(), "hook.log"))
	if out.Len() != 0 || !bytes.Contains(log, []byte("install mem and mem-hook from the same version")) {
		t.Errorf("printed %q; hook.log = %q", out.String(), log)
	}
}

// TestPromptRefreshesStaleCache: a corrupt or missing cache is rebuilt
// through the Refresher, then answered.
func TestPromptRefreshesStaleCache(t *testing.T) {
	root := promptRepo(t, promptDocs)
	place, _ := locate.Find(root, "")
	os.Remove(place.IndexPath())
	refreshed := 0
	rebuild := func(p locate.Place) error {
		refreshed++
		return search.Build(promptDocs).WriteFile(p.IndexPath(), nil)
	}
	var out bytes.Buffer
	in := `{"prompt":"spanish vat rounding off by a cent","cwd":` + quote(root) + `}`
	Prompt(strings.NewReader(in), &out, rebuild, promptNow)
	if refreshed != 1 || !strings.Contains(out.String(), "vat-rounding.md") {
		t.Errorf("refreshed %d times, output %q", refreshed, out.String())
	}
}

func TestAge(t *testing.T) {
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, ""},
		{promptNow.Add(-2 * time.Hour), "from today"},
		{promptNow.AddDate(0, 0, -1), "1 day old"},
		{promptNow.AddDate(0, 0, -9), "9 days old"},
		{promptNow.AddDate(0, 0, -30), "4 weeks old"},
		{promptNow.AddDate(0, -7, 0), "7 months old"},
		{promptNow.AddDate(-3, 0, 0), "3 years old"},
		{promptNow.AddDate(0, 0, 3), "dated in the future"},
	}
	for _, tt := range tests {
		if got := Age(tt.t, promptNow); got != tt.want {
			t.Errorf("Age(%v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// TestContextJSONIsJSON: the hand-written encoder agrees with encoding/json
// on what Claude Code reads back.
func TestContextJSONIsJSON(t *testing.T) {
	for _, text := range []string{
		"plain", "quotes \" and \\ backslashes", "lines\nand\ttabs\r", "<slug> & html",
		"control \x01\x1f", "invalid \xff utf-8", "line sep \u2028 para \u2029", "émoji 🦀",
	} {
		var got struct {
			H struct {
				Event   string `json:"hookEventName"`
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		out := ContextJSON("UserPromptSubmit", text)
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q: %v\n%s", text, err, out)
		}
		want := strings.ToValidUTF8(text, "\uFFFD")
		if got.H.Context != want {
			t.Errorf("round trip of %q = %q", text, got.H.Context)
		}
	}
}

func FuzzContextJSON(f *testing.F) {
	f.Add("a \"quoted\" <b>\n")
	f.Fuzz(func(t *testing.T, s string) {
		var v map[string]map[string]string
		if err := json.Unmarshal(ContextJSON("E", s), &v); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if got := v["hookSpecificOutput"]["additionalContext"]; got != strings.ToValidUTF8(s, "\uFFFD") {
			t.Fatalf("%q became %q", s, got)
		}
	})
}

// FuzzParsePromptInput holds the hand-written decoder of the hook's input to
// encoding/json: the same inputs are refused and the same fields read.
func FuzzParsePromptInput(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"UserPromptSubmit","prompt":"why is \"tax.py\" off by a cent?"}`,
		`{"PROMPT":"case","prompt":null,"cwd":1}`, `null`, `[]`, `{"prompt":"a","prompt":"b"}`, `{"prompt":"\ud83d"}`, `{"x":{"y":[1,{"z":null}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want PromptInput
		werr := json.Unmarshal(data, &want)
		got, err := parsePromptInput(data)
		if (werr == nil) != (err == nil) {
			t.Fatalf("%q: encoding/json error %v, parsePromptInput error %v", data, werr, err)
		}
		if err == nil && got != want {
			t.Fatalf("%q: got %+v, encoding/json %+v", data, got, want)
		}
	})
}

// TestPromptWithoutStore: in a repository that has no store the hook says
// nothing and writes nothing, not even its decision log.
func TestPromptWithoutStore(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"spanish vat rounding", "ok go ahead"} {
		var out bytes.Buffer
		Prompt(strings.NewReader(`{"prompt":`+quote(prompt)+`,"cwd":`+quote(root)+`}`), &out, func(locate.Place) error {
			t.Errorf("%q: refresh called without a store", prompt)
			return nil
		}, promptNow)
		if out.Len() != 0 {
			t.Errorf("%q: printed %q", prompt, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "mem")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf(".git/mem exists (%v): the hook wrote into a repository without a store", err)
	}
}

// TestRenderBudget: three memories with long descriptions and long matching
// lines stay within the budget, and each still shows both of its lines.
func TestRenderBudget(t *testing.T) {
	long := strings.Repeat("word ", 200)
	var results []search.Result
	for _, slug := range []string{"a", "b", "c"} {
		results = append(results, search.Result{Slug: slug, Path: ".claude/agent-memory/" + slug + ".md",
			Name: "Memory " + slug, Class: "fact", Snippet: "summary " + long + "\nline " + long})
	}
	out := Render(results, promptNow)
	if len(out) > contextBudget {
		t.Errorf("rendered %d characters, budget %d:\n%s", len(out), contextBudget, out)
	}
	for _, want := range []string{"\n  summary word", "\n  line word"} {
		if n := strings.Count(out, want); n != 3 {
			t.Errorf("%q appears %d times, want 3:\n%s", want, n, out)
		}
	}
}

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"- **storageAdapter**: SSR-safe wrapper at `src/infra/storageAdapter.ts`.", "storageAdapter: SSR-safe wrapper at `src/infra/storageAdapter.ts`."},
		{"* **Bug**: `ChatScroll.tsx:50` kills the observer", "Bug: `ChatScroll.tsx:50` kills the observer"},
		{"- pass `**kwargs` and `__init__` **as is**", "pass `**kwargs` and `__init__` as is"},
		{"1. Spec referenced `tilePanel()`", "1. Spec referenced `tilePanel()`"},
		{"VAT is rounded per order line - never on the total", "VAT is rounded per order line - never on the total"},
		{"-5% is a discount", "-5% is a discount"},
	} {
		if got := plain(c.in); got != c.want {
			t.Errorf("plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPromptOnce: a prompt handled twice (mem's plugin and the project's
// settings both run the hook) is answered once; without a prompt_id, which
// older Claude Code does not send, every run answers.
func TestPromptOnce(t *testing.T) {
	root := promptRepo(t, promptDocs)
	prompt := quote("why are spanish orders off by a cent at checkout? the vat total looks wrong")
	tests := []struct {
		name, in string
		want     []bool // printed context, run by run
	}{
		{"same prompt_id", `{"prompt":` + prompt + `,"cwd":` + quote(root) + `,"session_id":"s1","prompt_id":"p1"}`, []bool{true, false}},
		{"next prompt_id", `{"prompt":` + prompt + `,"cwd":` + quote(root) + `,"session_id":"s1","prompt_id":"p2"}`, []bool{true, false}},
		{"no prompt_id", `{"prompt":` + prompt + `,"cwd":` + quote(root) + `,"session_id":"s1"}`, []bool{true, true}},
	}
	for _, tt := range tests {
		for i, want := range tt.want {
			var out bytes.Buffer
			Prompt(strings.NewReader(tt.in), &out, nil, promptNow)
			if got := out.Len() > 0; got != want {
				t.Errorf("%s, run %d: printed %v, want %v", tt.name, i+1, got, want)
			}
		}
	}
}
