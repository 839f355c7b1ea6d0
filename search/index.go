package search

import (
	"encoding/binary"
	"math"
	"slices"
	"sync/atomic"

	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/document"
)

// Doc is one searchable memory: a memory file, or a section of a MEMORY.md
// (package document, which the parsers fill without linking the index).
type Doc = document.Doc

// Fields of a document, in index order.
const (
	fieldName = iota
	fieldDesc
	fieldAliases
	fieldTags
	fieldBody
	numFields
)

// Classes, as stored in the norms table: 0 for none, then class.Names.
var classNames = append([]string{""}, class.Names...)

func classCode(c string) byte {
	for i, n := range classNames {
		if n == c && i > 0 {
			return byte(i)
		}
	}
	return 0
}

// Index is a searchable, immutable set of memories. It reads its data in
// place from the cache layout (see the package doc), whether the bytes were
// built in memory or mapped from a cache file.
type Index struct {
	data     []byte
	sec      [numSections][]byte
	nDocs    int // documents, the delta's included
	baseDocs int // documents of the base file (sec)
	nTerms   int // dictionary entries of the base file
	avgLen   [numFields]float64
	over     *overlay     // the delta beside the cache, when there is one (delta.go)
	release  func() error // unmaps a mapped file
	corrupt  atomic.Bool  // corruption found after Open in a lazily checked part
}

// The stores a memory may come from, as Doc.Store and results name them.
const (
	StoreProject  = "project"  // the repository's store, which mem writes
	StorePersonal = "personal" // Claude Code's auto memory for the repository, read only
	StoreLocal    = "local"    // subagents' memory of local scope, not checked in, read only
	StoreUser     = "user"     // subagents' memory of user scope, shared by every project, read only
)

// Stores are the store labels, the project's first.
var Stores = [...]string{StoreProject, StorePersonal, StoreLocal, StoreUser}

// Build indexes docs. Forgotten memories are never passed in.
func Build(docs []Doc) *Index {
	b := newBuilder(len(docs))
	for i := range docs {
		b.add(&docs[i])
	}
	ix, err := load(b.encode())
	if err != nil {
		panic("search: build produced an unreadable index: " + err.Error())
	}
	return ix
}

// Update returns an index of the documents of ix whose path keep accepts,
// followed by added. The kept documents are carried over as they are, not
// tokenized again: refreshing a large store after one file changed costs a
// pass over the postings, not a rebuild. ErrCorrupt means ix is damaged:
// Build from the files instead.
func Update(ix *Index, keep func(path string) bool, added []Doc) (*Index, error) {
	b := newBuilder(ix.nDocs + len(added))
	if err := b.adopt(ix, keep); err != nil {
		return nil, err
	}
	for i := range added {
		b.add(&added[i])
	}
	return load(b.encode())
}

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.nDocs }

// Err reports corruption found in a part of a mapped cache that Open did not
// verify up front (postings and documents are checked as they are read).
// A caller that sees it should rebuild the cache.
func (ix *Index) Err() error {
	if ix.corrupt.Load() {
		return ErrCorrupt
	}
	return nil
}

// Close releases a mapped cache file. The index must not be used after.
func (ix *Index) Close() error {
	ix.over.close()
	if ix.release == nil {
		return nil
	}
	r := ix.release
	ix.release = nil
	return r()
}

type postingBuilder struct {
	docs []uint32
	tfs  []byte // numFields bytes a posting
}

// builder lays documents out in the cache format: postings per term, a
// norms record and a document record per document, in id order.
type builder struct {
	terms  map[string]*postingBuilder
	norms  []byte
	lenSum [numFields]float64
	table  []byte // docEntrySize bytes a document
	recs   []byte
	local  map[string]*[numFields]byte // the document being added: term → frequency per field
	cache  map[string]string           // word → term, shared across documents
}

func newBuilder(docs int) *builder {
	return &builder{
		terms: make(map[string]*postingBuilder, docs*8),
		norms: make([]byte, 0, docs*normSize),
		table: make([]byte, 0, docs*docEntrySize),
		local: make(map[string]*[numFields]byte, 64),
		cache: make(map[string]string, 1024),
	}
}

