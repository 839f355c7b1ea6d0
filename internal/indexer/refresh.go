package indexer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	switch search.CheckFresh(ix.Stamps(), s.Place.StateDir(), now, true) {
	case search.Fresh:
		return ix, true
	case search.ClearMarker:
		search.ClearStale(s.Place.StateDir())
		return ix, true
	}
	ix.Close()
	return nil, false
}

// Stale is what a full check found out of date in a cache, so that the
// refresh that follows, under the store's lock, need not stat every file
// again: its stamps hold for as long as the cache is the one checked.
type Stale struct {
	cache string // the checked cache's Fingerprint
	dirs  bool   // a directory changed: the stores are listed again
	cur   []search.Source
	files []int // indexes in cur of the files whose stamps changed
}

// Check is Cached for a caller that refreshes when the cache is stale: it
// stats every file without stopping at the first that changed, and returns
// what it found for Refresh. Either the index (fresh) or stale is set;
// neither when there is no intact cache.
func (s Store) Check() (*search.Index, *Stale) {
	ix, err := search.Open(s.Place.IndexPath())
	if err != nil {
		return nil, nil
	}
	if ix.Verify() != nil {
		ix.Close()
		return nil, nil
	}
	stale := &Stale{cache: ix.Fingerprint()}
	cur := ix.Sources()
	for _, st := range cur {
		if st.Kind == search.SourceDir && search.Stat(st.Path, search.SourceDir) != st {
			stale.dirs = true
			break
		}
	}
	if !stale.dirs {
		if stale.files = search.Restat(cur, nil); len(stale.files) == 0 {
			if _, marked := search.Marked(s.Place.StateDir()); marked {
				search.ClearStale(s.Place.StateDir())
			}
			return ix, nil
		}
		stale.cur = cur
	}
	ix.Close()
	return nil, stale
}

// Refresh brings the cache up to date and returns the index; the caller
// holds the store's lock. It stats every file the cache was built from
// (the full check), unless stale, a Check's finding, still describes the
// cache; RefreshMarked is the hook's cheaper one.
func (s Store) Refresh(stale *Stale) (*search.Index, error) { return s.refresh(false, stale) }

// RefreshMarked refreshes the cache as Refresh does, statting only the
// store's directories and the files the stale marker names (those an agent
// edited) when one of those changed: the refresh the prompt hook asks for
// after its own quick check. Without such a marker, or when none of the
// files it names changed (the hook's rotating slice found something else),
// it checks every file.
func (s Store) RefreshMarked() (*search.Index, error) { return s.refresh(true, nil) }

// refresh brings the cache up to date. When no directory changed, the files
// are those the cache was built from, and only those whose stamps changed
// are parsed; when one did, the stores are listed again and compared with
// the stamps. Either way the changes go in with search.ReplaceFile (a delta
// for a large cache): an edited memory's postings are rewritten and every
// other list copied. A missing or damaged cache is rebuilt from every file.
func (s Store) refresh(marked bool, stale *Stale) (*search.Index, error) {
	path := s.Place.IndexPath() // reads Claude Code's settings: once
	old, err := search.Open(path)
	if err != nil {
		return s.rebuild(path)
	}
	defer old.Close()
	if stale != nil && old.Fingerprint() != stale.cache {
		stale = nil // another process refreshed it meanwhile
	}
	stamps := old.Sources()
	dirs := len(stamps) == 0 // a cache without stamps: list the stores
	if stale != nil {
		dirs = dirs || stale.dirs
	} else {
		for _, st := range stamps {
			if st.Kind == search.SourceDir && search.Stat(st.Path, search.SourceDir) != st {
				dirs = true
				break
			}
		}
	}
	var changed []Source
	var gone []string // shown paths of files no longer there
	var cur []search.Source
	if dirs {
		files, now, err := s.Sources()
		if err != nil {
			return nil, err
		}
		before := make(map[string]search.Source, len(stamps))
		for _, st := range stamps {
			before[st.Path] = st
		}
		present := make(map[string]bool, len(files))
		for _, f := range files {
			present[f.Abs] = true
			if prev, ok := before[f.Abs]; !ok || prev != f.Stamp {
				changed = append(changed, f)
			}
		}
		for _, st := range stamps {
			if st.Kind == search.SourceFile && !present[st.Path] {
				f, ok := s.sourceOf(st.Path)
				if !ok {
					return s.rebuild(path)
				}
				gone = append(gone, f.Shown)
			}
		}
		cur = now
	} else if stale != nil {
		// The check's stamps were taken before any file is read below:
		// a file changed since is seen by the next check.
		cur = stale.cur
		for _, i := range stale.files {
			f, ok := s.sourceOf(cur[i].Path)
			if !ok {
				return s.rebuild(path)
			}
			f.Stamp = cur[i]
			changed = append(changed, f)
		}
	} else {
		cur = slices.Clone(stamps)
		var ok bool
		if changed, ok = s.restat(cur, marked); !ok {
			return s.rebuild(path)
		}
	}
	return s.update(path, old, cur, changed, gone)
}

