// Package indexer turns a store's files into the search index and keeps the
// index's cache up to date. It sits between mdparse (which makes a memory
// into a search document, mdparse.Memory.Document) and search, so that
// search, which runs in the prompt hook, links no markdown or YAML parser.
//
// The index reads four stores: the project's (the store's own files, read
// through gitstore so that a link leading out of it is refused), Claude
// Code's auto memory for this repository (personal), and the memories of
// subagents with local and user scope. Only the first is ever written; the
// others are read only, and each entry carries its store's label
// (search.Stores). A memory is one entry; a catalog (MEMORY.md) contributes
// the sections that hold facts of their own; the profile contributes none,
// since every session gets it whole at its start.
//
// # Cache
//
// The cache is one file per store under <git-common-dir>/mem/ (search's
// format, locate.Place.IndexPath). It keeps the stamp of every file and
// directory it was built from. A refresh parses only the files whose stamps
// changed and carries the old cache's postings over for the rest; a missing
// or damaged cache is rebuilt from every file, and a rebuild prunes the
// caches nobody will read again.
package indexer
