package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	lineUser   = `{"type":"user","sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"run the tests please"}}` + "\n"
	lineBash   = `{"type":"assistant","sessionId":"s1","timestamp":"2026-01-02T10:00:05Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cd /w && go test ./pkg/... -run TestX"}}]}}` + "\n"
	lineFailed = `{"type":"user","sessionId":"s1","timestamp":"2026-01-02T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 1\n--- FAIL: TestX (0.00s)"}]}}` + "\n"
	lineEdit   = `{"type":"assistant","sessionId":"s1","timestamp":"2026-01-02T10:01:00Z","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"/w/pkg/x.go","old_string":"a","new_string":"b"}}]}}` + "\n"
)

// TestUpdateIncremental: a second Update reads only the bytes appended
// since the first; a result arriving in a later read still marks its call
// failed; a half-written line waits; a replaced file is read again.
func TestUpdateIncremental(t *testing.T) {
	src := t.TempDir()
	file := filepath.Join(src, "s1.jsonl")
	write := func(s string, flag int) {
		f, err := os.OpenFile(file, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	x := Open(filepath.Join(t.TempDir(), "transcripts"))
	update := func() Report {
		t.Helper()
		rep, err := x.Update([]string{src})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	write(lineUser+lineBash, os.O_TRUNC)
	if rep := update(); rep.Read != 1 || rep.Lines != 2 || rep.Bytes != int64(len(lineUser+lineBash)) {
		t.Fatalf("first update: %+v", rep)
	}
	if rep := update(); rep.Read != 0 || rep.Bytes != 0 {
		t.Fatalf("unchanged file read again: %+v", rep)
	}

	// The result of t1 and half of the next line.
	write(lineFailed+lineEdit[:40], os.O_APPEND)
	if rep := update(); rep.Lines != 1 || rep.Bytes != int64(len(lineFailed)) {
		t.Fatalf("append: want only the new complete line read, got %+v", rep)
	}
	write(lineEdit[40:], os.O_APPEND)
	if rep := update(); rep.Lines != 1 || rep.Bytes != int64(len(lineEdit)) {
		t.Fatalf("completed line: %+v", rep)
	}

	s, err := x.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Sessions) != 1 || len(s.Prompts) != 1 || len(s.Calls) != 2 || len(s.Errors) != 1 {
		t.Fatalf("sessions %d prompts %d calls %d errors %d", len(s.Sessions), len(s.Prompts), len(s.Calls), len(s.Errors))
	}
	if c := s.Calls[0]; !c.Failed || len(c.Commands) != 1 || c.Commands[0].Norm != "go test <path> -run <arg>" {
		t.Errorf("bash call: %+v", c)
	}
	if e := s.Errors[0]; e.ExitCode != 1 || e.Tool != "Bash" || e.Command != "go test <path> -run <arg>" || !strings.Contains(e.Message, "FAIL: TestX") {
		t.Errorf("error: %+v", e)
	}
	if ss := s.Sessions[0]; ss.ID != "s1" || ss.Calls != 2 || ss.Errors != 1 || ss.First.IsZero() || !ss.Last.After(ss.First) {
		t.Errorf("session: %+v", ss)
	}
	a, err := s.SearchCommand("go test ./other/...")
	if err != nil || a.Times != 1 || len(a.Sessions) != 1 || a.Failed != 1 {
		t.Errorf("SearchCommand: %+v %v", a, err)
	}
	if a := s.Search("FAIL TestX"); len(a.Sessions) != 1 || a.Failed == 0 {
		t.Errorf("Search: %+v", a)
	}

	// Replaced by a shorter file: read again from the start.
	write(lineUser, os.O_TRUNC)
	if rep := update(); rep.Reread != 1 || rep.Lines != 1 {
		t.Fatalf("replaced file: %+v", rep)
	}
	if s, _ := x.Load(); len(s.Calls) != 0 || len(s.Prompts) != 1 {
		t.Errorf("after replace: %d calls, %d prompts", len(s.Calls), len(s.Prompts))
	}

	// Replaced by a longer file whose old offset still starts a line but
	// whose first bytes differ: read again from the start, not appended to.
	write(strings.ReplaceAll(lineUser+lineEdit, `"s1"`, `"s2"`), os.O_TRUNC)
	if rep := update(); rep.Reread != 1 || rep.Lines != 2 {
		t.Fatalf("file replaced by a longer one: %+v", rep)
	}
	if s, _ := x.Load(); len(s.Sessions) != 1 || s.Sessions[0].ID != "s2" {
		t.Errorf("after replace: sessions %+v", s.Sessions)
	}

	// A deleted transcript stays in the index.
	os.Remove(file)
	update()
	if s, _ := x.Load(); len(s.Prompts) != 1 {
		t.Errorf("deleted transcript forgotten")
	}
}
