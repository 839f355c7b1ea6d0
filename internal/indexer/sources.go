package indexer

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/profile"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Files are the project store's files, confined to the store
// (gitstore.Store).
type Files interface {
	// Walk lists the store's markdown files, store-relative, slash separated.
	Walk() ([]string, error)
	// ReadFile reads one of them, refusing a path that leads out of the store.
	ReadFile(rel string) ([]byte, error)
}

// Store is one store as the indexer reads it.
type Store struct {
	Place locate.Place
	Files Files
	// Logf reports a file that cannot be read or parsed, which is skipped.
	Logf func(format string, args ...any)
}

// Source is a file the index reads: a store file, a memory in Claude Code's
// own auto-memory directory, or a subagent's local or user memory.
type Source struct {
	Rel   string // relative to its store's directory, slash separated
	Abs   string
	Shown string // the path as a person reads it
	Stamp search.Source
	Store string // one of search.Stores: the label its entries carry
}

// Sources lists the files the index reads, and the stamps of those files
// and of their directories, which the cache keeps for its freshness checks.
func (s Store) Sources() ([]Source, []search.Source, error) {
	rels, err := s.Files.Walk()
	if err != nil {
		return nil, nil, err
	}
	abs := make([]string, len(rels))
	for i, rel := range rels {
		abs[i] = s.abs(rel)
	}
	fileStamps := search.StatFiles(abs)
	files := make([]Source, 0, len(rels))
	stamps := make([]search.Source, 0, len(rels)+1)
	dirs := map[string]bool{".": true}
	for i, rel := range rels {
		for d := path.Dir(rel); !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		f := Source{Rel: rel, Abs: abs[i], Shown: s.Place.Rel(abs[i]), Stamp: fileStamps[i], Store: search.StoreProject}
		files = append(files, f)
		stamps = append(stamps, f.Stamp)
	}
	for d := range dirs {
		stamps = append(stamps, search.Stat(s.abs(d), search.SourceDir))
	}
	rfiles, rstamps := s.ReadOnly()
	return slices.Concat(files, rfiles), slices.Concat(stamps, rstamps), nil
}

// abs turns a store-relative slash path into an absolute one.
func (s Store) abs(rel string) string {
	return filepath.Join(s.Place.Store, filepath.FromSlash(rel))
}

// ReadOnly lists the files of the stores mem reads but never writes:
// Claude Code's auto memory and subagents' local and user memories.
func (s Store) ReadOnly() ([]Source, []search.Source) {
	pfiles, pstamps := s.personal()
	lfiles, lstamps := s.local()
	ufiles, ustamps := s.user()
	return slices.Concat(pfiles, lfiles, ufiles), slices.Concat(pstamps, lstamps, ustamps)
}

// local lists the memories of subagents whose memory scope is "local":
// Claude Code keeps them, not checked in, in .claude/agent-memory-local/
// <agent>/ beside the project's .claude/agent-memory (locate.Place.Local).
// They are a third store, read only and labelled "local".
func (s Store) local() ([]Source, []search.Source) {
	return scopeFiles(s.Place.Local(), search.StoreLocal, s.Place.Rel)
}

// user lists the memories of subagents whose memory scope is "user":
// Claude Code keeps them in <ClaudeDir>/agent-memory/<agent>/, shared by
// every project (locate.UserAgents). They are a fourth store, read only and
// labelled "user", searched beside the work tree's own store only: a store
// named with --store elsewhere is not joined by every project's memories.
func (s Store) user() ([]Source, []search.Source) {
	root := locate.UserAgents()
	if !s.Place.Default() || root == "" || root == s.Place.Store {
		return nil, nil
	}
	return scopeFiles(root, search.StoreUser, locate.ShortHome)
}

