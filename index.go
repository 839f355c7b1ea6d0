package mem

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/indexer"
	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/search"
)

// Index returns the search index, refreshing the cache first when any
// memory file changed since it was built. Only changed files are parsed
// again; a missing or corrupt cache is rebuilt silently. The caller closes
// the index.
func (r *Repo) Index(ctx context.Context) (*search.Index, error) {
	ix, stale := r.indexer().Check()
	if ix != nil {
		return ix, nil
	}
	unlock, err := r.lock(ctx)
	if errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission) {
		// The git dir is read-only to us (Codex's sandbox keeps .git so):
		// no lock, no cache to write, but the files can be read. Search
		// them as they are, in memory; a run that can write refreshes the
		// cache.
		files, _, err := r.indexer().Sources()
		if err != nil {
			return nil, err
		}
		return search.Build(r.indexer().Parse(files)), nil
	}
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.indexer().Refresh(stale)
}

// TryIndex is Index for a hook, which must never wait: when another
// process holds the store's lock it returns ErrBusy at once. That holder is
// a writer or a refresh, which refreshes the cache itself when it is done.
// It follows the hook's cheap signals rather than statting every file
// (indexer.Store.RefreshMarked): the store's directories and the files an
// agent edited, named by the stale marker; every file when those say
// nothing. The hook calls it only once its own quick check said stale.
func (r *Repo) TryIndex(ctx context.Context) (*search.Index, error) {
	unlock, err := r.tryLock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.indexer().RefreshMarked()
}

// indexLocked is Index for a caller that holds the store's lock.
func (r *Repo) indexLocked() (*search.Index, error) {
	ix, stale := r.indexer().Check()
	if ix != nil {
		return ix, nil
	}
	return r.indexer().Refresh(stale) // what the check found is not statted again
}

// Rebuild parses every file again and rewrites the cache.
func (r *Repo) Rebuild(ctx context.Context) (*search.Index, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.indexer().Rebuild()
}

// IndexFresh reports whether the search cache exists and reflects every file.
func (r *Repo) IndexFresh(ctx context.Context) bool {
	ix, ok := r.indexer().Cached(r.Now())
	if ok {
		ix.Close()
	}
	return ok
}

// indexer is the store as the indexer reads it.
func (r *Repo) indexer() indexer.Store {
	return indexer.Store{Place: r.Place, Files: r.files, Logf: r.logf}
}

// refreshLocked refreshes the cache after a write, under the caller's lock.
// A failure here must not fail the write (the cache rebuilds itself on the
// next read), so it is only logged.
func (r *Repo) refreshLocked() {
	ix, err := r.indexer().Refresh(nil)
	if err != nil {
		r.logf("refresh index: %v", err)
	}
	if ix != nil {
		ix.Close() // it maps the cache: a long-lived process must not keep each one
	}
}

// refreshWritten is refreshLocked after a write of changes alone, as the
// write's CommitInfo.Meanwhile: only their files are statted and parsed
// (indexer.Store.RefreshWritten), while git commits them.
func (r *Repo) refreshWritten(changes []gitstore.Change) func() {
	rels := make([]string, len(changes))
	for i, c := range changes {
		rels[i] = c.Path
	}
	return func() {
		ix, err := r.indexer().RefreshWritten(rels)
		if err != nil {
			r.logf("refresh index: %v", err)
		}
		if ix != nil {
			ix.Close()
		}
	}
}

// logf appends one line to the state directory's log.
func (r *Repo) logf(format string, args ...any) {
	logfile.Append(filepath.Join(r.Place.StateDir(), "mem.log"), fmt.Sprintf(format, args...))
}
