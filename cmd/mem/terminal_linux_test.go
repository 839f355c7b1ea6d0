package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/mem-dev/mem/internal/background"
)

// openPty opens a pseudo-terminal: what a person types goes into term (as
// into a terminal's keyboard), and tty is the terminal a command reads.
func openPty(t *testing.T) (term, tty *os.File) {
	t.Helper()
	term, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	var n uint32
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, term.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("TIOCGPTN: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, term.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("TIOCSPTLCK: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return term, tty
}

// A command that reads stdin says on a terminal what it waits for and how
// to end it (store, the hooks, mcp), or refuses with its usage where no
// person would type it (capture, learn); from a pipe or /dev/null it reads
// in silence.
func TestStdinOnATerminal(t *testing.T) {
	home := t.TempDir()
	gitconfig := filepath.Join(home, ".gitconfig")
	os.WriteFile(gitconfig, []byte("[user]\n\tname = Ada Tester\n\temail = ada@example.com\n"), 0o644)
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", gitconfig)
	t.Setenv("MEM_STORE", "")
	t.Setenv(background.Env, "off")
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "-b", "main", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if code := run([]string{"-C", repo, "init"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("mem init failed")
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()

	tests := []struct {
		name     string
		args     []string
		terminal bool     // stdin is a terminal, else a pipe holding typed
		stdin    *os.File // else: this file (/dev/null)
		typed    string   // what the person types (or the pipe holds)
		code     int
		stderr   string // a line stderr holds; "" for none
	}{
		{"store on a terminal", []string{"store", "--name", "Port one"}, true, nil, "Postgres listens on 5433.\n\x04", 0, typeMemory},
		{"store -", []string{"store", "--name", "Port two", "-"}, true, nil, "Redis listens on 6380.\n\x04", 0, typeMemory},
		{"store from a pipe", []string{"store", "--name", "Port three"}, false, nil, "MySQL listens on 3307.\n", 0, ""},
		{"store from /dev/null", []string{"store", "--name", "Port four"}, false, null, "", 1, ""},
		{"capture", []string{"capture"}, true, nil, "\x04", 1, "mem: hint: usage: mem capture --transcript PATH [flags]; Claude Code's hooks send its path on stdin instead"},
		{"learn", []string{"learn"}, true, nil, "\x04", 1, "mem: hint: usage: mem learn --transcript PATH [flags]; Claude Code's hooks send its path on stdin instead"},
		{"capture from a pipe", []string{"capture"}, false, nil, "", 1, "mem: error: no transcript: give --transcript PATH or hook JSON with transcript_path on stdin"},
		{"hook prompt", []string{"hook", "prompt"}, true, nil, "\x04", 0, fmt.Sprintf(typeProgram, "hook prompt")},
		{"gate", []string{"gate"}, true, nil, "\x04", 0, fmt.Sprintf(typeProgram, "gate")},
		{"hook prompt from a pipe", []string{"hook", "prompt"}, false, nil, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin *os.File
			switch {
			case tt.terminal:
				term, tty := openPty(t)
				if _, err := term.WriteString(tt.typed); err != nil {
					t.Fatal(err)
				}
				stdin = tty
			case tt.stdin != nil:
				stdin = tt.stdin
			default:
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				w.WriteString(tt.typed)
				w.Close()
				defer r.Close()
				stdin = r
			}
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"-C", repo}, tt.args...), stdin, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr.String())
			}
			for _, said := range []string{typeMemory, "mem: hint: usage: mem", "reads what its client sends"} {
				if tt.stderr == "" && strings.Contains(stderr.String(), said) {
					t.Errorf("stderr %q says %q off a terminal", stderr.String(), said)
				}
			}
			if code == 0 && tt.args[0] == "store" {
				slug := strings.TrimSpace(stdout.String())
				data, err := os.ReadFile(filepath.Join(repo, ".claude", "agent-memory", slug+".md"))
				if body, _, _ := strings.Cut(tt.typed, "\n"); err != nil || !bytes.Contains(data, []byte(body+"\n")) {
					t.Errorf("stored %q: %q, %v", slug, data, err)
				}
			}
			if tt.stderr != "" && !strings.Contains(stderr.String(), tt.stderr+"\n") {
				t.Errorf("stderr %q does not hold the line %q", stderr.String(), tt.stderr)
			}
		})
	}
}

// isTerminal sees the terminal through the writer every command prints to.
func TestIsTerminal(t *testing.T) {
	_, tty := openPty(t)
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tt := range []struct {
		name string
		f    any
		want bool
	}{
		{"a terminal", tty, true},
		{"a terminal behind termSafe", &termSafe{w: tty}, true},
		{"/dev/null", null, false},
		{"a buffer", &bytes.Buffer{}, false},
		{"a buffer behind termSafe", &termSafe{w: &bytes.Buffer{}}, false},
	} {
		if got := isTerminal(tt.f); got != tt.want {
			t.Errorf("%s: isTerminal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