// update writes the cache old with the files changed parsed afresh and the
// entries of the files gone (shown paths) removed, and cur as its stamps.
//
// With no file changed or gone it still writes cur when a stamp moved (a
// directory that gained an empty folder or a file that is no memory, Claude
// Code's auto-memory directory created empty): a cache left with the old
// stamp reads as stale at every check, and every prompt would run this
// refresh again.
func (s Store) update(path string, old *search.Index, cur []search.Source, changed []Source, gone []string) (*search.Index, error) {
	if len(changed) == 0 && len(gone) == 0 && sameSources(old.Sources(), cur) {
		search.ClearStale(s.Place.StateDir())
		return search.Open(path) // the caller's own mapping: old is closed on return
	}
	paths := gone
	for _, f := range changed {
		paths = append(paths, f.Shown)
	}
	docs := s.Parse(changed)
	if limit := deltaLimit(old.Size()); limit > 0 {
		if d, err := search.ReplaceDelta(old, paths, docs); err == nil && d.Size() <= limit {
			return s.writeDelta(path, d, cur)
		}
	}
	if err := search.ReplaceFile(old, paths, docs, path, cur); err == nil {
		if ix, err := s.reopen(path); err == nil {
			return ix, nil
		}
	}
	// As before ReplaceFile: a change it cannot make rebuilds the cache,
	// and a cache that cannot be written comes back in memory, with the
	// error.
	ix, err := search.Replace(old, paths, docs)
	if err != nil {
		return s.rebuild(path)
	}
	return s.write(path, ix, cur)
}

// sameSources reports whether a and b hold the same stamps, in any order
// (a listing's directories come in no fixed order).
func sameSources(a, b []search.Source) bool {
	if len(a) != len(b) {
		return false
	}
	in := make(map[search.Source]bool, len(a))
	for _, st := range a {
		in[st] = true
	}
	for _, st := range b {
		if !in[st] {
			return false
		}
	}
	return true
}

// RefreshWritten brings the cache up to date after the caller wrote or
// removed the project store's files rels (store-relative), under the
// store's lock: a writer knows what it changed, so only those files are
// statted and parsed, not every file (at 10,000 memories the full check is
// most of a write's time). Every other file keeps the stamp it had, so an
// edit of one by hand is still seen by the next check. A directory that
// changed is listed, and when it holds a memory the cache does not know
// and the caller did not write (or lost one), or the stale marker names
// agents' edits, it is the full Refresh after all.
func (s Store) RefreshWritten(rels []string) (*search.Index, error) {
	path := s.Place.IndexPath()
	old, err := search.Open(path)
	if err != nil {
		return s.rebuild(path)
	}
	if _, marked := search.Marked(s.Place.StateDir()); marked {
		old.Close()
		return s.Refresh(nil)
	}
	cur := slices.Clone(old.Sources())
	written := make(map[string]bool, len(rels))
	for _, rel := range rels {
		written[s.abs(rel)] = true
	}
	at := make(map[string]int, len(cur))
	for i, st := range cur {
		at[st.Path] = i
	}
	for i, st := range cur {
		if st.Kind != search.SourceDir {
			continue
		}
		// Stamped before it is listed: a file added after the listing
		// moves the directory past this stamp, for the next check to see.
		now := search.Stat(st.Path, search.SourceDir)
		if now == st {
			continue
		}
		if !s.listingAgrees(st.Path, cur, at, written) {
			old.Close()
			return s.Refresh(nil)
		}
		cur[i] = now
	}
	var changed []Source
	var gone []string
	for abs := range written {
		d, ok := at[filepath.Dir(abs)]
		if !ok || cur[d].Kind != search.SourceDir {
			old.Close()
			return s.Refresh(nil) // a directory the cache never listed
		}
		f, ok := s.sourceOf(abs)
		if !ok {
			old.Close()
			return s.Refresh(nil)
		}
		i, known := at[abs]
		switch {
		case f.Stamp.Size < 0 && known:
			gone = append(gone, f.Shown)
			cur[i].Path = "" // dropped below
		case f.Stamp.Size < 0:
		case known && cur[i] == f.Stamp:
		default:
			if known {
				cur[i] = f.Stamp
			} else {
				cur = append(cur, f.Stamp)
			}
			changed = append(changed, f)
		}
	}
	cur = slices.DeleteFunc(cur, func(st search.Source) bool { return st.Path == "" })
	defer old.Close()
	return s.update(path, old, cur, changed, gone)
}

