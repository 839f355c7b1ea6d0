package search

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"sort"
)

// Replace returns an index of ix's documents in which the files named in
// paths (as Doc.Path gives them) hold docs instead: a file that had one
// document and has one keeps its place, a new file's documents come last,
// in the order given. Only the posting lists of the terms those documents
// had (read again from their stored records) or have now are decoded and
// encoded again; every other list, norm and record is copied as it is, so
// a refresh after an edit costs a copy of the file, not a pass over every
// posting. The result is byte for byte what Build writes for the documents
// in their new order.
//
// A change Replace does not make in place (a file gone, forgotten or no
// longer parsed, or one whose number of documents changed, as a catalog's
// sections may) is left to Update, which moves the file's documents to the
// end; so is a cache whose records no longer tokenize into the norms stored
// beside them (another tokenizer wrote it). ErrCorrupt means ix is damaged:
// Build from the files instead.
func Replace(ix *Index, paths []string, docs []Doc) (*Index, error) {
	r, err := planReplace(ix, paths, docs)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return updateChanged(ix, paths, docs)
	}
	secs, err := r.sections()
	if err != nil {
		return nil, err
	}
	return load(assemble(secs))
}

// ReplaceFile writes to path the cache Replace makes, with sources as its
// stamps, the way Index.WriteFile would write it. It does not first join the
// sections into a file in memory and read that back: a writer's refresh
// only writes the cache and maps it again, and the joined copy's fresh
// pages cost more than the copy (at 2,000 memories, a cache of 1.5 MB).
func ReplaceFile(ix *Index, paths []string, docs []Doc, path string, sources []Source) error {
	r, err := planReplace(ix, paths, docs)
	if err != nil {
		return err
	}
	if r == nil {
		nix, err := updateChanged(ix, paths, docs)
		if err != nil {
			return err
		}
		return nix.WriteFile(path, sources)
	}
	secs, err := r.sections()
	if err != nil {
		return err
	}
	secs[secSources] = appendSources(nil, sources)
	return writeSections(path, secs, sectionSums(secs))
}

// updateChanged is the Update that Replace leaves a change to: the
// documents of paths replaced by docs, moved to the end.
func updateChanged(ix *Index, paths []string, docs []Doc) (*Index, error) {
	changed := make(map[string]bool, len(paths))
	for _, p := range paths {
		changed[p] = true
	}
	return Update(ix, func(path string) bool { return !changed[path] }, docs)
}

// replacement is a Replace planned: which documents keep their ids with new
// contents, which are added, and the new documents tokenized.
type replacement struct {
	ix       *Index
	ids      []int        // old ids replaced in place, ascending
	appended []int        // indexes in docs of the added documents, in order
	replaced map[int]bool // ids
	was      *builder     // the replaced documents as they were
	nb       *builder     // the new documents: replacements (in ids order), then the added
	n        int          // documents after

	docsBuf []uint32
	tfsBuf  []byte
	listBuf []byte
}

