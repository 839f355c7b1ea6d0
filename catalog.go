package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/agents"
	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/mdparse"
)

// Catalogs are the store's catalogs (MEMORY.md) and the subagents' that
// Claude Code loads beside them.
type Catalogs struct{ r *Repo }

// Catalogs is the facade's noun for the catalogs.
func (r *Repo) Catalogs() Catalogs { return Catalogs{r} }

// All returns the absolute paths of every catalog (MEMORY.md) in the
// store.
func (cs Catalogs) All(ctx context.Context) ([]string, error) {
	r := cs.r
	files, err := r.files.Walk()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rel := range files {
		if layout.IsCatalog(rel) {
			out = append(out, r.abs(rel))
		}
	}
	return out, nil
}

// Agents returns the catalogs (MEMORY.md) that Claude Code loads into
// subagents' prompts and the store does not hold: those of the subagents
// whose definitions keep their memory in the local or user scope, where
// they exist (a project-scope subagent's is in the store, among All).
// Definitions that do not parse are in bad.
func (cs Catalogs) Agents(ctx context.Context) (files []string, bad []error) {
	r := cs.r
	defs, bad := agents.Of(r.Place)
	for _, a := range defs {
		if a.Memory == agents.ScopeProject {
			continue
		}
		dir := a.MemoryDir(r.Place)
		if dir == "" || locate.Within(r.Place.Store, dir) {
			continue
		}
		f := filepath.Join(dir, catalog.FileName)
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files, bad
}

// Generate returns the catalog at rel (store-relative) as
// catalog.Generate writes it from the store's current memories. current is
// the file as it is; extra is another version of it (the other side of a
// merge), whose notes and links are kept too.
func (cs Catalogs) Generate(ctx context.Context, rel string, current, extra []byte) ([]byte, error) {
	r := cs.r
	entries, err := r.catalogEntries(ctx)
	if err != nil {
		return nil, err
	}
	return catalog.Generate(rel, entries, current, extra), nil
}

// SkipUpToDate is Catalogs.Fix's Written.Skipped when the catalog is already
// what it would write.
const SkipUpToDate = "already up to date"

// FixedCatalog is what Catalogs.Fix did: the catalog's write, and the
// memories it made of the catalog's own notes (slugs), when it moved them.
type FixedCatalog struct {
	Written
	Moved []string
}

// Fix regenerates the catalog at rel (store-relative) and commits it.
//
// Notes of the catalog's own (lines that link to no memory) are kept as
// they are while everything fits. When keeping them would cut the listing
// of memories, each section of notes becomes a memory of its own, in the
// catalog's directory, and the catalog lists it: the notes move, whole,
// and nothing is lost, in one commit with the regenerated catalog. A
// catalog that would still not load whole is refused and nothing written.
func (cs Catalogs) Fix(ctx context.Context, rel string) (FixedCatalog, error) {
	r := cs.r
	unlock, err := r.lock(ctx)
	if err != nil {
		return FixedCatalog{}, err
	}
	defer unlock()
	current, err := r.files.ReadFile(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return FixedCatalog{}, err
	}
	entries, err := r.catalogEntriesLocked()
	if err != nil {
		return FixedCatalog{}, err
	}
	w := FixedCatalog{Written: Written{Slug: rel, Path: r.Place.Rel(r.abs(rel))}}
	data := catalog.Generate(rel, entries, current, nil)
	changes := []gitstore.Change{{Path: rel, Data: data}}
	info := gitstore.CommitInfo{Action: gitstore.ActionRegenerateIndex, Slug: rel}
	if sections := catalog.Sections(current); len(sections) > 0 && (catalog.Cut(data) || !mdparse.MeasureCatalog(w.Path, data).Fits) {
		moved, mchanges, err := r.notesToMemories(rel, sections)
		if err != nil {
			return FixedCatalog{}, err
		}
		for _, m := range moved {
			entries = append(entries, m.entry)
			w.Moved = append(w.Moved, m.slug)
		}
		data = catalog.Generate(rel, entries, nil, nil) // the notes are memories now
		changes = append([]gitstore.Change{{Path: rel, Data: data}}, mchanges...)
		info.Subject = fmt.Sprintf("mem: regenerate %s, its notes moved into %d memories", rel, len(moved))
		info.Trailers = []gitstore.Trailer{{Key: gitstore.TrailerMoved, Value: strings.Join(w.Moved, ", ")}}
	}
	if b := mdparse.MeasureCatalog(w.Path, data); !b.Fits {
		return FixedCatalog{}, fmt.Errorf("%s would still not load whole (%d lines, %d bytes; Claude Code stops at line %d): nothing was written; move its longest lines into memories with mem store, then run mem budget --fix again", w.Path, b.Lines, b.Bytes, b.CutLine)
	}
	if bytes.Equal(data, current) {
		w.Skipped = SkipUpToDate
		return w, nil
	}
	w.Result, err = r.files.Apply(ctx, changes, info)
	if err != nil {
		return FixedCatalog{}, err
	}
	r.refreshLocked()
	return w, nil
}

// catalogEntries are the store's memories as a catalog lists them.
func (r *Repo) catalogEntries(ctx context.Context) ([]catalog.Entry, error) {
	list, _, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	return r.catalogOf(list), nil
}

// catalogEntriesLocked is catalogEntries for a caller that holds the
// store's lock (List would wait for it to refresh the cache).
func (r *Repo) catalogEntriesLocked() ([]catalog.Entry, error) {
	ix, err := r.indexLocked()
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	list, _, err := r.listIndexed(ix)
	if err != nil {
		return nil, err
	}
	return r.catalogOf(list), nil
}

// catalogOf is list as a catalog lists it.
func (r *Repo) catalogOf(list []Entry) []catalog.Entry {
	prefix := r.Place.Rel(r.Place.Store) + "/"
	entries := make([]catalog.Entry, 0, len(list))
	for _, e := range list {
		entries = append(entries, catalog.Entry{
			Path: strings.TrimPrefix(e.Path, prefix), Name: e.Name, Description: e.Description,
			Class: e.Class, Importance: e.Importance, SupersededBy: e.SupersededBy,
		})
	}
	return entries
}

// movedNote is a catalog section made a memory.
type movedNote struct {
	slug  string
	entry catalog.Entry
}

// notesToMemories makes a memory file of each section of notes of the
// catalog at rel, in its directory: named by its heading (the catalog's
// name and the section's line for the notes before the first heading),
// its lines the body, cut into parts when a section is longer than a
// memory may be. The caller holds the lock.
func (r *Repo) notesToMemories(rel string, sections []catalog.Section) ([]movedNote, []gitstore.Change, error) {
	dir := path.Dir(rel)
	taken := map[string]bool{}
	var moved []movedNote
	var changes []gitstore.Change
	now := r.Now().UTC().Truncate(time.Second)
	for _, sec := range sections {
		name := sec.Heading
		if name == "" {
			name = fmt.Sprintf("Notes from %s", rel)
		}
		for i, body := range noteParts(sec.Facts) {
			n := Note{Name: name, Description: fmt.Sprintf("moved from %s (line %d) by mem budget --fix", rel, sec.Line), Class: "fact", Body: body}
			if i > 0 {
				n.Name = fmt.Sprintf("%s (part %d)", name, i+1)
			}
			if err := n.normalise(); err != nil {
				return nil, nil, fmt.Errorf("%s line %d: %w", rel, sec.Line, err)
			}
			if err := checkSecrets(n); err != nil {
				return nil, nil, fmt.Errorf("%s line %d: %w", rel, sec.Line, err)
			}
			slug := r.freeSlug(mdparse.Slugify(n.Name), taken)
			taken[slug] = true
			file := path.Join(dir, slug+".md")
			if dir == "." {
				file = slug + ".md"
			}
			m := mdparse.New(mdparse.Fields{Name: n.Name, Description: n.Description, Class: n.Class, Importance: n.Importance, Modified: now}, n.Body)
			changes = append(changes, gitstore.Change{Path: file, Data: m.Bytes()})
			moved = append(moved, movedNote{slug: slug, entry: catalog.Entry{Path: file, Name: n.Name, Description: n.Description, Class: n.Class, Importance: n.Importance}})
		}
	}
	return moved, changes, nil
}

// noteParts joins a section's lines into bodies no longer than a memory may
// hold.
func noteParts(facts []string) []string {
	var parts []string
	var cur strings.Builder
	for _, f := range facts {
		if cur.Len() > 0 && cur.Len()+len(f)+1 > MaxMemoryBytes-1024 {
			parts = append(parts, cur.String())
			cur.Reset()
		}
		cur.WriteString(f + "\n")
	}
	return append(parts, cur.String())
}

// freeSlug is slug, or slug-2, slug-3, … when a memory of the store (or one
// being made, taken) already has it, or it names a store file of its own.
func (r *Repo) freeSlug(slug string, taken map[string]bool) string {
	for i := 1; ; i++ {
		s := slug
		if i > 1 {
			s = fmt.Sprintf("%s-%d", slug, i)
		}
		if existing, _ := r.find(s); existing == "" && !taken[s] && !layout.Reserved(s+".md") {
			return s
		}
	}
}

// StoreRel returns abs relative to the store root, slash-separated, or an
// error when it lies outside the store.
func (r *Repo) StoreRel(abs string) (string, error) {
	rel, err := filepath.Rel(r.Place.Store, abs)
	if err != nil || !locate.Within(r.Place.Store, abs) {
		return "", fmt.Errorf("%s is not in the store %s", abs, r.Place.Store)
	}
	return filepath.ToSlash(rel), nil
}

// catalogsAlso is the store's gitstore.Store.Also: the catalogs mem
// generated (catalog.Generated) that hold a memory the changes write or
// remove, regenerated from the memories as they will be, so that MEMORY.md,
// which Claude Code loads at the start of every session, is never behind
// the store. A hand-written catalog is left as it is (mem doctor says when
// it is behind). It runs under the store's lock.
func (r *Repo) catalogsAlso(changes []gitstore.Change) []gitstore.Change {
	changed := map[string]gitstore.Change{}
	candidates := map[string]bool{}
	for _, c := range changes {
		rel := path.Clean(c.Path)
		changed[rel] = c
		if !layout.IsMemory(rel) {
			continue
		}
		for dir := path.Dir(rel); ; dir = path.Dir(dir) {
			candidates[path.Join(dir, "MEMORY.md")] = true
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	var cats []string
	for rel := range candidates {
		if _, ok := changed[rel]; ok {
			continue // the write sets it itself (mem budget --fix)
		}
		if r.generatedCatalog(rel) {
			cats = append(cats, rel)
		}
	}
	if len(cats) == 0 {
		return nil
	}
	entries, err := r.catalogEntriesLocked()
	if err != nil {
		return nil // the write goes on; budget --fix regenerates it
	}
	// The memories as they will be: the changed ones from the changes.
	kept := entries[:0]
	for _, e := range entries {
		if _, ok := changed[e.Path]; !ok {
			kept = append(kept, e)
		}
	}
	for rel, c := range changed {
		if c.Delete || !layout.IsMemory(rel) {
			continue
		}
		if l, _ := r.entryOf(rel, c.Data); l != nil && !l.forgotten {
			kept = append(kept, r.catalogOf([]Entry{l.Entry})...)
		}
	}
	slices.Sort(cats)
	var out []gitstore.Change
	for _, rel := range cats {
		current, _ := r.files.ReadFile(rel)
		if data := catalog.Generate(rel, kept, current, nil); !bytes.Equal(data, current) {
			out = append(out, gitstore.Change{Path: rel, Data: data})
		}
	}
	return out
}

// generatedCatalog reports whether the store file rel is a catalog mem
// generated, which every write keeps current (catalogsAlso).
func (r *Repo) generatedCatalog(rel string) bool {
	if !layout.IsCatalog(rel) {
		return false
	}
	data, err := r.files.ReadFile(rel)
	return err == nil && catalog.Generated(data)
}

// Behind says how the hand-written catalog at abs lags the store:
// the memories it links that are superseded, forgotten or gone, each as
// "slug (superseded by X)" and so on. A catalog mem generated is kept
// current by every write and gives nothing.
func (cs Catalogs) Behind(ctx context.Context, abs string) ([]string, error) {
	r := cs.r
	data, err := os.ReadFile(abs)
	if err != nil || catalog.Generated(data) {
		return nil, err
	}
	rel, err := r.StoreRel(abs)
	if err != nil {
		return nil, err
	}
	list, _, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	prefix := r.Place.Rel(r.Place.Store) + "/"
	live := map[string]Entry{}
	for _, e := range list {
		live[strings.TrimPrefix(e.Path, prefix)] = e
	}
	var behind []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		t := catalog.Link(strings.TrimSpace(line))
		if t == "" {
			continue
		}
		target := path.Join(path.Dir(rel), t)
		if seen[target] || !layout.IsMemory(target) {
			continue
		}
		seen[target] = true
		e, ok := live[target]
		switch {
		case ok && e.SupersededBy != "":
			behind = append(behind, fmt.Sprintf("%s (superseded by %s)", layout.Slug(target), e.SupersededBy))
		case ok:
		case r.files.Exists(target):
			behind = append(behind, layout.Slug(target)+" (forgotten)")
		default:
			behind = append(behind, layout.Slug(target)+" (no such memory)")
		}
	}
	return behind, nil
}
