//go:build unix

package gitstore

import (
	"context"
	"testing"
)

// TestLockNamed: a named lock excludes its own kind only: the store's lock
// stays free while it is held, and TryLockNamed says "taken" without waiting.
func TestLockNamed(t *testing.T) {
	_, s := newRepo(t)
	unlock, err := s.LockNamed(context.Background(), "model.lock")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.TryLockNamed("model.lock"); ok || err != nil {
		t.Fatalf("TryLockNamed while held: ok %v, err %v; want false, nil", ok, err)
	}
	storeUnlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatalf("the store's lock waits on another lock: %v", err)
	}
	storeUnlock()
	unlock()
	again, ok, err := s.TryLockNamed("model.lock")
	if !ok || err != nil {
		t.Fatalf("TryLockNamed once released: ok %v, err %v", ok, err)
	}
	again()
}