// planReplace plans Replace, or returns nil when the change is not made in
// place (Replace then leaves it to Update).
func planReplace(ix *Index, paths []string, docs []Doc) (*replacement, error) {
	changed := make(map[string]bool, len(paths))
	for _, p := range paths {
		changed[p] = true
	}
	// The documents each changed file has now, and had.
	now := map[string][]int{}
	for i := range docs {
		now[docs[i].Path] = append(now[docs[i].Path], i)
	}
	before := map[string][]int{}
	for id := range ix.nDocs {
		rec, _, ok := ix.rawRecord(id)
		if !ok {
			return nil, ErrCorrupt
		}
		r := reader{b: rec, ok: true}
		r.skip() // slug
		path := r.bytes()
		if !r.ok {
			return nil, ErrCorrupt
		}
		if changed[string(path)] { // looked up in place: ten thousand records, no copy
			before[string(path)] = append(before[string(path)], id)
		}
	}
	r := &replacement{ix: ix}
	newDoc := map[int]int{} // old id → index in docs
	for i := range docs {
		p := docs[i].Path
		switch {
		case !changed[p]:
			return nil, nil // a document of a file the caller did not name
		case len(before[p]) == 1 && len(now[p]) == 1:
			r.ids = append(r.ids, before[p][0])
			newDoc[before[p][0]] = i
		case len(before[p]) == 0:
			r.appended = append(r.appended, i)
		default:
			return nil, nil
		}
	}
	for _, p := range paths {
		if len(before[p]) > 0 && len(now[p]) == 0 {
			return nil, nil // the file's documents go
		}
	}
	slices.Sort(r.ids)
	if len(r.ids) == 0 && len(r.appended) == 0 {
		return nil, nil // nothing to place: a copy, never ix itself, which the caller closes
	}

	// The replaced documents as they were, tokenized again: their terms are
	// the lists that lose a posting. Their norms must come out as stored.
	r.was = newBuilder(len(r.ids))
	for _, id := range r.ids {
		d, ok := ix.doc(id)
		if !ok {
			return nil, ErrCorrupt
		}
		r.was.add(&d)
		j := r.was.docs() - 1
		if !bytes.Equal(r.was.norms[j*normSize:(j+1)*normSize], ix.normAt(id)) {
			return nil, nil
		}
	}
	// The new documents, replacements first (in old-id order), then the
	// appended ones; newID maps their builder ids to the final ones.
	r.nb = newBuilder(len(r.ids) + len(r.appended))
	for _, id := range r.ids {
		r.nb.add(&docs[newDoc[id]])
	}
	for _, i := range r.appended {
		r.nb.add(&docs[i])
	}
	r.replaced = make(map[int]bool, len(r.ids))
	for _, id := range r.ids {
		r.replaced[id] = true
	}
	r.n = ix.nDocs + len(r.appended)
	return r, nil
}

// newID maps a new document's builder id to its id in the result.
func (r *replacement) newID(j uint32) uint32 {
	if int(j) < len(r.ids) {
		return uint32(r.ids[j])
	}
	return uint32(r.ix.nDocs + int(j) - len(r.ids))
}

// current returns the entry of term as ix holds it, one the delta left
// with no document included; -1 when there is none.
func (r *replacement) current(term string) int {
	ix := r.ix
	if ix.over != nil {
		if e := ix.over.lookup(term, &ix.corrupt); e >= 0 {
			return ix.nTerms + e
		}
	}
	return lookupIn(ix.sec[secDict], ix.sec[secStrs], ix.nTerms, term, &ix.corrupt)
}

// edited re-encodes a term's list: the old postings less the replaced
// documents, with the new documents' postings in id order. The list is
// valid until the next call.
func (r *replacement) edited(term string, old []byte) (int, []byte, bool) {
	r.docsBuf, r.tfsBuf = r.docsBuf[:0], r.tfsBuf[:0]
	pb := r.nb.terms[term]
	k := 0 // next new posting
	emit := func(doc uint32, tf []byte) {
		r.docsBuf = append(r.docsBuf, doc)
		r.tfsBuf = append(r.tfsBuf, tf...)
	}
	flushUpTo := func(limit uint32) {
		for pb != nil && k < len(pb.docs) && r.newID(pb.docs[k]) < limit {
			emit(r.newID(pb.docs[k]), pb.tfs[k*numFields:(k+1)*numFields])
			k++
		}
	}
	if old != nil {
		r.ix.eachPosting(old, func(doc int, tf *[numFields]uint8) {
			flushUpTo(uint32(doc))
			if !r.replaced[doc] {
				emit(uint32(doc), tf[:])
			}
		})
		if r.ix.corrupt.Load() {
			return 0, nil, false
		}
	}
	flushUpTo(math.MaxUint32)
	r.listBuf = appendPostings(r.listBuf[:0], r.docsBuf, r.tfsBuf)
	return len(r.docsBuf), r.listBuf, true
}

