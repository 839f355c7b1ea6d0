package mem

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/text"
)

// NotFoundError is ErrNotFound for a memory a person or an agent named,
// with the slugs it may have meant.
type NotFoundError struct {
	Slug string   // as it was given
	Near []string // the nearest slugs, nearest first; empty when none is near
}

func (e *NotFoundError) Error() string {
	if len(e.Near) == 0 {
		return "no memory " + e.Slug
	}
	return fmt.Sprintf("no memory %s; did you mean %s?", e.Slug, strings.Join(e.Near, ", "))
}

func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// Resolve is the slug of the project memory ref names. Every command that
// takes a memory reads its argument through it (findMemory), so that what
// one command prints another takes:
//
//   - its slug, or its file's name (slug.md);
//   - its path as search, list and the prompt hook print it, from the top
//     of the work tree (.claude/agent-memory/reviewer/slug.md), from the
//     store (reviewer/slug.md), or absolute;
//   - the start of its slug (or of its path in the store), when no other
//     memory's starts so; more than one is an error that names them.
//
// A ref that names nothing is a *NotFoundError with the nearest slugs.
func (r *Repo) Resolve(ref string) (string, error) {
	rel, err := r.findMemory(ref)
	if err != nil {
		return "", err
	}
	return layout.Slug(rel), nil
}

// findMemory is Resolve's answer as the memory's store-relative path.
func (r *Repo) findMemory(ref string) (string, error) {
	rel, err := r.findExact(ref)
	if rel != "" || err != nil {
		return rel, err
	}
	return r.findStart(ref)
}

// findExact finds the memory ref names whole (a slug, a file name, a
// path), or "" when none has that name.
func (r *Repo) findExact(ref string) (string, error) {
	inStore := r.inStore(ref)
	if !filepath.IsLocal(inStore) {
		return "", fmt.Errorf("%q is not a memory slug", ref) // "", "..", or outside the store
	}
	slug := path.Base(inStore)
	rel, err := r.find(slug)
	if err != nil && inStore != slug {
		return "", &NotFoundError{Slug: ref} // a path that ends in no slug
	}
	if err != nil || rel != "" && (inStore == slug || rel == inStore+".md") {
		return rel, err
	}
	// Walk skips links that lead out of the store; say so rather than
	// "not found" when that is why.
	if _, err := r.files.ReadFile(inStore + ".md"); errors.Is(err, gitstore.ErrEscape) {
		return "", err
	}
	return "", nil
}

// inStore is ref as a path in the store, without .md: the work tree's or
// an absolute path to the store cut off, the slash-separated rest kept.
func (r *Repo) inStore(ref string) string {
	s := strings.TrimSuffix(ref, ".md")
	if filepath.IsAbs(s) {
		if rel, err := filepath.Rel(r.Place.Store, s); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
		return s
	}
	s = filepath.ToSlash(s)
	if rest, ok := strings.CutPrefix(s, r.Place.Rel(r.Place.Store)+"/"); ok {
		return rest
	}
	return s
}

// findStart finds the one memory whose slug starts with ref (or whose path
// in the store does, for a ref with a directory in it). None is a
// *NotFoundError with the nearest slugs; several are an error naming them.
func (r *Repo) findStart(ref string) (string, error) {
	inStore := r.inStore(ref)
	files, err := r.files.Walk()
	if err != nil {
		return "", err
	}
	var slugs, matched []string
	for _, rel := range files {
		if !layout.IsMemory(rel) {
			continue
		}
		slugs = append(slugs, layout.Slug(rel))
		key := layout.Slug(rel)
		if strings.Contains(inStore, "/") {
			key = strings.TrimSuffix(rel, ".md")
		}
		if inStore != "" && strings.HasPrefix(key, inStore) {
			matched = append(matched, rel)
		}
	}
	switch len(matched) {
	case 1:
		return matched[0], nil
	case 0:
		return "", &NotFoundError{Slug: ref, Near: text.Nearest(path.Base(inStore), slugs, 3)}
	}
	const shown = 5
	names := make([]string, 0, shown+1)
	for _, rel := range matched[:min(shown, len(matched))] {
		names = append(names, layout.Slug(rel))
	}
	if more := len(matched) - shown; more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	return "", fmt.Errorf("%s is the start of %d memories' slugs: %s; give more of it", ref, len(matched), strings.Join(names, ", "))
}