// docs returns how many documents the builder holds: one norms record each.
func (b *builder) docs() int { return len(b.norms) / normSize }

func (b *builder) posting(term string) *postingBuilder {
	pb := b.terms[term]
	if pb == nil {
		pb = &postingBuilder{}
		b.terms[term] = pb
	}
	return pb
}

// appendRecord adds a document's record to the docs section.
func (b *builder) appendRecord(rec []byte) {
	b.table = binary.LittleEndian.AppendUint32(b.table, uint32(len(b.recs)))
	b.table = binary.LittleEndian.AppendUint32(b.table, uint32(len(rec)))
	b.table = binary.LittleEndian.AppendUint32(b.table, checksum(rec))
	b.recs = append(b.recs, rec...)
}

// add tokenizes d and gives it the next id.
func (b *builder) add(d *Doc) {
	id := uint32(b.docs())
	clear(b.local)
	var counts [numFields]int
	add := func(f int, text string) {
		tokenizeCached(text, b.cache, nil, func(t token) {
			counts[f]++
			c := b.local[t.term]
			if c == nil {
				c = new([numFields]byte)
				b.local[t.term] = c
			}
			if c[f] < 255 {
				c[f]++
			}
		})
	}
	add(fieldName, d.Name)
	add(fieldDesc, d.Description)
	// An alias is a phrase: its postings say which aliases hold the term
	// (a bit each, the eighth and later sharing the last bit), so that a
	// query can tell a phrase it meets in two words from a word it meets
	// alone. The term's frequency there is the number of bits set.
	for i, a := range d.Aliases {
		bit := byte(1) << min(i, 7)
		tokenizeCached(a, b.cache, nil, func(t token) {
			counts[fieldAliases]++
			c := b.local[t.term]
			if c == nil {
				c = new([numFields]byte)
				b.local[t.term] = c
			}
			c[fieldAliases] |= bit
		})
	}
	for _, t := range d.Tags {
		add(fieldTags, t)
	}
	add(fieldBody, d.Body)
	for term, c := range b.local {
		pb := b.posting(term)
		pb.docs = append(pb.docs, id)
		pb.tfs = append(pb.tfs, c[:]...)
	}
	var n [normSize]byte
	for f := range numFields {
		l := min(counts[f], math.MaxUint16)
		binary.LittleEndian.PutUint16(n[2*f:], uint16(l))
		b.lenSum[f] += float64(l)
	}
	imp := d.Importance
	if imp <= 0 || imp > 10 {
		imp = 5
	}
	n[10] = byte(imp)
	n[11] = classCode(d.Class)
	if d.SupersededBy != "" {
		n[12] |= flagSuperseded
	}
	days := int64(0)
	if !d.Modified.IsZero() {
		days = d.Modified.Unix() / 86400
	}
	binary.LittleEndian.PutUint32(n[14:], uint32(max(0, min(days, math.MaxUint32))))
	b.norms = append(b.norms, n[:]...)
	b.appendRecord(appendDoc(nil, d))
}

// adopt carries over the documents of ix whose path keep accepts, giving
// them the next ids in their old order: postings, norms and records are
// copied, nothing is tokenized. It must come before any add, so that every
// posting list stays in id order. It fails with ErrCorrupt on damage.
func (b *builder) adopt(ix *Index, keep func(path string) bool) error {
	ids := make([]int32, ix.nDocs) // old id → new id, -1 when dropped
	b.recs = slices.Grow(b.recs, len(ix.sec[secDocs]))
	for id := range ix.nDocs {
		rec, ok := ix.record(id)
		if !ok {
			return ErrCorrupt
		}
		r := reader{b: rec, ok: true}
		r.str() // slug
		if path := r.str(); !r.ok || !keep(path) {
			ids[id] = -1
			continue
		}
		ids[id] = int32(b.docs())
		n := ix.normAt(id)
		for f := range numFields {
			b.lenSum[f] += float64(binary.LittleEndian.Uint16(n[2*f:]))
		}
		b.norms = append(b.norms, n...)
		b.appendRecord(rec)
	}
	for _, e := range ix.entries() {
		term, ok := ix.term(e)
		post, ok2 := ix.postings(e)
		if !ok || !ok2 {
			return ErrCorrupt
		}
		var pb *postingBuilder
		ix.eachPosting(post, func(doc int, tf *[numFields]uint8) {
			if id := ids[doc]; id >= 0 {
				if pb == nil {
					pb = b.posting(term)
				}
				pb.docs = append(pb.docs, uint32(id))
				pb.tfs = append(pb.tfs, tf[:]...)
			}
		})
	}
	if ix.corrupt.Load() {
		return ErrCorrupt
	}
	return nil
}

