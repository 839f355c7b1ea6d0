package mem

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/indexer"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Index returns the search index, refreshing the cache first when any
// memory file changed since it was built. Only changed files are parsed
// again; a missing or corrupt cache is rebuilt silently. The caller closes
// the index.
func (r *Repo) Index(ctx context.Context) (*search.Index, error) {
	if ix, ok := r.cached(); ok {
		return ix, nil
	}
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return r.refresh()
}

// Rebuild parses every file again and rewrites the cache.
func (r *Repo) Rebuild(ctx context.Context) (*search.Index, error) {
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	os.Remove(r.Place.IndexPath())
	return r.refresh()
}

// cached opens the cache when it is intact and every file's stamp is
// fresh (the full check: the sampled one is the prompt hook's). The caller
// closes the index (it maps the file; the MCP server lives long enough for
// that to matter).
func (r *Repo) cached() (*search.Index, bool) {
	ix, err := search.Open(r.Place.IndexPath())
	if err != nil {
		return nil, false
	}
	if ix.Verify() != nil {
		ix.Close()
		return nil, false
	}
	switch search.CheckFresh(ix.Stamps(), r.Place.CacheDir(), r.Now(), true) {
	case search.Fresh:
		return ix, true
	case search.ClearMarker:
		search.ClearStale(r.Place.CacheDir())
		return ix, true
	}
	ix.Close()
	return nil, false
}

// refreshLocked refreshes the cache after a write, under the caller's lock.
// A failure here must not fail the write (the cache rebuilds itself on the
// next read), so it is only logged.
func (r *Repo) refreshLocked() {
	if _, err := r.refresh(); err != nil {
		r.logf("refresh index: %v", err)
	}
}

// refresh brings the cache up to date; the caller holds the lock. Only
// the files whose stamps changed are parsed, and the old cache's postings
// are carried over for the rest (search.Update); a missing or damaged cache
// is rebuilt from every file.
func (r *Repo) refresh() (*search.Index, error) {
	path := r.Place.IndexPath() // reads Claude Code's settings: once
	old, _ := search.Open(path)
	oldStamps := map[string]search.Source{}
	if old != nil {
		defer old.Close()
		for _, s := range old.Sources() {
			oldStamps[s.Path] = s
		}
	}
	files, stamps, err := r.sourceFiles()
	if err != nil {
		return nil, err
	}
	var ix *search.Index
	if old != nil {
		unchanged := map[string]bool{}
		var changed []sourceFile
		for _, f := range files {
			if prev, ok := oldStamps[f.abs]; ok && prev == f.stamp {
				unchanged[f.shown] = true
			} else {
				changed = append(changed, f)
			}
		}
		ix, _ = search.Update(old, func(path string) bool { return unchanged[path] }, r.parse(changed))
	}
	if ix == nil {
		ix = search.Build(r.parse(files))
		// A cache built from nothing is often a repository that moved or a
		// store that was deleted: their caches would stay forever.
		r.pruneCaches(path)
	}
	if err := os.MkdirAll(r.Place.CacheDir(), 0o755); err != nil {
		return ix, fmt.Errorf("create cache dir: %w", err)
	}
	if err := ix.WriteFile(path, stamps); err != nil {
		return ix, fmt.Errorf("write index: %w", err)
	}
	search.ClearStale(r.Place.CacheDir())
	return ix, nil
}

// pruneCaches removes the other caches in the cache directory that nobody
// will read again: those whose directories are all gone, the user scope's
// aside as it outlives every store (a store whose repository was moved, or
// which was deleted), and those built from this very store and personal
// store under another name (an older mem keyed its caches differently).
// The caches of other --store paths that still exist, and of this store
// under another CLAUDE_CONFIG_DIR, stay. current is this store's cache.
func (r *Repo) pruneCaches(current string) {
	personal, _ := locate.PersonalStore(r.Place.MainWorkTree())
	users := locate.UserAgents()
	others, _ := filepath.Glob(filepath.Join(r.Place.CacheDir(), "index-*.bin"))
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
			store = store || d.Path == r.Place.Store
			mine = mine || d.Path == personal
			if users != "" && locate.Within(users, d.Path) {
				continue
			}
			if _, err := os.Stat(d.Path); err == nil {
				gone = false
			}
		}
		ix.Close()
		if gone || store && mine && r.Place.WorkTree != "" {
			os.Remove(path)
		}
	}
}

// sourceFile is a file the index reads: a store file, a memory in Claude
// Code's own auto-memory directory, or a subagent's local or user memory.
type sourceFile struct {
	rel, abs, shown string
	stamp           search.Source
	store           string // one of search.Stores: the label its entries carry
}

// sourceFiles lists the files the index reads, and the stamps of those
// files and of their directories, which the cache keeps for its freshness
// checks.
func (r *Repo) sourceFiles() ([]sourceFile, []search.Source, error) {
	rels, err := r.files.Walk()
	if err != nil {
		return nil, nil, err
	}
	var files []sourceFile
	var stamps []search.Source
	dirs := map[string]bool{".": true}
	for _, rel := range rels {
		for d := path.Dir(rel); !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		abs := r.abs(rel)
		f := sourceFile{rel: rel, abs: abs, shown: r.Place.Rel(abs), stamp: search.Stat(abs, search.SourceFile), store: search.StoreProject}
		files = append(files, f)
		stamps = append(stamps, f.stamp)
	}
	for d := range dirs {
		stamps = append(stamps, search.Stat(r.abs(d), search.SourceDir))
	}
	rfiles, rstamps := r.readOnlyFiles()
	return slices.Concat(files, rfiles), slices.Concat(stamps, rstamps), nil
}

