package logfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The decision log is written on every prompt: past MaxBytes it moves
// to injections.jsonl.1 (replacing the older one) and starts again.
func TestLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem", "injections.jsonl")
	if err := Append(path, "first"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".1", []byte("oldest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := strings.Repeat("x", MaxBytes)
	for _, line := range []string{full, "after"} {
		if err := Append(path, line); err != nil {
			t.Fatal(err)
		}
	}
	old, _ := os.ReadFile(path + ".1")
	if !strings.HasPrefix(string(old), "first\nxxx") || len(old) != len("first\n")+MaxBytes+1 {
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
