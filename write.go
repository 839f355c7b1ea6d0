package mem

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// Note is a memory to store.
type Note struct {
	Name, Description, Class string
	Importance               int
	Tags                     []string
	Supersedes               string // slug of a memory this one replaces
	Body                     string
	Action                   string // commit action; gitstore.ActionStore when empty
	Trailers                 []gitstore.Trailer
}

// ErrExists means a memory with the same slug is already stored.
var ErrExists = errors.New("a memory with this slug already exists")

// ErrNotFound means no memory has the slug.
var ErrNotFound = errors.New("no memory with this slug")

// ForgottenError is ErrExists for a memory that is forgotten: its name is
// taken by the file `mem forget` kept, and undoing the forget brings it
// back.
type ForgottenError struct {
	Slug   string
	Forget string // the commit that forgot it; "" when none did (a hand edit)
}

func (e *ForgottenError) Error() string { return e.Slug + " exists and is forgotten" }

func (e *ForgottenError) Is(target error) bool { return target == ErrExists }

// forgotten is the ForgottenError of the memory file rel when it is
// forgotten, else nil. The caller holds the lock.
func (r *Repo) forgotten(slug, rel string) *ForgottenError {
	data, err := r.files.ReadFile(rel)
	if err != nil {
		return nil
	}
	if m, _ := mdparse.Salvage(rel, data); m.Status != mdparse.StatusForgotten {
		return nil
	}
	f := &ForgottenError{Slug: slug}
	revs, _ := r.files.History(rel, 0)
	for _, rev := range revs {
		if rev.Action == gitstore.ActionForget {
			f.Forget = rev.Commit
			break
		}
	}
	return f
}

// Written is the outcome of one write.
type Written struct {
	Slug string `json:"slug"`
	Path string `json:"path"` // relative to the work tree
	gitstore.Result
}

