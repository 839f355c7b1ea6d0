// Package layout is a store's file layout: which of its files are memories
// and which are the store's own.
//
// A store is a directory tree of markdown files (gitstore lists them). Every
// *.md file is a memory, known by its slug (the file's name without .md,
// unique in the store whatever its subdirectory), except two:
//
//   - MEMORY.md, in any directory: Claude Code's catalog of the memories
//     beside it (package catalog);
//   - PROFILE.md, at the top only: the team's always-on profile, when the
//     team keeps one (package profile; a person's own lives outside the
//     store).
//
// The review queue, review.jsonl at the top (package curator), is not
// markdown, so no listing of memories meets it.
package layout

import (
	"path"
	"strings"

	"github.com/mem-dev/mem/internal/catalog"
	"github.com/mem-dev/mem/internal/profile"
)

// IsMemory reports whether the store file rel (store-relative, slash
// separated, as gitstore.Store.Walk lists it) is a memory rather than one
// of the store's own files.
func IsMemory(rel string) bool {
	return path.Base(rel) != catalog.FileName && rel != profile.FileName
}

// IsCatalog reports whether the store file rel is a catalog (MEMORY.md).
func IsCatalog(rel string) bool { return path.Base(rel) == catalog.FileName }

// Reserved reports whether a file named name would be one of the store's
// own files on a case-insensitive file system (profile.md is PROFILE.md
// there), so that a memory never takes that name.
func Reserved(name string) bool {
	return strings.EqualFold(name, catalog.FileName) || strings.EqualFold(name, profile.FileName)
}

// Slug is the slug of the memory file rel: its name without .md.
func Slug(rel string) string { return strings.TrimSuffix(path.Base(rel), ".md") }
