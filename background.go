package mem

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
)

// Locks of the offline passes, under the repository's state directory
// (<git-common-dir>/mem/), apart from the store's write lock so that no
// writer ever waits on a model.
const (
	// ModelLock is held by whatever pass asks a model (enrich, curate,
	// verify, capture, the sweep): at most one model process per repository
	// at a time.
	ModelLock = "model.lock"
)

// afterWrite calls Repo.AfterWrite, when set, after a commit that may leave
// a memory without current aliases.
func (r *Repo) afterWrite() {
	if r.AfterWrite != nil {
		r.AfterWrite()
	}
}

// LockModel takes the repository's model lock (ModelLock), waiting until it
// is free or ctx is done.
func (r *Repo) LockModel(ctx context.Context) (unlock func(), err error) {
	return r.files.LockNamed(ctx, ModelLock)
}

// TryLockModel takes the model lock when it is free and reports false
// when another pass holds it.
func (r *Repo) TryLockModel() (unlock func(), ok bool, err error) {
	return r.files.TryLockNamed(ModelLock)
}

// LockNamed takes another lock of the repository's state directory, such
// as learning's, waiting until it is free or ctx is done.
func (r *Repo) LockNamed(ctx context.Context, name string) (unlock func(), err error) {
	return r.files.LockNamed(ctx, name)
}

// StateDir is the repository's directory for mem's own state: caches,
// locks, logs, the sweep's last run (<git-common-dir>/mem/).
func (r *Repo) StateDir() string { return r.files.StateDir() }

// enrichFiles names the background enrichment's lock and its "more to do"
// marker for this store (a repository may hold several stores).
func (r *Repo) enrichFiles() (lock, pending string) {
	h := fnv.New32a()
	h.Write([]byte(r.Place.Store))
	id := fmt.Sprintf("%08x", h.Sum32())
	return "enrich-" + id + ".lock", filepath.Join(r.StateDir(), "enrich-"+id+".pending")
}

// RequestEnrich marks that the store has memories to enrich, for the
// background enrichment to pick up (EnrichPending). Call it before starting
// one: a run already going sees the mark when it ends and goes round again.
func (r *Repo) RequestEnrich() error {
	_, pending := r.enrichFiles()
	if err := os.MkdirAll(filepath.Dir(pending), 0o755); err != nil {
		return err
	}
	return os.WriteFile(pending, nil, 0o644)
}

// EnrichPending is the background enrichment: while the store is marked
// (RequestEnrich), it enriches every memory whose aliases are missing or
// stale, holding the model lock while it asks (never the store's lock but
// for each write). It returns at once, having done nothing, when another
// background enrichment of the store is running or waiting: that one will
// see the mark. A store with nothing to enrich never asks o.Model, which
// may be nil: only a memory to enrich makes a missing model an error. The
// error that ends a round is given to failed while the run still holds its
// lock, so whoever waits for the run to end sees what it reported.
func (r *Repo) EnrichPending(ctx context.Context, o EnrichOptions, failed func(error)) ([]Enriched, error) {
	lock, pending := r.enrichFiles()
	var out []Enriched
	for {
		unlock, ok, err := r.files.TryLockNamed(lock)
		if err != nil || !ok {
			return out, err
		}
		if _, err := os.Stat(pending); errors.Is(err, fs.ErrNotExist) {
			unlock()
			return out, nil
		}
		done, err := r.enrichRound(ctx, o, pending)
		out = append(out, done...)
		if err != nil && failed != nil {
			failed(err)
		}
		unlock()
		if err != nil {
			return out, err
		}
		// A mark left while this round ran is for memories it may not
		// have read: go round again, unless another run took the lock.
	}
}

// enrichRound takes the model lock, clears the mark and enriches what
// needs it.
func (r *Repo) enrichRound(ctx context.Context, o EnrichOptions, pending string) ([]Enriched, error) {
	unlock, err := r.LockModel(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := os.Remove(pending); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	o.Slugs, o.Force = nil, false
	return r.Enrich(ctx, o)
}