// sections lays out the whole result, its stamps left empty: the lists of
// the terms the replacement touched encoded again, every other list, norm
// and record copied.
func (r *replacement) sections() ([numSections][]byte, error) {
	ix := r.ix
	// Terms: the dictionary merged with the new documents' terms that it
	// lacks, in byte order.
	var fresh []string
	for t := range r.nb.terms {
		if ix.lookup(t) < 0 {
			fresh = append(fresh, t)
		}
	}
	sort.Strings(fresh)
	ents := ix.entries()
	if ix.corrupt.Load() {
		return [numSections][]byte{}, ErrCorrupt
	}
	n := r.n
	dict := make([]byte, 0, (len(ents)+len(fresh))*dictEntrySize)
	strs := make([]byte, 0, len(ix.sec[secStrs])+len(fresh)*8)
	post := make([]byte, 0, len(ix.sec[secPost])+4096)
	entry := func(term []byte, df int, list []byte, sum uint32) {
		var e [dictEntrySize]byte
		binary.LittleEndian.PutUint32(e[0:], uint32(len(strs)))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(term)))
		binary.LittleEndian.PutUint32(e[8:], uint32(df))
		binary.LittleEndian.PutUint32(e[12:], uint32(len(post)))
		binary.LittleEndian.PutUint32(e[16:], uint32(len(list)))
		binary.LittleEndian.PutUint32(e[20:], sum)
		dict = append(dict, e[:]...)
		strs = append(strs, term...)
		post = append(post, list...)
	}
	fi := 0
	for k := 0; k <= len(ents); k++ {
		var term []byte
		if k < len(ents) {
			var ok bool
			if term, ok = ix.termBytes(ents[k]); !ok {
				return [numSections][]byte{}, ErrCorrupt
			}
		}
		// New terms that sort before this one.
		for fi < len(fresh) && (k == len(ents) || fresh[fi] < string(term)) {
			df, list, _ := r.edited(fresh[fi], nil)
			entry([]byte(fresh[fi]), df, list, checksum(list))
			fi++
		}
		if k == len(ents) {
			break
		}
		e := ents[k]
		if r.was.terms[string(term)] == nil && r.nb.terms[string(term)] == nil {
			// Copied as it is, checksum and all: damage stays detectable.
			list, sum, ok := ix.rawPostings(e)
			if !ok {
				return [numSections][]byte{}, ErrCorrupt
			}
			entry(term, ix.docFreq(e), list, sum)
			continue
		}
		old, ok := ix.postings(e)
		if !ok {
			return [numSections][]byte{}, ErrCorrupt
		}
		df, list, ok := r.edited(string(term), old)
		if !ok {
			return [numSections][]byte{}, ErrCorrupt
		}
		if df > 0 {
			entry(term, df, list, checksum(list))
		}
	}

	// Norms and records: the old ones, the replaced in place, the new last.
	norms := make([]byte, 0, n*normSize)
	if ix.over == nil {
		norms = append(norms, ix.sec[secNorms]...)
	} else {
		for id := range ix.nDocs {
			norms = append(norms, ix.normAt(id)...)
		}
	}
	for j, id := range r.ids {
		copy(norms[id*normSize:], r.nb.norms[j*normSize:(j+1)*normSize])
	}
	norms = append(norms, r.nb.norms[len(r.ids)*normSize:]...)
	// The documents' section: the table of records, then the records,
	// in one buffer sized for both.
	tableSize := n * docEntrySize
	docs := make([]byte, tableSize, tableSize+len(ix.sec[secDocs])+len(r.nb.recs))
	next := 0 // next replaced id
	for id := range n {
		var rec []byte
		var sum uint32
		switch {
		case id >= ix.nDocs:
			rec = r.nb.record(len(r.ids) + id - ix.nDocs)
			sum = checksum(rec)
		case next < len(r.ids) && r.ids[next] == id:
			rec = r.nb.record(next)
			sum = checksum(rec)
			next++
		default:
			// Copied with its checksum, unverified: damage stays detectable.
			var ok bool
			if rec, sum, ok = ix.rawRecord(id); !ok {
				return [numSections][]byte{}, ErrCorrupt
			}
		}
		e := docs[id*docEntrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(len(docs)-tableSize))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(rec)))
		binary.LittleEndian.PutUint32(e[8:], sum)
		docs = append(docs, rec...)
	}

	meta := make([]byte, metaSize)
	binary.LittleEndian.PutUint32(meta[0:], uint32(n))
	binary.LittleEndian.PutUint32(meta[4:], uint32(len(dict)/dictEntrySize))
	var lenSum [numFields]float64
	for id := range n {
		for f := range numFields {
			lenSum[f] += float64(binary.LittleEndian.Uint16(norms[id*normSize+2*f:]))
		}
	}
	putAverages(meta[8:], lenSum, n)
	return [numSections][]byte{
		secMeta:    meta,
		secDict:    dict,
		secStrs:    strs,
		secPost:    post,
		secNorms:   norms,
		secDocs:    docs,
		secSources: appendSources(nil, nil),
	}, nil
}