// encode lays out the documents added so far. The sources section is
// empty: WriteFile puts the caller's in.
func (b *builder) encode() []byte {
	sorted := make([]string, 0, len(b.terms))
	for t := range b.terms {
		sorted = append(sorted, t)
	}
	slices.Sort(sorted)

	meta := make([]byte, metaSize)
	n := b.docs()
	binary.LittleEndian.PutUint32(meta[0:], uint32(n))
	binary.LittleEndian.PutUint32(meta[4:], uint32(len(sorted)))
	for f := range numFields {
		avg := 1.0
		if n > 0 && b.lenSum[f] > 0 {
			avg = b.lenSum[f] / float64(n)
		}
		binary.LittleEndian.PutUint32(meta[8+4*f:], math.Float32bits(float32(avg)))
	}

	dict := make([]byte, len(sorted)*dictEntrySize)
	var strs []byte
	var post []byte
	for i, t := range sorted {
		pb := b.terms[t]
		e := dict[i*dictEntrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(len(strs)))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(t)))
		strs = append(strs, t...)
		start := len(post)
		post = appendPostings(post, pb.docs, pb.tfs)
		binary.LittleEndian.PutUint32(e[8:], uint32(len(pb.docs)))
		binary.LittleEndian.PutUint32(e[12:], uint32(start))
		binary.LittleEndian.PutUint32(e[16:], uint32(len(post)-start))
		binary.LittleEndian.PutUint32(e[20:], checksum(post[start:]))
	}

	return assemble([numSections][]byte{
		secMeta:    meta,
		secDict:    dict,
		secStrs:    strs,
		secPost:    post,
		secNorms:   b.norms,
		secDocs:    append(b.table, b.recs...),
		secSources: appendSources(nil, nil),
	})
}

// lookup returns the dictionary entry of term, or -1: the delta's entry
// when it has one (-1 when the term has no document left there), else the
// base file's. Entries from nTerms on are the delta's.
func (ix *Index) lookup(term string) int {
	if ix.over != nil {
		if e := ix.over.lookup(term, &ix.corrupt); e >= 0 {
			if ix.over.docFreq(e) == 0 {
				return -1
			}
			return ix.nTerms + e
		}
	}
	return lookupIn(ix.sec[secDict], ix.sec[secStrs], ix.nTerms, term, &ix.corrupt)
}

// lookupIn binary-searches a dictionary of n entries for term.
func lookupIn(dict, strs []byte, n int, term string, corrupt *atomic.Bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := dict[m*dictEntrySize:]
		off := uint64(binary.LittleEndian.Uint32(e[0:]))
		n := uint64(binary.LittleEndian.Uint32(e[4:]))
		if off+n > uint64(len(strs)) {
			corrupt.Store(true)
			return -1
		}
		// Conversions compared in place are not copied: no allocation.
		s := strs[off : off+n]
		switch {
		case string(s) < term:
			lo = m + 1
		case string(s) == term:
			return m
		default:
			hi = m
		}
	}
	return -1
}

func (ix *Index) docFreq(entry int) int {
	if entry >= ix.nTerms {
		return ix.over.docFreq(entry - ix.nTerms)
	}
	return int(binary.LittleEndian.Uint32(ix.sec[secDict][entry*dictEntrySize+8:]))
}

// postings returns the raw, verified postings of a dictionary entry.
func (ix *Index) postings(entry int) ([]byte, bool) {
	p, sum, ok := ix.rawPostings(entry)
	if ok && checksum(p) != sum {
		ix.corrupt.Store(true)
		return nil, false
	}
	return p, ok
}

