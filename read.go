package mem

import (
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

	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Entry is one memory as list shows it.
type Entry struct {
	Slug         string    `json:"slug"`
	Path         string    `json:"path"`
	Name         string    `json:"name"`
	Description  string    `json:"description,omitempty"`
	Class        string    `json:"class"`
	Importance   int       `json:"importance,omitempty"`
	Modified     time.Time `json:"modified,omitzero"`
	Tags         []string  `json:"tags,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Unverified   []string  `json:"unverified,omitempty"`
	// Broken says why the file does not parse ("path:line: what is wrong");
	// the other fields are what could be read of it.
	Broken string `json:"broken,omitempty"`
}

// Show returns the memory's file as it is written, and its path as a
// person reads it; slug is read as Resolve reads it. A slug that a search
// gave and no memory file of the project store has, a MEMORY.md section
// ("reviewer/MEMORY.md#L5") or a memory of the personal, local or user
// store, is looked up in the search index: a section is shown as its
// heading and facts, a memory as its file.
func (r *Repo) Show(ctx context.Context, slug string) ([]byte, string, error) {
	rel, m, err := r.load(slug)
	if err == nil {
		return m.Bytes(), r.Place.Rel(r.abs(rel)), nil
	}
	data, shown, ok, ierr := r.showIndexed(ctx, slug)
	switch {
	case ok:
		return data, shown, nil
	case ierr != nil:
		return nil, "", ierr
	case !errors.Is(err, ErrNotFound):
		return nil, "", err
	}
	// Named whole, nothing is: the start of a project memory's slug, or
	// the nearest slugs to say.
	if slug, err = r.Resolve(slug); err != nil {
		return nil, "", err
	}
	if rel, m, err = r.load(slug); err != nil {
		return nil, "", err
	}
	return m.Bytes(), r.Place.Rel(r.abs(rel)), nil
}

// ShownSlug is the slug of what Show showed at shown when asked for asked:
// the memory's file name, which a path or the start of a slug resolved to,
// or, for a MEMORY.md section, the name it was asked by.
func ShownSlug(asked, shown string) string {
	if base, ok := strings.CutSuffix(path.Base(shown), ".md"); ok && base != "MEMORY" {
		return base
	}
	return strings.TrimSuffix(asked, ".md")
}

// showIndexed finds slug among the search index's entries that load cannot
// read: MEMORY.md sections, and the read-only stores' memories, whose files
// the index's own listings name. A slug is unique in its store only, so the
// project's entry wins, and an entry is also found by where search shows it
// (".claude/agent-memory/MEMORY.md:7", or its path with "#L7"); among other
// stores alone, one slug naming two entries is refused.
func (r *Repo) showIndexed(ctx context.Context, slug string) ([]byte, string, bool, error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return nil, "", false, nil
	}
	defer ix.Close()
	var found []search.Doc
	for _, d := range ix.Docs() {
		where := search.Where(d.Path, d.Line)
		if d.Slug != slug && where != slug && (d.Line == 0 || fmt.Sprintf("%s#L%d", d.Path, d.Line) != slug) {
			continue
		}
		if d.Store == search.StoreProject && d.Line == 0 {
			continue // a project memory is load's to read
		}
		found = append(found, d)
	}
	if len(found) == 0 {
		return nil, "", false, nil
	}
	d := found[0]
	if i := slices.IndexFunc(found, func(d search.Doc) bool { return d.Store == search.StoreProject }); i >= 0 {
		d = found[i]
	} else if len(found) > 1 {
		var where []string
		for _, f := range found {
			where = append(where, search.Where(f.Path, f.Line))
		}
		return nil, "", false, fmt.Errorf("%s names entries in %d stores (%s): name one by where it is", slug, len(found), strings.Join(where, ", "))
	}
	if d.Line > 0 {
		return []byte("## " + d.Name + "\n\n" + d.Body + "\n"), search.Where(d.Path, d.Line), true, nil
	}
	files, _ := r.indexer().ReadOnly()
	for _, f := range files {
		if f.Shown == d.Path {
			data, err := os.ReadFile(f.Abs)
			return data, d.Path, err == nil, nil
		}
	}
	return nil, "", false, nil
}

// List returns every memory of the store that is not forgotten, sorted by
// slug, read from the search index (refreshed first when any file changed)
// rather than from the files. A file that does not parse is listed as far
// as it reads, with why, and reported in bad. A memory file the index holds
// nothing for (a forgotten one) is read.
func (r *Repo) List(ctx context.Context) (entries []Entry, bad []error, err error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer ix.Close()
	return r.listIndexed(ix)
}

// listIndexed is List from an index already fresh.
func (r *Repo) listIndexed(ix *search.Index) (entries []Entry, bad []error, err error) {
	docs := ix.Summaries()
	if docs == nil && ix.Len() > 0 {
		return r.list(false) // a damaged record: the files are the truth
	}
	indexed := make(map[string]bool, len(docs)) // slugs: unique in the store
	entries = make([]Entry, 0, len(docs))
	for _, d := range docs {
		if d.Store != search.StoreProject || d.Line > 0 {
			continue
		}
		indexed[d.Slug] = true
		if d.Broken != "" {
			bad = append(bad, errors.New(d.Broken))
		}
		entries = append(entries, Entry{
			Broken: d.Broken, Slug: d.Slug, Path: d.Path, Name: d.Name, Description: d.Description, Class: d.Class,
			Importance: d.Importance, Modified: d.Modified, Tags: d.Tags, SupersededBy: d.SupersededBy, Unverified: d.Unverified,
		})
	}
	prefix := r.Place.Store + string(filepath.Separator)
	for _, st := range ix.Sources() {
		rel, ok := strings.CutPrefix(st.Path, prefix)
		if st.Kind != search.SourceFile || !ok {
			continue
		}
		if rel = filepath.ToSlash(rel); !layout.IsMemory(rel) || indexed[layout.Slug(rel)] {
			continue
		}
		e, err := r.entry(rel)
		if err != nil {
			bad = append(bad, err)
		}
		if e != nil && !e.forgotten {
			entries = append(entries, e.Entry)
		}
	}
	sortBySlug(entries)
	return entries, bad, nil
}

// sortBySlug orders a listing as mem list prints it.
func sortBySlug(entries []Entry) {
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Slug, b.Slug) })
}

// listed is a memory file as list reads it.
type listed struct {
	Entry
	forgotten bool
}

// entry reads the memory file rel, as far as it reads: a file that does not
// parse is listed with why (Entry.Broken), and the error says it too. nil
// when the file is gone.
func (r *Repo) entry(rel string) (*listed, error) {
	data, err := r.files.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return r.entryOf(rel, data)
}

// entryOf is entry of the file rel holding data.
func (r *Repo) entryOf(rel string, data []byte) (*listed, error) {
	m, err := mdparse.Salvage(r.Place.Rel(r.abs(rel)), data)
	broken := ""
	if err != nil {
		broken = err.Error()
	}
	return &listed{Entry: Entry{
		Broken:       broken,
		Slug:         layout.Slug(rel),
		Path:         r.Place.Rel(r.abs(rel)),
		Name:         m.Name,
		Description:  m.Description,
		Class:        m.EffectiveClass(),
		Importance:   m.Importance,
		Modified:     m.Modified,
		Tags:         m.Tags,
		SupersededBy: m.SupersededBy,
		Unverified:   m.Unverified,
	}, forgotten: m.Status == mdparse.StatusForgotten}, err
}

// list reads the memories that are forgotten, or those that are not, from
// the files. A file that does not parse is listed as far as it reads, and
// reported in bad.
func (r *Repo) list(forgotten bool) (entries []Entry, bad []error, err error) {
	files, err := r.files.Walk()
	if err != nil {
		return nil, nil, err
	}
	for _, rel := range files {
		if !layout.IsMemory(rel) {
			continue
		}
		e, err := r.entry(rel)
		if err != nil {
			bad = append(bad, err)
		}
		if e != nil && e.forgotten == forgotten {
			entries = append(entries, e.Entry)
		}
	}
	sortBySlug(entries)
	return entries, bad, nil
}

// abs turns a store-relative slash path into an absolute one.
func (r *Repo) abs(rel string) string {
	return filepath.Join(r.Place.Store, filepath.FromSlash(rel))
}

// StagedStoreFiles returns the store's memory files as they are staged for
// the next commit (what the pre-commit check reads).
func (r *Repo) StagedStoreFiles(ctx context.Context) ([]gitstore.StagedFile, error) {
	return r.files.Staged(ctx)
}

// Broken lists the store's memory files that do not parse, each as
// "path:line: what is wrong", as the index found them (it holds what can
// be read of each).
func (r *Repo) Broken(ctx context.Context) ([]string, error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	var broken []string
	for _, d := range ix.Docs() {
		if d.Broken != "" {
			broken = append(broken, d.Broken)
		}
	}
	return broken, nil
}

// Health is one line on the store's state for the start of a session: how
// many memories, whether MEMORY.md loads whole, how many are unverified and
// how many curation items wait for review.
func (r *Repo) Health(ctx context.Context) (string, error) {
	ix, err := r.Index(ctx)
	if err != nil {
		return "", err
	}
	defer ix.Close()
	memories, unverified := 0, 0
	var broken []string
	for _, d := range ix.Docs() {
		if d.Line == 0 {
			memories++
		}
		if len(d.Unverified) > 0 {
			unverified++
		}
		if d.Broken != "" {
			broken = append(broken, d.Broken)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "mem: %d memories in %s; relevant ones arrive with each prompt, and `mem search <topic>` looks up more.", memories, r.Place.Rel(r.Place.Store))
	catalogs, err := r.Catalogs().All(ctx)
	if err != nil {
		return "", err
	}
	for _, f := range catalogs {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if bud := mdparse.MeasureCatalog(r.Place.Rel(f), data); !bud.Fits {
			fmt.Fprintf(&b, " %s is over Claude Code's load limit: nothing past line %d is read (`mem budget --fix` regenerates it).", bud.File, bud.CutLine)
		}
	}
	if unverified > 0 {
		fmt.Fprintf(&b, " %d memories are labelled unverified: check them before relying on them.", unverified)
	}
	switch len(broken) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " A memory file does not parse (%s): it is searched as far as it reads; fix it.", broken[0])
	default:
		fmt.Fprintf(&b, " %d memory files do not parse (first %s): they are searched as far as they read; fix them (`mem doctor` lists them).", len(broken), broken[0])
	}
	if queue, err := r.Reviews(ctx); err == nil {
		pending := 0
		for _, q := range queue {
			if q.Status == curator.ReviewPending {
				pending++
			}
		}
		if pending > 0 {
			fmt.Fprintf(&b, " %d curation items wait for a person's review (`mem review`).", pending)
		}
	}
	return b.String(), nil
}