// record returns the record of the builder's document j.
func (b *builder) record(j int) []byte {
	e := b.table[j*docEntrySize:]
	off, l := binary.LittleEndian.Uint32(e[0:]), binary.LittleEndian.Uint32(e[4:])
	return b.recs[off : off+l]
}

// rawRecord returns one document's record and its stored checksum,
// bounds-checked but not verified.
func (ix *Index) rawRecord(id int) ([]byte, uint32, bool) {
	sec, count := ix.sec[secDocs], ix.baseDocs
	if ix.over != nil {
		if slot := ix.over.slot(id); slot >= 0 {
			sec, count, id = ix.over.sec[dSecDocs], ix.over.slots, slot
		} else if id >= ix.baseDocs {
			ix.corrupt.Store(true)
			return nil, 0, false
		}
	}
	e := sec[id*docEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[0:]))
	n := uint64(binary.LittleEndian.Uint32(e[4:]))
	base := uint64(count * docEntrySize)
	if base+off+n > uint64(len(sec)) {
		ix.corrupt.Store(true)
		return nil, 0, false
	}
	return sec[base+off : base+off+n], binary.LittleEndian.Uint32(e[8:]), true
}

// termBytes returns the bytes of a dictionary entry's term, in place.
func (ix *Index) termBytes(entry int) ([]byte, bool) {
	dict, strs := ix.sec[secDict], ix.sec[secStrs]
	if entry >= ix.nTerms {
		dict, strs, entry = ix.over.sec[dSecDict], ix.over.sec[dSecStrs], entry-ix.nTerms
	}
	e := dict[entry*dictEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[0:]))
	n := uint64(binary.LittleEndian.Uint32(e[4:]))
	if off+n > uint64(len(strs)) {
		ix.corrupt.Store(true)
		return nil, false
	}
	return strs[off : off+n], true
}

// appendPostings encodes a posting list: per document, in increasing id
// order, the uvarint id delta (the first is the id), a field mask, and a
// frequency byte for each field in the mask; tfs holds numFields bytes a
// document.
func appendPostings(post []byte, docs []uint32, tfs []byte) []byte {
	last := uint32(0)
	for j, doc := range docs {
		post = binary.AppendUvarint(post, uint64(doc-last))
		last = doc
		tf := tfs[j*numFields : (j+1)*numFields]
		var mask byte
		for f, c := range tf {
			if c > 0 {
				mask |= 1 << f
			}
		}
		post = append(post, mask)
		for _, c := range tf {
			if c > 0 {
				post = append(post, c)
			}
		}
	}
	return post
}