// rawPostings returns a dictionary entry's postings and their stored
// checksum, bounds-checked but not verified.
func (ix *Index) rawPostings(entry int) ([]byte, uint32, bool) {
	dict, post := ix.sec[secDict], ix.sec[secPost]
	if entry >= ix.nTerms {
		dict, post, entry = ix.over.sec[dSecDict], ix.over.sec[dSecPost], entry-ix.nTerms
	}
	e := dict[entry*dictEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[12:]))
	n := uint64(binary.LittleEndian.Uint32(e[16:]))
	if off+n > uint64(len(post)) {
		ix.corrupt.Store(true)
		return nil, 0, false
	}
	return post[off : off+n], binary.LittleEndian.Uint32(e[20:]), true
}

// eachPosting decodes postings, calling fn with the document and its term
// frequencies per field. It stops at the first malformed byte.
func (ix *Index) eachPosting(p []byte, fn func(doc int, tf *[numFields]uint8)) {
	doc := uint64(0)
	first := true
	var tf [numFields]uint8
	for len(p) > 0 {
		delta, n := binary.Uvarint(p)
		if n <= 0 || len(p) < n+1 {
			ix.corrupt.Store(true)
			return
		}
		p = p[n:]
		if first {
			doc = delta
			first = false
		} else {
			doc += delta
		}
		mask := p[0]
		p = p[1:]
		for f := range numFields {
			tf[f] = 0
			if mask&(1<<f) != 0 {
				if len(p) == 0 {
					ix.corrupt.Store(true)
					return
				}
				tf[f] = p[0]
				p = p[1:]
			}
		}
		if doc >= uint64(ix.nDocs) {
			ix.corrupt.Store(true)
			return
		}
		fn(int(doc), &tf)
	}
}

type norm struct {
	length     [numFields]uint16
	importance int
	class      string
	superseded bool
	modDays    int64
}

func (ix *Index) norm(doc int) norm {
	n := ix.normAt(doc)
	var r norm
	for f := range numFields {
		r.length[f] = binary.LittleEndian.Uint16(n[2*f:])
	}
	r.importance = int(n[10])
	if int(n[11]) < len(classNames) {
		r.class = classNames[n[11]]
	}
	r.superseded = n[12]&flagSuperseded != 0
	r.modDays = int64(binary.LittleEndian.Uint32(n[14:]))
	return r
}

// record returns one document's raw, verified record.
func (ix *Index) record(id int) ([]byte, bool) {
	rec, sum, ok := ix.rawRecord(id)
	if !ok {
		return nil, false
	}
	if checksum(rec) != sum {
		ix.corrupt.Store(true)
		return nil, false
	}
	return rec, true
}

// doc decodes one document record.
func (ix *Index) doc(id int) (Doc, bool) { return decodeRecord(ix, id, decodeDoc) }

// aliasesOf returns the aliases of document id, reading its record past
// the rest without copying it; none when the record is damaged.
func (ix *Index) aliasesOf(id int) []string {
	aliases, _ := decodeRecord(ix, id, decodeAliases)
	return aliases
}

// decodeRecord decodes the record of document id with decode, and marks
// the index corrupt when decode finds it damaged.
func decodeRecord[T any](ix *Index, id int, decode func([]byte) (T, bool)) (T, bool) {
	var zero T
	rec, ok := ix.record(id)
	if !ok {
		return zero, false
	}
	v, ok := decode(rec)
	if !ok {
		ix.corrupt.Store(true)
		return zero, false
	}
	return v, true
}

// term returns the string of a dictionary entry.
func (ix *Index) term(entry int) (string, bool) {
	b, ok := ix.termBytes(entry)
	return string(b), ok
}

// Docs returns every document, in index order. If a document record is
// corrupt it returns nil and Err reports ErrCorrupt: rebuild from the files.
func (ix *Index) Docs() []Doc {
	docs := make([]Doc, 0, ix.nDocs)
	for id := range ix.nDocs {
		d, ok := ix.doc(id)
		if !ok {
			return nil
		}
		docs = append(docs, d)
	}
	return docs
}