// Store writes a new memory and commits it.
func (r *Repo) Store(ctx context.Context, n Note) (Written, error) {
	if err := n.normalise(); err != nil {
		return Written{}, err
	}
	if err := checkSecrets(n); err != nil {
		return Written{}, err
	}
	slug := slugFor(n.Name)
	rel := slug + ".md"

	unlock, err := r.lock(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	if existing, _ := r.find(slug); existing != "" {
		// The file may be a write left pending (git was busy): commit it
		// now, so that storing again is never what keeps it uncommitted.
		res, _ := r.files.Flush(ctx)
		if f := r.forgotten(slug, existing); f != nil {
			return Written{Slug: slug, Result: res}, f
		}
		return Written{Slug: slug, Result: res}, fmt.Errorf("%w: %s", ErrExists, existing)
	}
	changes := []gitstore.Change{n.file(rel, r.Now())}
	trailers := n.Trailers
	if n.Supersedes != "" {
		c, t, err := r.markSuperseded(n.Supersedes, slug)
		if err != nil {
			return Written{}, err
		}
		changes, trailers = append(changes, c), append(trailers, t)
	}
	res, err := r.files.Apply(ctx, changes, gitstore.CommitInfo{Action: n.Action, Slug: slug, Trailers: trailers, Meanwhile: r.refreshWritten(changes)})
	if err != nil {
		return Written{}, err
	}
	r.afterWrite()
	return Written{Slug: slug, Path: r.Place.Rel(r.abs(rel)), Result: res}, nil
}

// slugFor is the slug a memory named name is stored as: the name made a
// file name, with a suffix from its hash when that would be one of the
// store's own files ("Memory", "Profile", or a name in a script slugs
// cannot spell: "日本語" gives "memory").
func slugFor(name string) string {
	slug := mdparse.Slugify(name)
	if layout.Reserved(slug + ".md") {
		sum := sha256.Sum256([]byte(name))
		slug += "-" + hex.EncodeToString(sum[:4])
	}
	return slug
}

// file is the memory file of n, normalised, at rel, modified now.
func (n Note) file(rel string, now time.Time) gitstore.Change {
	m := mdparse.New(mdparse.Fields{
		Name:        n.Name,
		Description: n.Description,
		Class:       n.Class,
		Importance:  n.Importance,
		Modified:    now.UTC().Truncate(time.Second),
		Tags:        n.Tags,
	}, n.Body)
	return gitstore.Change{Path: rel, Data: m.Bytes()}
}

// markSuperseded is the change that marks the memory old superseded by slug,
// and the trailer that says so in the commit; the caller holds the lock.
func (r *Repo) markSuperseded(old, slug string) (gitstore.Change, gitstore.Trailer, error) {
	old, err := r.Resolve(old)
	if err != nil {
		return gitstore.Change{}, gitstore.Trailer{}, err
	}
	rel, m, err := r.load(old)
	if err != nil {
		return gitstore.Change{}, gitstore.Trailer{}, err
	}
	if err := m.Set(mdparse.KeySupersededBy, slug); err != nil {
		return gitstore.Change{}, gitstore.Trailer{}, err
	}
	return gitstore.Change{Path: rel, Data: m.Bytes()}, gitstore.Trailer{Key: gitstore.TrailerSupersedes, Value: old}, nil
}

func (n *Note) normalise() error {
	n.Body = strings.TrimSpace(n.Body)
	if n.Body == "" {
		return errors.New("the memory is empty: give its content as an argument or on stdin")
	}
	if size := len(n.Body) + len(n.Name) + len(n.Description); size > MaxMemoryBytes {
		return fmt.Errorf("the memory is %s, over the %s a memory may hold: keep one idea per memory, and point to a file in the repository for the rest", text.Size(size), text.Size(MaxMemoryBytes))
	}
	if n.Name == "" {
		n.Name = deriveName(n.Body)
	}
	n.Name = strings.TrimSpace(n.Name)
	if !hasWord(n.Name) {
		return fmt.Errorf("the name %q has no letter or digit to make a file name of: give a name in words", n.Name)
	}
	if n.Class == "" {
		n.Class = class.Default
	}
	if !class.Valid(n.Class) {
		return fmt.Errorf("unknown class %q (one of %s)", n.Class, strings.Join(class.Names, ", "))
	}
	if n.Importance == 0 {
		n.Importance = 5
	}
	if n.Importance < 1 || n.Importance > 10 {
		return fmt.Errorf("importance %d is out of range 1-10", n.Importance)
	}
	if n.Action == "" {
		n.Action = gitstore.ActionStore
		if n.Supersedes != "" {
			n.Action = gitstore.ActionSupersede // as mem log names the curator's
		}
	}
	for i, t := range n.Tags {
		n.Tags[i] = strings.TrimSpace(t)
	}
	n.Tags = slices.DeleteFunc(n.Tags, func(t string) bool { return t == "" })
	for _, f := range []struct{ field, value string }{{"name", n.Name}, {"description", n.Description}, {"tags", strings.Join(n.Tags, ",")}} {
		if c, ok := text.Control(f.value, false); ok {
			return fmt.Errorf("the %s holds a control character (%q): it is one line of plain text", f.field, c)
		}
	}
	if c, ok := text.Control(n.Body, true); ok {
		return fmt.Errorf("the memory holds a control character (%q): a memory is plain text", c)
	}
	return nil
}

// MaxMemoryBytes is the most a memory may hold (name, description and
// body). A memory is a note the next session reads whole, and every byte
// stored is committed for ever; the largest real memory files we have seen
// are under 45 KB.
const MaxMemoryBytes = 64 << 10

// hasWord reports whether s holds a letter or a digit, which a slug needs.
func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// checkSecrets refuses a note that looks like it holds a credential:
// memories are committed and shared, so a secret stored is a secret leaked.
func checkSecrets(n Note) error {
	for _, f := range []struct{ field, text string }{
		{"name", n.Name}, {"description", n.Description}, {"tags", strings.Join(n.Tags, " ")}, {"body", n.Body},
	} {
		if err := secrets.Check(f.field, f.text); err != nil {
			return err
		}
	}
	return nil
}

// Names made from a memory's first line: at most nameMax bytes, cut where
// the line's own phrasing breaks (the end of a sentence, else of a clause)
// rather than mid-phrase.
const (
	nameMax   = 72
	nameSlack = 96 // a clause may run this long before words are cut
)

// deriveName makes a name of the first non-empty line of body: the whole
// line when it is short, else its first sentence or clause that reads as a
// name, else its words up to nameMax followed by "…" so that the cut shows.
func deriveName(body string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(body), "\n")
	line = strings.TrimSpace(strings.TrimLeft(line, "#-*> "))
	if len(line) <= nameMax {
		return line
	}
	// A sentence, then a clause, that ends in reach and is long enough to
	// name something.
	for _, ends := range [][]string{{". ", "? ", "! "}, {"; ", ": ", " — ", " – ", " - ", ", ", " ("}} {
		best := -1
		for _, e := range ends {
			if i := strings.Index(line, e); i >= nameMax/3 && i <= nameSlack && (best < 0 || i < best) {
				best = i
			}
		}
		if best >= 0 {
			return strings.TrimRight(line[:best], " .,;:")
		}
	}
	return text.ClipWords(line, nameMax)
}

// Forget marks the memory ref names (Resolve) forgotten: the file stays,
// list and search skip it.
func (r *Repo) Forget(ctx context.Context, ref string) (Written, error) {
	slug, err := r.Resolve(ref)
	if err != nil {
		return Written{}, err
	}
	return r.edit(ctx, slug, gitstore.ActionForget, func(m *mdparse.Memory) error {
		if m.Status == mdparse.StatusForgotten {
			return fmt.Errorf("%s is already forgotten", slug)
		}
		return m.Set(mdparse.KeyStatus, mdparse.StatusForgotten)
	})
}

