package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/rawfile"
)

func readAll(t *testing.T, path string) []Entry {
	t.Helper()
	var es []Entry
	next, err := ReadFrom(path, 0, func(e Entry) error { es = append(es, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if next != fi.Size() {
		t.Fatalf("next = %d, want the file size %d", next, fi.Size())
	}
	return es
}

func TestSample(t *testing.T) {
	es := readAll(t, filepath.Join("testdata", "sample.jsonl"))
	if len(es) != 16 {
		t.Fatalf("got %d entries, want 16", len(es))
	}
	type want struct {
		typ, prompt string
		text        []string
		tools       []string // name:command-or-path
		results     int
		hookContext []string
	}
	wants := []want{
		{typ: "summary"},
		{typ: "user", prompt: "Why is VAT off by one cent?"},
		{typ: "assistant"},
		{typ: "assistant", text: []string{"Let me look."}},
		{typ: "assistant", tools: []string{"Bash:grep -rn round shop/"}},
		{typ: "user", results: 1},
		{typ: "assistant", tools: []string{"Edit:/w/shop/tax.py"}},
		{typ: "assistant", tools: []string{"NotebookEdit:/w/nb.ipynb"}},
		{typ: "user"}, // isMeta
		{typ: "user"}, // slash command echo
		{typ: "user"}, // interrupted
		{typ: "user", prompt: "Now also round <b>per line</b> in refunds"},
		{typ: "attachment", hookContext: []string{"mem: vat-rounding-per-line"}},
		{typ: "system"},
		{typ: "user"}, // compact summary
		{typ: "assistant", text: []string{"Done: VAT now rounds per line."}},
	}
	for i, w := range wants {
		e := es[i]
		var tools []string
		for _, u := range e.ToolUses {
			tools = append(tools, u.Name+":"+u.Command+u.FilePath)
		}
		got := want{typ: e.Type, prompt: e.Prompt, text: e.Text, tools: tools, results: len(e.ToolResults), hookContext: e.HookContext}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	if e := es[1]; e.SessionID != "s1" || e.UUID != "u1" || e.Timestamp.IsZero() || e.Offset == 0 {
		t.Errorf("envelope of entry 1: %+v", e)
	}
	if es[2].MessageID != "msg_1" || es[3].MessageID != "msg_1" {
		t.Errorf("message ids: %q %q", es[2].MessageID, es[3].MessageID)
	}
	if es[13].Subtype != "stop_hook_summary" || es[12].HookEvent != "UserPromptSubmit" {
		t.Errorf("subtype %q, hook event %q", es[13].Subtype, es[12].HookEvent)
	}
	if !es[14].IsCompactSummary || !es[8].IsMeta {
		t.Error("flags not read")
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, line string
		wantErr    bool
		check      func(Entry) bool
	}{
		{name: "not json", line: `{"type":"user"`, wantErr: true},
		{name: "array", line: `[1,2]`, wantErr: true},
		{name: "trailing garbage", line: `{"type":"user"} x`, wantErr: true},
		{name: "empty object", line: `{}`, check: func(e Entry) bool { return e.Type == "" }},
		{name: "unknown type", line: `{"type":"queue-operation","operation":"enqueue"}`,
			check: func(e Entry) bool { return e.Type == "queue-operation" }},
		{name: "wrong field types kept partly", line: `{"type":"assistant","uuid":5,"message":{"content":[{"type":"text","text":"hi"}]}}`,
			check: func(e Entry) bool { return e.UUID == "" && len(e.Text) == 1 && e.Text[0] == "hi" }},
		{name: "string content with type error elsewhere", line: `{"type":"user","isMeta":"no","message":{"content":"fix it"}}`,
			check: func(e Entry) bool { return e.Prompt == "fix it" }},
		{name: "content null", line: `{"type":"user","message":{"content":null}}`,
			check: func(e Entry) bool { return e.Prompt == "" }},
		{name: "content number", line: `{"type":"user","message":{"content":7}}`,
			check: func(e Entry) bool { return e.Prompt == "" }},
		{name: "input not an object", line: `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":"ls"}]}}`,
			check: func(e Entry) bool { return len(e.ToolUses) == 1 && e.ToolUses[0].Command == "" }},
		{name: "command wrong type", line: `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":1,"file_path":"/x"}}]}}`,
			check: func(e Entry) bool { return e.ToolUses[0].Command == "" && e.ToolUses[0].FilePath == "/x" }},
		{name: "system reminder only", line: `{"type":"user","message":{"content":"<system-reminder>\nx\n</system-reminder>"}}`,
			check: func(e Entry) bool { return e.Prompt == "" }},
		{name: "text after a system tag is not typed", line: `{"type":"user","message":{"content":"<task-notification>x</task-notification>\nRead the output file"}}`,
			check: func(e Entry) bool { return e.Prompt == "" }},
		{name: "html is kept", line: `{"type":"user","message":{"content":"<div> is not centred</div>"}}`,
			check: func(e Entry) bool { return e.Prompt == "<div> is not centred</div>" }},
		{name: "unclosed tag kept", line: `{"type":"user","message":{"content":"<task-notification> hi"}}`,
			check: func(e Entry) bool { return e.Prompt == "<task-notification> hi" }},
		{name: "bad timestamp", line: `{"type":"user","timestamp":"yesterday"}`,
			check: func(e Entry) bool { return e.Timestamp.IsZero() }},
		{name: "escaped type key", line: `{"typ\u0065":"assistant"}`,
			check: func(e Entry) bool { return e.Type == "assistant" }},
		{name: "attachment content string", line: `{"type":"attachment","attachment":{"type":"hook_additional_context","content":"one"}}`,
			check: func(e Entry) bool { return len(e.HookContext) == 1 && e.HookContext[0] == "one" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := ParseLine([]byte(tt.line))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error, entry %+v", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(e) {
				t.Errorf("unexpected entry %+v", e)
			}
		})
	}
}

func TestSniffType(t *testing.T) {
	tests := []struct {
		line, typ string
		ok        bool
	}{
		{`{"type":"user"}`, "user", true},
		{` { "a" : [1, {"type":"x"}] , "type" : "assistant" } `, "assistant", true},
		{`{"type":"a","type":"b"}`, "a", true},
		{`{"type":7,"type":"b"}`, "", true},
		{`{"type":"user","message":` + "\x00 the rest is not read", "user", true},
		{`{"message":{"type":"assistant"}}`, "", true},
		{`{"s":"a \" quote","type":"user"}`, "user", true},
		{`{"s":"ends in backslash \\","type":"user"}`, "user", true},
		{`{"type":"caf\u00e9"}`, "café", true},
		{`{}`, "", true},
		{``, "", false},
		{`{"message":{"type":"user"`, "", false},
		{`{"a":[}`, "", false},
		{`{"a":1,}`, "", false},
		{`{"a" 1}`, "", false},
		{`{"a":"unterminated}`, "", false},
		{`{"a":1}{"b":2}`, "", false},
	}
	for _, tt := range tests {
		typ, ok := sniffType([]byte(tt.line))
		if typ != tt.typ || ok != tt.ok {
			t.Errorf("sniffType(%s) = %q, %v; want %q, %v", tt.line, typ, ok, tt.typ, tt.ok)
		}
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func appendFile(t *testing.T, path, content string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
}

func TestReadFromIncremental(t *testing.T) {
	l1 := `{"type":"user","uuid":"1"}` + "\n"
	l2 := `{"type":"assistant","uuid":"2"}`
	path := writeFile(t, l1+l2[:10])
	var uuids []string
	collect := func(e Entry) error { uuids = append(uuids, e.UUID); return nil }
	next, err := ReadFrom(path, 0, collect)
	if err != nil || next != int64(len(l1)) {
		t.Fatalf("first read: next %d, err %v; want %d", next, err, len(l1))
	}
	appendFile(t, path, l2[10:]) // complete now but no newline yet
	if next, err = ReadFrom(path, next, collect); err != nil || next != int64(len(l1)) {
		t.Fatalf("second read: next %d, err %v", next, err)
	}
	appendFile(t, path, "\r\n\n")
	if next, err = ReadFrom(path, next, collect); err != nil || next != int64(len(l1)+len(l2)+3) {
		t.Fatalf("third read: next %d, err %v", next, err)
	}
	if strings.Join(uuids, ",") != "1,2" {
		t.Errorf("uuids %v", uuids)
	}
	// Nothing new: same offset, no calls.
	if n2, err := ReadFrom(path, next, collect); err != nil || n2 != next || len(uuids) != 2 {
		t.Errorf("idle read: %d %v %v", n2, err, uuids)
	}
}

func TestReadFromStaleOffset(t *testing.T) {
	path := writeFile(t, `{"type":"user"}`+"\n"+`{"type":"user"}`+"\n")
	for _, off := range []int64{5, 100} {
		_, err := ReadFrom(path, off, func(Entry) error { return nil })
		if !errors.Is(err, ErrStaleOffset) {
			t.Errorf("offset %d: err %v, want ErrStaleOffset", off, err)
		}
	}
	if _, err := ReadFrom(filepath.Join(t.TempDir(), "missing"), 0, func(Entry) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadFromMalformedAndFilter(t *testing.T) {
	path := writeFile(t, strings.Join([]string{
		`{"type":"user","message":{"content":"a"}}`,
		`not json`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"b"}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"c"}]}`, // truncated
		``,
		`{"type":"progress","data":{"x":[1,2,3]}}`,
		`{"type":"user" "broken":1}`,
	}, "\n")+"\n")
	var r Reader
	n := 0
	if _, err := r.Read(path, 0, func(Entry) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 3 || r.Lines != 6 || r.Malformed != 3 || r.Decoded != 3 {
		t.Errorf("all types: n=%d %+v", n, r)
	}
	r = Reader{Types: []string{"assistant"}}
	var texts []string
	if _, err := r.Read(path, 0, func(e Entry) error { texts = append(texts, e.Text...); return nil }); err != nil {
		t.Fatal(err)
	}
	// "not json" fails the sniff, the truncated assistant line the decode;
	// the broken user line is skipped by its type, unread.
	if strings.Join(texts, ",") != "b" || r.Malformed != 2 || r.Decoded != 1 {
		t.Errorf("assistant only: %v %+v", texts, r)
	}
}

func TestReadFromCallbackError(t *testing.T) {
	l1 := `{"type":"user"}` + "\n"
	path := writeFile(t, l1+`{"type":"assistant"}`+"\n")
	stop := errors.New("stop")
	next, err := ReadFrom(path, 0, func(e Entry) error {
		if e.Type == "assistant" {
			return stop
		}
		return nil
	})
	if err != stop || next != int64(len(l1)) {
		t.Errorf("next %d err %v", next, err)
	}
}

func TestReadFromHugeLine(t *testing.T) {
	big := strings.Repeat(`x\"y`, 3<<20/4) // 3 MB of tool output with escapes
	var b strings.Builder
	b.WriteString(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"` + big + `"}]}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"/a","content":"` + big + `"}}]}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"small"}]}}` + "\n")
	path := writeFile(t, b.String())
	es := readAll(t, path)
	if len(es) != 3 || len(es[0].ToolResults) != 1 || len(es[0].ToolResults[0].Content) != len(big)+2 ||
		es[1].ToolUses[0].FilePath != "/a" || es[2].Text[0] != "small" {
		t.Fatalf("huge lines misread: %d entries", len(es))
	}
	text, err := LastAssistantText(path)
	if err != nil || text != "small" {
		t.Errorf("LastAssistantText = %q, %v", text, err)
	}
}

// TestReaderBounds: a line over MaxLine is passed over (and counted), not
// held; more than Limit new bytes are not read at all; a resynced offset
// inside a line starts at the next one; a FIFO or a device is refused.
func TestReaderBounds(t *testing.T) {
	small := `{"type":"assistant","message":{"content":[{"type":"text","text":"small"}]}}` + "\n"
	huge := `{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("x", 300<<10) + `"}]}}` + "\n"
	path := writeFile(t, small+huge+small)
	var texts []string
	collect := func(e Entry) error { texts = append(texts, e.Text...); return nil }
	r := Reader{MaxLine: 100 << 10}
	next, err := r.Read(path, 0, collect)
	if err != nil || next != int64(len(small+huge+small)) || strings.Join(texts, ",") != "small,small" || r.Long != 1 {
		t.Errorf("MaxLine: next %d, err %v, texts %v, %+v", next, err, texts, r)
	}

	r = Reader{Limit: int64(len(small))}
	next, err = r.Read(path, 0, collect)
	if !errors.Is(err, ErrTooMuch) || next != int64(len(small+huge+small)) || r.Lines != 0 {
		t.Errorf("Limit: next %d, err %v, %+v", next, err, r)
	}

	texts = nil
	mid := int64(len(small) + 10) // inside the huge line
	if _, err := ReadFrom(path, mid, collect); !errors.Is(err, ErrStaleOffset) {
		t.Errorf("an offset inside a line without Resync: err %v", err)
	}
	r = Reader{Resync: true}
	if next, err = r.Read(path, mid, collect); err != nil || next != int64(len(small+huge+small)) || strings.Join(texts, ",") != "small" {
		t.Errorf("Resync: next %d, err %v, texts %v", next, err, texts)
	}

	for _, p := range []string{os.DevNull, t.TempDir()} {
		if _, err := ReadFrom(p, 0, collect); !errors.Is(err, rawfile.ErrNotRegular) {
			t.Errorf("ReadFrom(%s): err %v, want ErrNotRegular", p, err)
		}
		if _, err := LastAssistantText(p); !errors.Is(err, rawfile.ErrNotRegular) {
			t.Errorf("LastAssistantText(%s): err %v, want ErrNotRegular", p, err)
		}
	}
}

