// Package search is mem's full-text index: tokenizer, query building from
// real prompts, BM25F ranking and the on-disk cache that the prompt hook
// opens on every prompt.
//
// It imports only the standard library and builds nothing at package init
// (stopwords are a switch, the stemmer is hand-written), because it runs in a
// hook process whose whole life must stay within a few milliseconds.
//
// # Files
//
// token.go, stem.go and stop.go make terms of text; clean.go reads a raw
// prompt (prose and pastes apart, markers and URLs out); query.go builds
// the weighted query from it and from the previous turn; thesaurus.go
// expands terms; rank.go scores and keeps or drops results; snippet.go
// picks the line shown; index.go builds an index (Build, Update); merge.go
// replaces a few files' documents in place (Replace); cache.go is its file,
// below, and delta.go the small file of changes a refresh writes beside it;
// fresh.go judges whether the file still reflects the memories (statat_*.go:
// the full check's stats). TUNING.md is the journal of what was measured.
//
// # Invariants
//
//   - The package links only the standard library and mem's lean packages
//     (the lean set of docs/architecture.md, held by cmd/mem-hook's test)
//     and builds nothing at package init.
//   - Silence is a result: Search returns nothing unless the best score
//     clears the threshold (Options.All aside), and a query with no topic
//     of its own (Empty) finds nothing whatever the previous turn says.
//   - Results hold copies, never views of the mapped file: an Index may be
//     closed while they are used.
//   - A cache is a cache: a missing, stale, damaged or other-version file is
//     detected (ErrVersion, checksums, Fresh) and the caller rebuilds it.
//
// # Tokens
//
// Text is lowercased and split at whitespace, punctuation, camelCase,
// snake_case, kebab-case, paths and dotted names; words are stemmed with
// Porter2 and stopwords (general English and conversational filler) are
// dropped. A chunk that is an identifier, path, file name or ticket id is
// also kept whole, unstemmed, as an entity term ("tax.py", "lark-412",
// "expirepasses"), and a path also yields its file name. Single digits are
// kept, and number words map to digits ("six minutes" and "6 minutes" both
// give "6"; "one" stays a stopword).
//
// The stemmer (stem.go) is mem's own, held to the maintained Snowball
// English stemmer, github.com/kljensen/snowball, by TestStemIsSnowball: the
// two give the same stem for each of the 4,684 distinct words that reach
// Stem in the test stores and the dev store. It is kept because the library
// costs more and buys nothing (2026-12-07; BenchmarkStem over the dev
// battery's prompt words, 5 runs, median): 0.31 µs and 0.95 allocations a
// word against the library's 1.36 µs and 1.9 (6 B against 34 B), and
// mem-hook grows by 84 KB (4.32 → 4.41 MB) with it, where its start does not
// move (the prompt hook on 500 memories through sh -c, 100 interleaved
// rounds: 4.56 against 4.86 ms, within the noise).
//
// # Ranking
//
// BM25F over the fields name, description, aliases, tags and body. An
// alias is a phrase: a word of the prompt counts fully in an alias that
// also holds another of the prompt's words, and half in one it meets
// alone (one shared word of a phrase is weak evidence, and a rare one
// would outweigh the memory the prompt is about). A memory is a candidate
// only when the prompt meets a word (or a synonym) of its name,
// description or tags, or two words of one of its aliases: a body that
// shares words with a prompt is not enough. A section of a MEMORY.md,
// which has no description, is judged by its body. A path the prompt names
// is one thing: a memory gets the best of its terms (the path, its file
// name, its words), not their sum, unless two of them are in the memory's
// summary.
// A document's score is normalised by the query's best possible score (the
// idf mass of its three best terms, synonyms left out, plus a constant that
// short queries must make up for, and a fifth of the mass of a long
// prompt's own terms beyond its twelve best; terms the store never uses add
// a little in a small store and nothing in a large one, see Small stores in
// TUNING.md), scaled by coverage (0.9 + 0.1 × the share of the prompt's own idf
// mass that the memory's name, description and tags contain: a memory is
// about what its summary says; aliases say what it is found by, so they
// are left out), then multiplied by a mild importance factor, a recency decay for
// classes that decay (half-life 150 days; rules and preferences never decay)
// and a penalty for superseded memories. Nothing is returned unless the best
// score reaches DefaultThreshold, a single constant calibrated on the
// development battery; the second result must reach 0.7 of the first's
// score, the third 0.9 (the hook injects two at most, MaxInjected; mem
// search lists more on request). The first two are then settled by what
// their scores cannot see (settle): within 0.8 of the first, the memory one
// of whose aliases the prompt restates (three of its words or more, a share
// of them 0.2 above the other's best alias) goes first, and a second is not
// shown when the first is restated (in two words or more, a phrase) and the
// second is not as much; otherwise, within 0.9, the memory its writer rated
// the more important goes first. A memory without aliases is not judged by
// them, and nothing settled there decides whether anything is shown.
//
// # Thesaurus
//
// A query term is expanded with related terms from a small, general
// software-engineering thesaurus (thesaurusSource in thesaurus_test.go,
// generated into a sorted static table: nothing is built at init):
// abbreviations (prod/production, db/database, pr/pull request, a11y, month
// names), near-synonyms (deploy/release/ship/rollout, outage/incident/
// downtime, duplicate/dedupe) and a few one-way associations (5xx → error,
// outage; dashboard → metrics; mockup → design). An expansion weighs 0.7 of
// the term it came from, does not count in the best possible score, and
// stands in for its term rather than adding to it: a document gets, per
// term, the best of the term's and its expansions' contributions. Summing
// them instead found more memories (rank@2 0.72) but let silence prompts
// score (hit@2 fell to 0.30 at the calibrated threshold).
//
// TUNING.md, beside this file, is the journal of what was measured while
// the method and its constants were chosen, and of what was tried and not
// kept. A change to ranking or query building adds an entry there.
//
// # Snippets
//
// A memory found is shown with its description and the line of
// its body (a long line's sentence) that meets the most of the query's
// terms that its name and description do not; without a description, the
// line that meets the most.
// A section of a long MEMORY.md (subagents keep everything there) is many
// facts, and its first line is seldom the one asked about. Reading a line
// costs a stemming per word, so only words that start as a wanted term does
// are stemmed: BenchmarkOpenAndSearch500 (three snippets) 70 → 93 µs.
//
// # Freshness
//
// The cache keeps a stamp (modification time and size) of every file and
// directory it was built from (Source). CheckFresh compares them without
// opening the repository or parsing anything: the prompt hook checks one
// stat per directory (adds, deletes, renames, saves by rename, and git's
// checkouts and pulls), the files named by the stale marker the PostToolUse
// hook drops when an agent edits a store file in place, and a rotating
// slice of the files; every other command checks every file (fresh.go).
//
// # Cache format
//
// A cache file is little-endian, written atomically (internal/atomicfile:
// temporary file, rename; not synced, as it is derived: a file a crash
// left torn or empty fails its checksums and is rebuilt) and read in place
// (mapped where the platform allows):
//
//	header   magic "memindex" [8], version u32, section count u32 (7),
//	         7 × {offset u64, length u64, checksum u32, reserved u32},
//	         checksum u32 of everything before it
//	sections each 8-byte aligned, in this order:
//	meta     document count u32, term count u32, average field length f32 × 5
//	dict     one 24-byte entry per term, sorted by term bytes:
//	         {term offset u32, term length u32, document frequency u32,
//	          postings offset u32, postings length u32, postings checksum u32}
//	strs     the term bytes the dictionary points into
//	post     per term, per document in increasing id order: uvarint id delta
//	         (the first is the id), a field mask byte, then one byte for each
//	         field set in the mask: the term's frequency (capped at 255), or
//	         for aliases a bit per alias that holds the term (the eighth and
//	         later aliases share the last bit)
//	norms    one 18-byte record per document: field lengths u16 × 5,
//	         importance u8, class u8 (see classNames), flags u8
//	         (1 = superseded), reserved u8, modified u32 (days since 1970)
//	docs     one 12-byte entry per document {record offset u32, record length
//	         u32, record checksum u32}, then the records: uvarint-length strings
//	         slug, path, store, name, description, class, superseded_by, body;
//	         varints importance, modified (Unix ns, MinInt64 when unset),
//	         line; string lists tags, aliases, unverified (uvarint count,
//	         then strings)
//	sources  uvarint count, then per source: path string, varint mod time
//	         (ns), varint size, byte dir (0 or 1): the caller's stamps
//
// Checksums are the low 32 bits of XXH64 (seed 0): CRC-32 built lookup
// tables in every process before its first use, about 25 µs of a hook.
//
// Open verifies the header, every section's bounds and the checksums of
// meta and norms. The dictionary, term bytes and sources are bounds-checked
// wherever a query reads them, so that a query never reads out of range,
// and checked against their checksums by Verify, which every non-hook
// command runs. Postings and document records are verified by their own
// checksums when read: a query pays only for the terms and the hits it
// touches. A mismatch found then is reported by Index.Err. Any format change
// bumps the version, with a line in cache.go's changelog of versions; Open
// returns ErrVersion and the caller rebuilds.
//
// Terms are found by binary search of the sorted dictionary. An
// open-addressing hash table beside it was measured and not kept: the long
// bench prompt's ~130 lookups cost the same in a fresh process (~35 µs by
// CPU profile), since a binary search's first probes are shared by every
// lookup and stay cached, while each hash probe lands on a cold page.
//
// A refresh after a few files changed does not rebuild: Replace re-encodes
// only the posting lists of the terms the changed documents had or have,
// copies every other list, norm and record with its checksum, and its
// result is byte for byte what Build would write (ReplaceFile writes it
// to the cache file without first joining it in memory). For a large cache
// (2 MB and more) the refresh writes those lists, norms and records as a
// delta beside the cache instead (ReplaceDelta, delta.go: about 1 MB at
// 10,000 memories against 13 MB), which Open reads with the cache as one
// index answering exactly as Replace's result would; the cache is written
// whole again, the delta folded in, once the delta passes a quarter of it,
// or when a change moves documents (a file deleted: Update). The delta
// names the cache it applies to by a copy of its header, and is ignored
// beside any other. At 10,000 memories with one file touched, `mem index`
// went from 645 ms to 249 ms with Update, to ~85 ms with Replace and the
// stamps read in place, and to ~60 ms (load 7) with the delta and one pass of stats
// (bench/refresh.sh; bench/README.md has the figures and their load).
package search
