// Package search is mem's full-text index: tokenizer, query building from
// real prompts, BM25F ranking and the on-disk cache that the prompt hook
// opens on every prompt.
//
// It imports only the standard library and builds nothing at package init
// (stopwords are a switch, the stemmer is hand-written), because it runs in a
// hook process whose whole life must stay within a few milliseconds.
//
// # Tokens
//
// Text is lowercased and split at whitespace, punctuation, camelCase,
// snake_case, kebab-case, paths and dotted names; words are stemmed with
// Porter2 and stopwords (general English and conversational filler) are
// dropped. A chunk that is an identifier, path, file name or ticket id is
// also kept whole, unstemmed, as an entity term ("tax.py", "lark-412",
// "expirepasses"), and a path also yields its file name.
//
// # Ranking
//
// BM25F over the fields name, description, aliases, tags and body. A
// document's score is normalised by the query's best possible score (the
// idf mass of its three best terms, plus a share of the mass of prompt terms
// the store never uses, plus a constant that short queries must make up
// for), then multiplied by a mild importance factor, a recency decay for
// classes that decay (half-life 150 days; rules and preferences never decay)
// and a penalty for superseded memories. Nothing is returned unless the best
// score reaches DefaultThreshold, a single constant calibrated on the
// development battery; results after the first must reach a share of the
// first's score.
//
// # Cache format
//
// A cache file is little-endian, written atomically (temporary file, fsync,
// rename) and read in place (mapped where the platform allows):
//
//	header   magic "memindex" [8], version u32, section count u32 (7),
//	         7 × {offset u64, length u64, crc32c u32, reserved u32},
//	         crc32c u32 of everything before it
//	sections each 8-byte aligned, in this order:
//	meta     document count u32, term count u32, average field length f32 × 5
//	dict     one 24-byte entry per term, sorted by term bytes:
//	         {term offset u32, term length u32, document frequency u32,
//	          postings offset u32, postings length u32, postings crc32c u32}
//	strs     the term bytes the dictionary points into
//	post     per term, per document in increasing id order: uvarint id delta
//	         (the first is the id), a field mask byte, then one term-frequency
//	         byte (capped at 255) for each field set in the mask
//	norms    one 18-byte record per document: field lengths u16 × 5,
//	         importance u8, class u8 (see classNames), flags u8
//	         (1 = superseded), reserved u8, modified u32 (days since 1970)
//	docs     one 12-byte entry per document {record offset u32, record length
//	         u32, record crc32c u32}, then the records: uvarint-length strings
//	         slug, path, store, name, description, class, superseded_by, body;
//	         varints importance, modified (Unix ns, MinInt64 when unset),
//	         line; string lists tags, aliases, unverified (uvarint count,
//	         then strings)
//	sources  uvarint count, then per source: path string, varint mod time
//	         (ns), varint size, byte dir (0 or 1): the caller's stamps
//
// Open verifies the header and the checksums of meta, dict, strs, norms and
// sources (what every query reads), and bounds-checks every dictionary
// entry, so that a query never reads out of range. Postings and document
// records are verified by their own checksums when read: a query pays only
// for the terms and the hits it touches. A mismatch found then is reported by
// Index.Err. Any format change bumps the version; Open returns ErrVersion and
// the caller rebuilds.
package search