// edit rewrites one memory under the lock and commits it.
func (r *Repo) edit(ctx context.Context, slug, action string, change func(*mdparse.Memory) error, trailers ...gitstore.Trailer) (Written, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	rel, m, err := r.load(slug)
	if err != nil {
		return Written{}, err
	}
	if err := change(m); err != nil {
		return Written{}, err
	}
	changes := []gitstore.Change{{Path: rel, Data: m.Bytes()}}
	res, err := r.files.Apply(ctx, changes, gitstore.CommitInfo{Action: action, Slug: slug, Trailers: trailers, Meanwhile: r.refreshWritten(changes)})
	if err != nil {
		return Written{}, err
	}
	return Written{Slug: slug, Path: r.Place.Rel(r.abs(rel)), Result: res}, nil
}

// find returns the store-relative path of the memory with slug, or "".
// Slugs are unique per store, in any subdirectory.
func (r *Repo) find(slug string) (string, error) {
	if slug == "" || strings.ContainsAny(slug, "/\\") || strings.HasPrefix(slug, ".") {
		return "", fmt.Errorf("%q is not a memory slug", slug)
	}
	if rel, ok := r.findAtTop(slug); ok {
		return rel, nil
	}
	files, err := r.files.Walk()
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if path.Base(f) == slug+".md" && layout.IsMemory(f) {
			return f, nil
		}
	}
	return "", nil
}

// findAtTop answers find without listing the store when it can (at 10,000
// memories the walk is a fifth of a write's time): a regular file slug.md
// at the top is the memory, and a store with no subdirectory
// (gitstore.Store.Flat) holds no other. A symlink is left to the walk.
func (r *Repo) findAtTop(slug string) (rel string, ok bool) {
	rel = slug + ".md"
	if !layout.IsMemory(rel) {
		return "", false
	}
	fi, err := os.Lstat(r.abs(rel))
	if err == nil {
		return rel, fi.Mode().IsRegular()
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	return "", r.files.Flat()
}

// load finds and parses the memory with slug, exactly as it is named: a
// pass names what it read, and must never write to another memory whose
// slug merely starts so. What a person gives goes through Resolve first.
func (r *Repo) load(slug string) (string, *mdparse.Memory, error) {
	rel, err := r.findExact(slug)
	if err == nil && rel == "" {
		err = &NotFoundError{Slug: slug}
	}
	if err != nil {
		return "", nil, err
	}
	data, err := r.files.ReadFile(rel)
	if err != nil {
		return "", nil, err
	}
	m, err := mdparse.Parse(r.abs(rel), data)
	if err != nil {
		return "", nil, err
	}
	return rel, m, nil
}

// CommitEdits commits memory files that were edited in place (an agent's
// Edit or Write of the file, which Claude Code makes without mem): each
// changed file as its own commit "mem: edit <slug>", under mem's rules,
// store paths only and the user's staged work untouched. paths are
// absolute or relative to the work tree; a path outside the store, or a
// file that is not markdown, is refused. A file that looks like it holds a
// credential is not committed: the error says so and names it, and the
// other files are committed all the same. Unchanged files commit nothing.
func (r *Repo) CommitEdits(ctx context.Context, paths []string) ([]Written, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out []Written
	var errs []error
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Place.WorkTree, p)
		}
		rel, err := r.StoreRel(filepath.Clean(p))
		if err != nil || rel == "." {
			errs = append(errs, fmt.Errorf("%s is not in the store %s", p, r.Place.Rel(r.Place.Store)))
			continue
		}
		if path.Ext(rel) != ".md" {
			errs = append(errs, fmt.Errorf("%s is not a memory file", r.Place.Rel(p)))
			continue
		}
		data, err := r.files.ReadFile(rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone since: nothing to commit
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := secrets.Check(r.Place.Rel(p), string(data)); err != nil {
			errs = append(errs, fmt.Errorf("not committed: %w", err))
			continue
		}
		slug := strings.TrimSuffix(rel, ".md")
		if path.Base(slug) != "MEMORY" {
			slug = path.Base(slug)
		}
		res, err := r.files.Apply(ctx, []gitstore.Change{{Path: rel, Data: data}}, gitstore.CommitInfo{Action: gitstore.ActionEdit, Slug: slug})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if res.Skipped == gitstore.SkipNoChange {
			continue
		}
		out = append(out, Written{Slug: slug, Path: r.Place.Rel(p), Result: res})
	}
	if len(out) > 0 {
		r.refreshLocked()
	}
	return out, errors.Join(errs...)
}