// readOnlyFiles lists the files of the stores mem reads but never writes:
// Claude Code's auto memory and subagents' local and user memories.
func (r *Repo) readOnlyFiles() ([]sourceFile, []search.Source) {
	pfiles, pstamps := r.personal()
	lfiles, lstamps := r.local()
	ufiles, ustamps := r.user()
	return slices.Concat(pfiles, lfiles, ufiles), slices.Concat(pstamps, lstamps, ustamps)
}

// local lists the memories of subagents whose memory scope is "local":
// Claude Code keeps them, not checked in, in .claude/agent-memory-local/
// <agent>/ beside the project's .claude/agent-memory (locate.Place.Local).
// They are a third store, read only and labelled "local".
func (r *Repo) local() ([]sourceFile, []search.Source) {
	return scopeFiles(r.Place.Local(), search.StoreLocal, r.Place.Rel)
}

// user lists the memories of subagents whose memory scope is "user":
// Claude Code keeps them in <ClaudeDir>/agent-memory/<agent>/, shared by
// every project (locate.UserAgents). They are a fourth store, read only and
// labelled "user", searched beside the work tree's own store only: a store
// named with --store elsewhere is not joined by every project's memories.
func (r *Repo) user() ([]sourceFile, []search.Source) {
	root := locate.UserAgents()
	if !r.Place.Default() || root == "" || root == r.Place.Store {
		return nil, nil
	}
	return scopeFiles(root, search.StoreUser, locate.ShortHome)
}

// scopeFiles lists the markdown files under root, a subagent memory
// scope's directory, as entries of store, and stamps every directory,
// root even while it does not exist, so that the cache notices when a
// subagent first writes there. shown writes a file's path as a person
// reads it.
func scopeFiles(root, store string, shown func(string) string) ([]sourceFile, []search.Source) {
	if root == "" {
		return nil, nil
	}
	stamps := []search.Source{search.Stat(root, search.SourceDir)}
	var files []sourceFile
	filepath.WalkDir(root, func(abs string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // gone, or unreadable: nothing to index there
		case abs != root && strings.HasPrefix(e.Name(), "."):
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case e.IsDir():
			if abs != root {
				stamps = append(stamps, search.Stat(abs, search.SourceDir))
			}
			return nil
		case !e.Type().IsRegular() || path.Ext(e.Name()) != ".md":
			return nil
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return nil
		}
		f := sourceFile{rel: filepath.ToSlash(rel), abs: abs, shown: shown(abs), stamp: search.Stat(abs, search.SourceFile), store: store}
		files = append(files, f)
		stamps = append(stamps, f.stamp)
		return nil
	})
	return files, stamps
}

// personal lists Claude Code's own auto-memory directory for this
// repository, when there is one: a second, personal store, read only and
// labelled "personal". Its directory is stamped even while it does not
// exist, so the cache notices when Claude Code creates it.
func (r *Repo) personal() ([]sourceFile, []search.Source) {
	if r.Place.WorkTree == "" {
		return nil, nil
	}
	dir, ok := locate.PersonalStore(r.Place.MainWorkTree())
	stamps := []search.Source{search.Stat(dir, search.SourceDir)}
	if !ok || dir == r.Place.Store {
		return nil, stamps
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, stamps
	}
	var files []sourceFile
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || path.Ext(name) != ".md" || strings.HasPrefix(name, ".") {
			continue
		}
		abs := filepath.Join(dir, name)
		f := sourceFile{rel: name, abs: abs, shown: locate.ShortHome(abs), stamp: search.Stat(abs, search.SourceFile), store: search.StorePersonal}
		files = append(files, f)
		stamps = append(stamps, f.stamp)
	}
	return files, stamps
}

// parse reads files into index entries, logging and skipping any it cannot
// read or parse.
func (r *Repo) parse(files []sourceFile) []search.Doc {
	var docs []search.Doc
	for _, f := range files {
		var data []byte
		var err error
		if f.store == search.StoreProject {
			data, err = r.files.ReadFile(f.rel)
		} else {
			data, err = os.ReadFile(f.abs)
		}
		if err != nil {
			r.logf("index %s: %v", f.shown, err)
			continue
		}
		d, err := docsOf(f, data)
		if err != nil {
			r.logf("index: %v", err)
			continue
		}
		docs = append(docs, d...)
	}
	return docs
}

// docsOf turns one file into index entries: a memory is one entry; a
// MEMORY.md contributes the sections that hold facts of their own; the
// profile contributes none (every session gets it whole at its start).
// Entries are labelled with the store the file is in.
func docsOf(f sourceFile, data []byte) ([]search.Doc, error) {
	store := f.store
	if path.Base(f.rel) == MemoryIndexFile {
		return indexSections(f.rel, f.shown, store, data), nil
	}
	if !isMemoryFile(f.rel) {
		return nil, nil
	}
	m, err := mdparse.Parse(f.abs, data)
	if err != nil {
		return nil, err
	}
	if m.Status == mdparse.StatusForgotten {
		return nil, nil
	}
	return []search.Doc{indexer.Doc(m, strings.TrimSuffix(path.Base(f.shown), ".md"), f.shown, store)}, nil
}

// logf appends one line to the cache directory's log.
func (r *Repo) logf(format string, args ...any) {
	logfile.Append(filepath.Join(r.Place.CacheDir(), "mem.log"), fmt.Sprintf(format, args...))
}

// IndexFresh reports whether the search cache exists and reflects every file.
func (r *Repo) IndexFresh() bool {
	ix, ok := r.cached()
	if ok {
		ix.Close()
	}
	return ok
}