// listingAgrees reports whether the project store's directory dir holds
// the memories the stamps cur say it holds (at indexes them by path),
// give or take those written, and no directory they do not know: what
// gitstore's Walk would list there, as far as a writer's refresh must
// know. A directory outside the project store, which a write never
// changes, does not agree.
func (s Store) listingAgrees(dir string, cur []search.Source, at map[string]int, written map[string]bool) bool {
	if !locate.Within(s.Place.Store, dir) {
		return false
	}
	// Names alone: a directory of 10,000 memories lists in half the time
	// of os.ReadDir, and only the few names the stamps do not know need
	// their type.
	d, err := os.Open(dir)
	if err != nil {
		return false
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return false
	}
	listed := 0 // files of the stamps found here
	present := map[string]bool{}
	for _, name := range names {
		if name[0] == '.' {
			continue
		}
		abs := filepath.Join(dir, name)
		if i, known := at[abs]; known {
			if cur[i].Kind == search.SourceFile {
				listed++
			}
			if written[abs] {
				present[abs] = true
			}
			continue
		}
		fi, err := os.Lstat(abs)
		switch {
		case err != nil:
			return false
		case fi.IsDir():
			return false // a directory the cache never listed
		case filepath.Ext(name) != ".md":
		case !fi.Mode().IsRegular() || !written[abs]:
			return false
		}
	}
	// The stamps' files here that are not listed are those written away.
	missing := 0
	for _, st := range cur {
		if st.Kind == search.SourceFile && filepath.Dir(st.Path) == dir {
			missing++
		}
	}
	missing -= listed
	for abs := range written {
		if i, known := at[abs]; known && cur[i].Kind == search.SourceFile && filepath.Dir(abs) == dir && !present[abs] {
			missing--
		}
	}
	return missing == 0
}

// A refresh writes its changes as a delta beside the cache (search.Delta)
// when the cache is large, so that an edit costs a write of what changed
// (about a megabyte at 10,000 memories, most of it the stamps) rather than
// of the whole cache (13 MB), and the whole cache again, the delta folded
// in, once the delta has grown past a share of it. A small cache is
// rewritten whole: it costs little, and the prompt hook then maps one file
// (at 500 memories a 64 KB delta beside the cache cost the hook 0.01-0.04
// ms; mem store saved 0.7 ms writing one, but prompts are many more).
//
// deltaLimit is how large a delta beside a cache of size bytes may grow:
// none below 2 MB, then a quarter of the cache. A variable for the tests.
var deltaLimit = func(size int) int {
	if size < 2<<20 {
		return 0
	}
	return size / 4
}

// writeDelta writes d beside the cache at path, with the stamps, clears the
// stale marker and returns the cache and delta as read back.
func (s Store) writeDelta(path string, d *search.Delta, stamps []search.Source) (*search.Index, error) {
	if err := d.WriteFile(path, stamps); err != nil {
		return nil, fmt.Errorf("write index delta: %w", err)
	}
	search.ClearStale(s.Place.StateDir())
	return search.Open(path)
}

