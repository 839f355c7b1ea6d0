//go:build unix

package modelcmd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A model command may be a script that starts helpers; on timeout the whole
// process group goes, not only the script.
func TestAskKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := filepath.Join(dir, "model.sh")
	body := "#!/bin/sh\nsleep 60 &\necho $! > '" + pidFile + "'\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Command: []string{script}, Timeout: 300 * time.Millisecond}
	var v verdict
	if err := r.Ask(context.Background(), "x", &v); err == nil || !strings.Contains(err.Error(), "no answer within") {
		t.Fatalf("err = %v", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("helper %d of the timed-out model still runs", pid)
		}
	}
}

// A shell script works as a model command: prompt on stdin, answer on stdout.
func TestAskShellScript(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "model.sh")
	body := "#!/bin/sh\ngrep -q 'vat-rounding' || exit 1\nprintf '%s' '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok: {\\\"relation\\\":\\\"duplicate\\\",\\\"confidence\\\":0.9}\"}'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Command: []string{script}}
	var v verdict
	if err := r.Ask(context.Background(), "compare vat-rounding", &v); err != nil || v != (verdict{"duplicate", 0.9}) {
		t.Fatalf("Ask = %+v, %v", v, err)
	}
}
