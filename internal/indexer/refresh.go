package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/search"
)

// Cached opens the cache when it is intact and every file's stamp is fresh
// at now (the full check: the sampled one is the prompt hook's). The caller
// closes the index (it maps the file; the MCP server lives long enough for
// that to matter).
func (s Store) Cached(now time.Time) (*search.Index, bool) {
	ix, err := search.Open(s.Place.IndexPath())
	if err != nil {
		return nil, false
	}
	if ix.Verify() != nil {
		ix.Close()
		return nil, false
	}
	switch search.CheckFresh(ix.Stamps(), s.Place.CacheDir(), now, true) {
	case search.Fresh:
		return ix, true
	case search.ClearMarker:
		search.ClearStale(s.Place.CacheDir())
		return ix, true
	}
	ix.Close()
	return nil, false
}

// Refresh brings the cache up to date and returns the index; the caller
// holds the store's lock. Only the files whose stamps changed are parsed,
// and the old cache's postings are carried over for the rest
// (search.Update); a missing or damaged cache is rebuilt from every file.
func (s Store) Refresh() (*search.Index, error) { return s.refresh(false) }

// refresh is Refresh, from every file when all is set.
func (s Store) refresh(all bool) (*search.Index, error) {
	path := s.Place.IndexPath() // reads Claude Code's settings: once
	var old *search.Index
	if !all {
		old, _ = search.Open(path)
	}
	oldStamps := map[string]search.Source{}
	if old != nil {
		defer old.Close()
		for _, src := range old.Sources() {
			oldStamps[src.Path] = src
		}
	}
	files, stamps, err := s.Sources()
	if err != nil {
		return nil, err
	}
	var ix *search.Index
	if old != nil {
		unchanged := map[string]bool{}
		var changed []Source
		for _, f := range files {
			if prev, ok := oldStamps[f.Abs]; ok && prev == f.Stamp {
				unchanged[f.Shown] = true
			} else {
				changed = append(changed, f)
			}
		}
		ix, _ = search.Update(old, func(path string) bool { return unchanged[path] }, s.Parse(changed))
	}
	if ix == nil {
		ix = search.Build(s.Parse(files))
		// A cache built from nothing is often a repository that moved or a
		// store that was deleted: their caches would stay forever.
		s.prune(path)
	}
	if err := os.MkdirAll(s.Place.CacheDir(), 0o755); err != nil {
		return ix, fmt.Errorf("create cache dir: %w", err)
	}
	if err := ix.WriteFile(path, stamps); err != nil {
		return ix, fmt.Errorf("write index: %w", err)
	}
	search.ClearStale(s.Place.CacheDir())
	return ix, nil
}

// Rebuild parses every file again and rewrites the cache; the caller holds
// the store's lock. The old cache stays in place until the new one
// replaces it, so that a hook meanwhile answers from it.
func (s Store) Rebuild() (*search.Index, error) { return s.refresh(true) }

// prune removes the other caches in the cache directory that nobody will
// read again: those whose directories are all gone, the user scope's aside
// as it outlives every store (a store whose repository was moved, or which
// was deleted), and those built from this very store and personal store
// under another name (an older mem keyed its caches differently). The
// caches of other --store paths that still exist, and of this store under
// another CLAUDE_CONFIG_DIR, stay. current is this store's cache.
func (s Store) prune(current string) {
	personal, _ := locate.PersonalStore(s.Place.MainWorkTree())
	users := locate.UserAgents()
	others, _ := filepath.Glob(filepath.Join(s.Place.CacheDir(), "index-*.bin"))
	for _, path := range others {
		if path == current {
			continue
		}
		ix, err := search.Open(path)
		if err != nil {
			continue // another version's cache, or one being written: not ours to judge
		}
		gone, store, mine := true, false, false
		for _, d := range ix.Stamps().Dirs() {
			store = store || d.Path == s.Place.Store
			mine = mine || d.Path == personal
			if users != "" && locate.Within(users, d.Path) {
				continue
			}
			if _, err := os.Stat(d.Path); err == nil {
				gone = false
			}
		}
		ix.Close()
		if gone || store && mine && s.Place.WorkTree != "" {
			os.Remove(path)
		}
	}
}