// restat stats the file stamps in cur and updates those that changed,
// returning the files: only those the stale marker names when marked and
// one of them changed, else every file. It reports false when a changed
// file is in none of the stores (the cache names files it should not).
func (s Store) restat(cur []search.Source, marked bool) ([]Source, bool) {
	var named []string
	if marked {
		named, _ = search.Marked(s.Place.StateDir())
	}
	var changed []Source
	pass := func(keep func(search.Source) bool) bool {
		for _, i := range search.Restat(cur, keep) {
			f, ok := s.sourceOf(cur[i].Path)
			if !ok {
				return false
			}
			f.Stamp = cur[i]
			changed = append(changed, f)
		}
		return true
	}
	if named != nil {
		if !pass(func(st search.Source) bool { return slices.Contains(named, st.Path) }) {
			return nil, false
		}
		if len(changed) > 0 {
			return changed, true
		}
	}
	return changed, pass(nil)
}

// sourceOf is the source of the file at abs, as Sources lists it, from the
// store its path lies in; false when it lies in none.
func (s Store) sourceOf(abs string) (Source, bool) {
	in := func(root string) (string, bool) {
		if root == "" || !locate.Within(root, abs) || abs == root {
			return "", false
		}
		rel, err := filepath.Rel(root, abs)
		return filepath.ToSlash(rel), err == nil
	}
	f := Source{Abs: abs, Stamp: search.Stat(abs, search.SourceFile)}
	var ok bool
	if f.Rel, ok = in(s.Place.Store); ok {
		f.Shown, f.Store = s.Place.Rel(abs), search.StoreProject
		return f, true
	}
	if dir, _ := locate.PersonalStore(s.Place.MainWorkTree()); s.Place.WorkTree != "" {
		if f.Rel, ok = in(dir); ok && filepath.Dir(abs) == dir {
			f.Shown, f.Store = locate.ShortHome(abs), search.StorePersonal
			return f, true
		}
	}
	if f.Rel, ok = in(s.Place.Local()); ok {
		f.Shown, f.Store = s.Place.Rel(abs), search.StoreLocal
		return f, true
	}
	if f.Rel, ok = in(locate.UserAgents()); ok {
		f.Shown, f.Store = locate.ShortHome(abs), search.StoreUser
		return f, true
	}
	return Source{}, false
}

// rebuild builds the cache from every file. A cache built from nothing is
// often a repository that moved or a store that was deleted: their caches
// would stay forever, so the others are pruned.
func (s Store) rebuild(path string) (*search.Index, error) {
	files, stamps, err := s.Sources()
	if err != nil {
		return nil, err
	}
	ix := search.Build(s.Parse(files))
	s.prune(path)
	return s.write(path, ix, stamps)
}

// write writes ix with its stamps, clears the stale marker and returns the
// cache as written, stamps included. When the cache cannot be written, ix
// comes back with the error: a search can still use it.
func (s Store) write(path string, ix *search.Index, stamps []search.Source) (*search.Index, error) {
	if err := os.MkdirAll(s.Place.StateDir(), 0o755); err != nil {
		return ix, fmt.Errorf("create cache dir: %w", err)
	}
	if err := ix.WriteFile(path, stamps); err != nil {
		return ix, fmt.Errorf("write index: %w", err)
	}
	if written, err := s.reopen(path); err == nil {
		return written, nil
	}
	return ix, nil
}

// reopen finishes a write of the cache at path: it removes the delta,
// clears the stale marker and maps the cache as written.
func (s Store) reopen(path string) (*search.Index, error) {
	// After the cache, which holds the delta's changes now: a reader in
	// between ignores the delta, made for the cache before.
	os.Remove(search.DeltaPath(path))
	search.ClearStale(s.Place.StateDir())
	return search.Open(path)
}

// Rebuild parses every file again and rewrites the cache; the caller holds
// the store's lock.
func (s Store) Rebuild() (*search.Index, error) {
	return s.rebuild(s.Place.IndexPath())
}

// prune removes the other caches in the state directory that nobody will
// read again: those whose directories are all gone, the user scope's aside
// as it outlives every store (a store whose repository was moved, or which
// was deleted), and those built from this very store and personal store
// under another name (an older mem keyed its caches differently). The
// caches of other --store paths that still exist, and of this store under
// another CLAUDE_CONFIG_DIR, stay. current is this store's cache.
func (s Store) prune(current string) {
	personal, _ := locate.PersonalStore(s.Place.MainWorkTree())
	users := locate.UserAgents()
	others, _ := filepath.Glob(filepath.Join(s.Place.StateDir(), "index-*.bin"))
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
			os.Remove(search.DeltaPath(path))
		}
	}
}
