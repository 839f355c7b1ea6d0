package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestClaim: the first claim of a key acts and a duplicate within the
// window does not; another key, another event, an expired window, or a
// claim pushed out by claimSlots newer ones acts again; a damaged or
// missing claims file never stops a handler; the first claim removes the
// marker files an older mem-hook left.
func TestClaim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")                     // made by the first claim
	old := filepath.Join(dir, "once", "prompt-0123456789abcdef") // an older mem-hook's marker
	os.MkdirAll(filepath.Dir(old), 0o755)
	os.WriteFile(old, nil, 0o644)
	claim := func(event, key string, window time.Duration) bool {
		return Claim(dir, event, []byte(key), window)
	}
	steps := []struct {
		name       string
		event, key string
		window     time.Duration
		want       bool
		beforehand func()
	}{
		{name: "first", event: "prompt", key: "s1\x00p1", window: OnceUnique, want: true},
		{name: "duplicate", event: "prompt", key: "s1\x00p1", window: OnceUnique, want: false},
		{name: "next prompt", event: "prompt", key: "s1\x00p2", window: OnceUnique, want: true},
		{name: "same key, other event", event: "stop", key: "s1\x00p1", window: OnceUnique, want: true},
		{name: "window passed", event: "prompt", key: "s1\x00p1", window: time.Nanosecond, want: true},
		{name: "damaged file", event: "prompt", key: "s1\x00p3", window: OnceUnique, want: true,
			beforehand: func() { os.WriteFile(filepath.Join(dir, "claims"), []byte("not a ring"), 0o644) }},
		{name: "duplicate after damage", event: "prompt", key: "s1\x00p3", window: OnceUnique, want: false},
		{name: "pushed out", event: "prompt", key: "s1\x00p3", window: OnceUnique, want: true,
			beforehand: func() {
				for i := range claimSlots {
					claim("prompt", fmt.Sprint("other", i), OnceUnique)
				}
			}},
	}
	for _, s := range steps {
		if s.beforehand != nil {
			s.beforehand()
		}
		if got := claim(s.event, s.key, s.window); got != s.want {
			t.Errorf("%s: Claim = %v, want %v", s.name, got, s.want)
		}
	}
	if _, err := os.Stat(filepath.Dir(old)); err == nil {
		t.Error("the older markers' directory is still there after the first claim")
	}
	if fi, err := os.Stat(filepath.Join(dir, "claims")); err != nil || fi.Size() != claimSlots*claimSize {
		t.Errorf("claims file: %v, %v; want %d bytes, whatever was claimed", fi, err, claimSlots*claimSize)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if !Claim(filepath.Join(file, "under"), "prompt", []byte("k"), OnceUnique) {
		t.Error("a claim that cannot be recorded must act")
	}
}

// TestClaimRace: handlers that start together with the same input (the
// plugin's and the settings') act once between them.
func TestClaimRace(t *testing.T) {
	dir := t.TempDir()
	for round := range 20 {
		var acted atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if Claim(dir, "prompt", []byte(fmt.Sprint("race", round)), OnceUnique) {
					acted.Add(1)
				}
			})
		}
		wg.Wait()
		if n := acted.Load(); n != 1 {
			t.Fatalf("round %d: %d of 8 handlers acted, want 1", round, n)
		}
	}
}
