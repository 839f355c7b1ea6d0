package rawfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	for _, line := range []string{"one\n", "two\n"} {
		f, err := Open(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n" {
		t.Errorf("appended %q", b)
	}
	if b, err := ReadFile(p); err != nil || string(b) != "one\ntwo\n" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	big := filepath.Join(t.TempDir(), "big")
	want := strings.Repeat("settings ", 3000)
	if err := os.WriteFile(big, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(big); err != nil || string(b) != want {
		t.Errorf("ReadFile of %d bytes = %d bytes, %v", len(want), len(b), err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: err = %v, want ErrNotExist", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
}

// TestReadAll: a reader longer than the buffer's capacity is read whole.
func TestReadAll(t *testing.T) {
	want := strings.Repeat("prompt ", 5000)
	for _, capacity := range []int{0, 16, len(want), len(want) + 1} {
		got, err := ReadAll(strings.NewReader(want), make([]byte, 0, capacity))
		if err != nil || string(got) != want {
			t.Errorf("capacity %d: read %d bytes of %d, %v", capacity, len(got), len(want), err)
		}
	}
}

// TestOpenRefusesNonRegular: a FIFO, a device or a directory fails at once
// with ErrNotRegular, for reading and for appending, instead of waiting for
// a writer or reading without end.
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	paths := []string{dir, os.DevNull}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		paths = append(paths, fifo)
	}
	for _, p := range paths {
		if f, err := Open(p, os.O_RDONLY, 0); !errors.Is(err, ErrNotRegular) {
			if f != nil {
				f.Close()
			}
			t.Errorf("Open(%s) for reading: err = %v, want ErrNotRegular", p, err)
		}
		// For appending, the system may refuse first (EISDIR, ENXIO for a
		// FIFO without a reader): any error will do, as long as it comes.
		if f, err := Open(p, os.O_APPEND|os.O_WRONLY, 0); err == nil {
			f.Close()
			t.Errorf("Open(%s) for appending succeeded", p)
		}
		if _, err := ReadFile(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): err = %v, want ErrNotRegular", p, err)
		}
	}
}