func TestLastAssistantText(t *testing.T) {
	asst := func(text string) string {
		b, _ := json.Marshal(text)
		return `{"type":"assistant","message":{"content":[{"type":"text","text":` + string(b) + `}]}}` + "\n"
	}
	tool := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls"}}]}}` + "\n"
	result := func(n int) string {
		return `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"` + strings.Repeat("z", n) + `"}]}}` + "\n"
	}
	tests := []struct{ name, content, want string }{
		{"empty file", "", ""},
		{"no assistant", `{"type":"user","message":{"content":"hi"}}` + "\n", ""},
		{"last of several", asst("one") + tool + asst("two") + result(10), "two"},
		{"blank text skipped", asst("one") + asst("\n\n"), "one"},
		{"api error skipped", asst("real") + `{"type":"assistant","isApiErrorMessage":true,"message":{"content":[{"type":"text","text":"API Error: 500"}]}}` + "\n", "real"},
		{"behind a 1 MB result", asst("before") + tool + result(1<<20) + result(300<<10), "before"},
		{"behind many small results, across windows", asst("before") + tool + strings.Repeat(result(1000), 300), "before"},
		{"across the first window's start", asst(strings.Repeat("a", 1000)) + result(tailWindow-500), strings.Repeat("a", 1000)},
		{"across the second window's start", asst(strings.Repeat("b", 1000)) + result(2*tailWindow-500), strings.Repeat("b", 1000)},
		{"beyond the last 4 MB", asst("too far") + tool + result(maxTailWindow), ""},
		{"beyond the last 4 MB, in one unfinished line", asst("too far") + tool + strings.TrimSuffix(result(maxTailWindow), "\n"), ""},
		{"partial last line", asst("whole") + `{"type":"assistant","message":{"content":[{"type":"text","text":"half`, "whole"},
		{"no final newline", asst("a") + strings.TrimSuffix(asst("b"), "\n"), "b"},
		{"start of file, no newline at all", strings.TrimSuffix(asst("only"), "\n"), "only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LastAssistantText(writeFile(t, tt.content))
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := LastAssistantText(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing file: no error")
	}
}

// FuzzParseLine checks ParseLine against encoding/json: it accepts exactly
// the lines that are one JSON object, and its Type is the object's first
// top-level "type" when that is a string.
func FuzzParseLine(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "sample.jsonl")); err == nil {
		for _, line := range bytes.Split(b, []byte("\n")) {
			f.Add(line)
		}
	}
	for _, s := range []string{`{"type":"a","type":1}`, `{"typ\u0065":"x"}`, `{"a":"\\"}`, `{"type":"\ud800"}`, `[]`, `{"a":[}`, "{\"type\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := ParseLine(line)
		var m map[string]json.RawMessage
		isObject := json.Unmarshal(line, &m) == nil && m != nil
		if isObject != (err == nil) {
			t.Fatalf("ParseLine err = %v, but encoding/json says object = %v", err, isObject)
		}
		if !isObject {
			return
		}
		want := firstType(t, line)
		if e.Type != want {
			t.Fatalf("Type = %q, want %q", e.Type, want)
		}
		if typ, ok := sniffType(line); !ok || typ != want {
			t.Fatalf("sniffType = %q, %v; want %q", typ, ok, want)
		}
	})
}