// scopeFiles lists the markdown files under root, a subagent memory
// scope's directory, as entries of store, and stamps every directory,
// root even while it does not exist, so that the cache notices when a
// subagent first writes there. shown writes a file's path as a person
// reads it.
func scopeFiles(root, store string, shown func(string) string) ([]Source, []search.Source) {
	if root == "" {
		return nil, nil
	}
	stamps := []search.Source{search.Stat(root, search.SourceDir)}
	var files []Source
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
		case e.Name() == profile.FileName:
			// The person's profile (mem's user-scope directory holds it):
			// every session gets it whole, so it is no entry to search.
			return nil
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return nil
		}
		f := Source{Rel: filepath.ToSlash(rel), Abs: abs, Shown: shown(abs), Stamp: search.Stat(abs, search.SourceFile), Store: store}
		files = append(files, f)
		stamps = append(stamps, f.Stamp)
		return nil
	})
	return files, stamps
}

// personal lists Claude Code's own auto-memory directory for this
// repository, when there is one: a second, personal store, read only and
// labelled "personal". Its directory is stamped even while it does not
// exist, so the cache notices when Claude Code creates it.
func (s Store) personal() ([]Source, []search.Source) {
	if s.Place.WorkTree == "" {
		return nil, nil
	}
	dir, ok := locate.PersonalStore(s.Place.MainWorkTree())
	stamps := []search.Source{search.Stat(dir, search.SourceDir)}
	if !ok || dir == s.Place.Store {
		return nil, stamps
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, stamps
	}
	var files []Source
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || path.Ext(name) != ".md" || strings.HasPrefix(name, ".") {
			continue
		}
		abs := filepath.Join(dir, name)
		f := Source{Rel: name, Abs: abs, Shown: locate.ShortHome(abs), Stamp: search.Stat(abs, search.SourceFile), Store: search.StorePersonal}
		files = append(files, f)
		stamps = append(stamps, f.Stamp)
	}
	return files, stamps
}

// Parse reads files into index entries, logging and skipping any it cannot
// read; a memory whose frontmatter does not parse is indexed with what can
// be read of it (mdparse.Salvage) and the reason (Doc.Broken), so that it
// is found, and shown as broken, wherever a person looks.
func (s Store) Parse(files []Source) []search.Doc {
	var docs []search.Doc
	for _, f := range files {
		var data []byte
		var err error
		if f.Store == search.StoreProject {
			data, err = s.Files.ReadFile(f.Rel)
		} else {
			data, err = os.ReadFile(f.Abs)
		}
		if err != nil {
			s.Logf("index %s: %v", f.Shown, err)
			continue
		}
		d, err := Docs(f, data)
		if err != nil {
			s.Logf("index: %v", err)
			continue
		}
		docs = append(docs, d...)
	}
	return docs
}

// Docs turns one file into index entries: a memory is one entry; a catalog
// contributes the sections that hold facts of their own, each an entry
// pointing at its first fact line ("dir/MEMORY.md#L5"); the profile
// contributes none. Entries are labelled with the store the file is in.
func Docs(f Source, data []byte) ([]search.Doc, error) {
	if layout.IsCatalog(f.Rel) {
		var docs []search.Doc
		for _, sec := range catalog.Sections(data) {
			docs = append(docs, search.Doc{
				Slug:  fmt.Sprintf("%s#L%d", f.Rel, sec.Line),
				Path:  f.Shown,
				Store: f.Store,
				Name:  sec.Name(),
				Class: "fact",
				Body:  strings.Join(sec.Facts, "\n"),
				Line:  sec.Line,
			})
		}
		return docs, nil
	}
	if !layout.IsMemory(f.Rel) {
		return nil, nil
	}
	m, err := mdparse.Salvage(f.Shown, data)
	if m.Status == mdparse.StatusForgotten {
		return nil, nil
	}
	d := m.Document(layout.Slug(f.Shown), f.Shown, f.Store)
	if err != nil {
		d.Broken = err.Error() // names f.Shown and the line
	}
	return []search.Doc{d}, nil
}
