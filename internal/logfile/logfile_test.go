package logfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The decision log is written on every prompt: past maxBytes it moves
// to injections.jsonl.1 (replacing the older one) and starts again.
func TestLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem", "injections.jsonl")
	if err := Append(path, "first"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".1", []byte("oldest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := strings.Repeat("x", maxBytes)
	for _, line := range []string{full, "after"} {
		if err := Append(path, line); err != nil {
			t.Fatal(err)
		}
	}
	old, _ := os.ReadFile(path + ".1")
	if !strings.HasPrefix(string(old), "first\nxxx") || len(old) != len("first\n")+maxBytes+1 {
		t.Errorf("rotated log: %d bytes starting %.10q, want the first line and the long one", len(old), old)
	}
	if cur, _ := os.ReadFile(path); string(cur) != "after\n" {
		t.Errorf("current log = %.40q, want only the line after the rotation", cur)
	}
	if err := Append(path, "small"); err != nil {
		t.Fatal(err)
	}
	if cur, _ := os.ReadFile(path); string(cur) != "after\nsmall\n" {
		t.Errorf("a log under the limit was rotated: %q", cur)
	}
}

// A dated log counts only its lines since a time, and names the last.
func TestDatedSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hook.log")
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at  time.Time
		msg string
	}{{now.Add(-30 * 24 * time.Hour), "old"}, {now.Add(-time.Hour), "recent\nsecond line"}, {now, "last"}} {
		if err := AppendDated(path, c.at, c.msg); err != nil {
			t.Fatal(err)
		}
	}
	if n, last := Since(path, now.Add(-7*24*time.Hour)); n != 2 || last != "last" {
		t.Errorf("Since = %d, %q; want 2, \"last\"", n, last)
	}
	if n, _ := Since(filepath.Join(t.TempDir(), "missing"), now); n != 0 {
		t.Errorf("a missing log counts %d", n)
	}
}