// firstType walks a valid JSON object's top-level keys with encoding/json.
func firstType(t *testing.T, line []byte) string {
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if k == "type" {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return ""
			}
			return s
		}
	}
	return ""
}

// FuzzReadFrom: reading a file as it grows, cut anywhere, yields the same
// entries and final offset as reading it whole, and offsets always fall on
// line starts.
func FuzzReadFrom(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "sample.jsonl")); err == nil {
		f.Add(b, uint16(100))
	}
	f.Add([]byte("{\"type\":\"user\"}\n{bad\n\n{}"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		dir := t.TempDir()
		whole := filepath.Join(dir, "whole")
		os.WriteFile(whole, data, 0o644)
		var all []int64
		end, err := ReadFrom(whole, 0, func(e Entry) error { all = append(all, e.Offset); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if end > 0 && data[end-1] != '\n' || end < int64(len(data)) && bytes.IndexByte(data[end:], '\n') >= 0 {
			t.Fatalf("end %d is not just past the last newline", end)
		}
		grow := filepath.Join(dir, "grow")
		c := int(cut) % (len(data) + 1)
		os.WriteFile(grow, data[:c], 0o644)
		var parts []int64
		collect := func(e Entry) error { parts = append(parts, e.Offset); return nil }
		mid, err := ReadFrom(grow, 0, collect)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(grow, data, 0o644)
		if end2, err := ReadFrom(grow, mid, collect); err != nil || end2 != end {
			t.Fatalf("grown read: end %d, %v; want %d", end2, err, end)
		}
		if !reflect.DeepEqual(all, parts) {
			t.Fatalf("entries at %v whole, %v grown", all, parts)
		}
	})
}

// FuzzAssistantText holds the prompt hook's reader of assistant lines to
// ParseLine: the same last non-blank text block, and nothing where ParseLine
// refuses the line or marks it an API error. Objects with duplicate keys
// (which encoding/json merges in ways no writer relies on, and Claude Code
// never writes) are left out of the comparison.
func FuzzAssistantText(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "sample.jsonl")); err == nil {
		for _, line := range bytes.Split(b, []byte("\n")) {
			f.Add(line)
		}
	}
	for _, s := range []string{
		`{"type":"assistant","message":{"content":[{"type":"text","text":"done"},{"type":"tool_use","id":"t"}]}}`,
		`{"type":"assistant","isApiErrorMessage":true,"message":{"content":[{"type":"text","text":"API Error"}]}}`,
		`{"type":"assistant","Message":{"Content":[{"Type":"text","Text":"folded"},{"type":"text","text":"  "}]}}`,
		`{"type":"assistant","message":{"content":"a string"}}`, `{"type":"assistant","message":null}`,
		`{"type":"assistant","message":{"content":[1,null,{"type":"text","text":null}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if hasDuplicateKeys(line) {
			return
		}
		e, err := ParseLine(line)
		want := ""
		if err == nil && e.Type == "assistant" && !e.IsAPIError {
			for i := len(e.Text) - 1; i >= 0; i-- {
				if strings.TrimSpace(e.Text[i]) != "" {
					want = e.Text[i]
					break
				}
			}
		}
		if got := assistantText(line); got != want {
			t.Fatalf("assistantText = %q, ParseLine's last text %q", got, want)
		}
	})
}

// hasDuplicateKeys reports whether some object in a valid JSON text repeats
// a key, exactly or as encoding/json matches keys (ignoring case). Invalid
// JSON reports false.
func hasDuplicateKeys(data []byte) bool {
	if !json.Valid(data) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys      []string // nil for an array
		object    bool
		expectKey bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			stack = append(stack, frame{object: d == '{', expectKey: d == '{'})
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
		} else if k, ok := tok.(string); ok && len(stack) > 0 && stack[len(stack)-1].expectKey {
			top := &stack[len(stack)-1]
			for _, seen := range top.keys {
				if strings.EqualFold(seen, k) {
					return true
				}
			}
			top.keys = append(top.keys, k)
			top.expectKey = false
			continue
		}
		// A value ended: the enclosing object expects a key next.
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expectKey = true
		}
	}
}

func TestToolResultText(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{`"exit status 1"`, "exit status 1"},
		{`[{"type":"text","text":"one"},{"type":"image","source":{}},{"type":"text","text":""},{"type":"text","text":"two"}]`, "one\ntwo"},
		{`null`, ""},
		{`{"odd":true}`, ""},
	} {
		if got := (ToolResult{Content: json.RawMessage(c.content)}).Text(); got != c.want {
			t.Errorf("Text(%s) = %q, want %q", c.content, got, c.want)
		}
	}
}

// BenchmarkLastAssistantTextBehindLongLine: the text before a 3 MB tool
// result, which spans every window but the last; each of those windows reads
// the line again (some 7 MB of reads in all, see LastAssistantText).
func BenchmarkLastAssistantTextBehindLongLine(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	content := `{"type":"assistant","message":{"content":[{"type":"text","text":"before"}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"` + strings.Repeat("z", 3<<20) + `"}]}}` + "\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if text, err := LastAssistantText(path); err != nil || text != "before" {
			b.Fatalf("%q, %v", text, err)
		}
	}
}
