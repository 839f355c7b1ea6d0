package mem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/locate"
)

// Catalogs returns the absolute paths of every catalog (MEMORY.md) in the
// store.
func (r *Repo) Catalogs(ctx context.Context) ([]string, error) {
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

// GenerateCatalog returns the catalog at rel (store-relative) as
// catalog.Generate writes it from the store's current memories. current is
// the file as it is; extra is another version of it (the other side of a
// merge), whose notes and links are kept too.
func (r *Repo) GenerateCatalog(ctx context.Context, rel string, current, extra []byte) ([]byte, error) {
	list, _, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	prefix := r.Place.Rel(r.Place.Store) + "/"
	entries := make([]catalog.Entry, 0, len(list))
	for _, e := range list {
		entries = append(entries, catalog.Entry{
			Path: strings.TrimPrefix(e.Path, prefix), Name: e.Name, Description: e.Description,
			Class: e.Class, Importance: e.Importance, SupersededBy: e.SupersededBy,
		})
	}
	return catalog.Generate(rel, entries, current, extra), nil
}

// SkipUpToDate is FixCatalog's Written.Skipped when the catalog is already
// what it would write.
const SkipUpToDate = "already up to date"

// FixCatalog regenerates the catalog at rel (store-relative) and commits it.
func (r *Repo) FixCatalog(ctx context.Context, rel string) (Written, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	current, err := r.files.ReadFile(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Written{}, err
	}
	data, err := r.GenerateCatalog(ctx, rel, current, nil)
	if err != nil {
		return Written{}, err
	}
	w := Written{Slug: rel, Path: r.Place.Rel(r.abs(rel))}
	if bytes.Equal(data, current) {
		w.Skipped = SkipUpToDate
		return w, nil
	}
	w.Result, err = r.files.Apply(ctx, []gitstore.Change{{Path: rel, Data: data}},
		gitstore.CommitInfo{Action: "regenerate-index", Slug: rel})
	return w, err
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
