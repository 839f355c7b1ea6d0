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
	changed := make(map[string]bool, len(paths))
	for _, p := range paths {
		changed[p] = true
	}
	update := func() (*Index, error) {
		return Update(ix, func(path string) bool { return !changed[path] }, docs)
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
		r.str() // slug
		path := r.str()
		if !r.ok {
			return nil, ErrCorrupt
		}
		if changed[path] {
			before[path] = append(before[path], id)
		}
	}
	var ids []int           // old ids replaced in place, ascending
	newDoc := map[int]int{} // old id → index in docs
	var appended []int      // indexes in docs, in order
	for i := range docs {
		p := docs[i].Path
		switch {
		case !changed[p]:
			return update() // a document of a file the caller did not name
		case len(before[p]) == 1 && len(now[p]) == 1:
			ids = append(ids, before[p][0])
			newDoc[before[p][0]] = i
		case len(before[p]) == 0:
			appended = append(appended, i)
		default:
			return update()
		}
	}
	for _, p := range paths {
		if len(before[p]) > 0 && len(now[p]) == 0 {
			return update() // the file's documents go
		}
	}
	slices.Sort(ids)
	if len(ids) == 0 && len(appended) == 0 {
		return update() // nothing to place: a copy, never ix itself, which the caller closes
	}

	// The replaced documents as they were, tokenized again: their terms are
	// the lists that lose a posting. Their norms must come out as stored.
	was := newBuilder(len(ids))
	for _, id := range ids {
		d, ok := ix.doc(id)
		if !ok {
			return nil, ErrCorrupt
		}
		was.add(&d)
		j := was.docs() - 1
		if !bytes.Equal(was.norms[j*normSize:(j+1)*normSize], ix.sec[secNorms][id*normSize:(id+1)*normSize]) {
			return update()
		}
	}
	// The new documents, replacements first (in old-id order), then the
	// appended ones; newID maps their builder ids to the final ones.
	nb := newBuilder(len(ids) + len(appended))
	for _, id := range ids {
		nb.add(&docs[newDoc[id]])
	}
	for _, i := range appended {
		nb.add(&docs[i])
	}
	newID := func(j uint32) uint32 {
		if int(j) < len(ids) {
			return uint32(ids[j])
		}
		return uint32(ix.nDocs + int(j) - len(ids))
	}
	replaced := make(map[int]bool, len(ids))
	for _, id := range ids {
		replaced[id] = true
	}

	// Terms: the old dictionary merged with the new documents' terms that
	// it lacks, in byte order.
	var fresh []string
	for t := range nb.terms {
		if ix.lookup(t) < 0 {
			fresh = append(fresh, t)
		}
	}
	sort.Strings(fresh)
	n := ix.nDocs + len(appended)
	dict := make([]byte, 0, (ix.nTerms+len(fresh))*dictEntrySize)
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
	var docsBuf []uint32
	var tfsBuf []byte
	var listBuf []byte
	// edited re-encodes a term's list: the old postings less the replaced
	// documents, with the new documents' postings in id order.
	edited := func(term string, old []byte) (int, []byte, bool) {
		docsBuf, tfsBuf = docsBuf[:0], tfsBuf[:0]
		pb := nb.terms[term]
		k := 0 // next new posting
		emit := func(doc uint32, tf []byte) {
			docsBuf = append(docsBuf, doc)
			tfsBuf = append(tfsBuf, tf...)
		}
		flushUpTo := func(limit uint32) {
			for pb != nil && k < len(pb.docs) && newID(pb.docs[k]) < limit {
				emit(newID(pb.docs[k]), pb.tfs[k*numFields:(k+1)*numFields])
				k++
			}
		}
		if old != nil {
			ix.eachPosting(old, func(doc int, tf *[numFields]uint8) {
				flushUpTo(uint32(doc))
				if !replaced[doc] {
					emit(uint32(doc), tf[:])
				}
			})
			if ix.corrupt.Load() {
				return 0, nil, false
			}
		}
		flushUpTo(math.MaxUint32)
		listBuf = appendPostings(listBuf[:0], docsBuf, tfsBuf)
		return len(docsBuf), listBuf, true
	}
	fi := 0
	for e := 0; e <= ix.nTerms; e++ {
		var term []byte
		if e < ix.nTerms {
			var ok bool
			if term, ok = ix.termBytes(e); !ok {
				return nil, ErrCorrupt
			}
		}
		// New terms that sort before this one.
		for fi < len(fresh) && (e == ix.nTerms || fresh[fi] < string(term)) {
			df, list, _ := edited(fresh[fi], nil)
			entry([]byte(fresh[fi]), df, list, checksum(list))
			fi++
		}
		if e == ix.nTerms {
			break
		}
		if was.terms[string(term)] == nil && nb.terms[string(term)] == nil {
			// Copied as it is, checksum and all: damage stays detectable.
			de := ix.sec[secDict][e*dictEntrySize:]
			off, l := uint64(binary.LittleEndian.Uint32(de[12:])), uint64(binary.LittleEndian.Uint32(de[16:]))
			if off+l > uint64(len(ix.sec[secPost])) {
				return nil, ErrCorrupt
			}
			entry(term, ix.docFreq(e), ix.sec[secPost][off:off+l], binary.LittleEndian.Uint32(de[20:]))
			continue
		}
		old, ok := ix.postings(e)
		if !ok {
			return nil, ErrCorrupt
		}
		df, list, ok := edited(string(term), old)
		if !ok {
			return nil, ErrCorrupt
		}
		if df > 0 {
			entry(term, df, list, checksum(list))
		}
	}

	// Norms and records: the old ones, the replaced in place, the new last.
	norms := make([]byte, 0, n*normSize)
	norms = append(norms, ix.sec[secNorms]...)
	for j, id := range ids {
		copy(norms[id*normSize:], nb.norms[j*normSize:(j+1)*normSize])
	}
	norms = append(norms, nb.norms[len(ids)*normSize:]...)
	table := make([]byte, 0, n*docEntrySize)
	recs := make([]byte, 0, len(ix.sec[secDocs])+len(nb.recs))
	nbRecord := func(j int) []byte {
		e := nb.table[j*docEntrySize:]
		off, l := binary.LittleEndian.Uint32(e[0:]), binary.LittleEndian.Uint32(e[4:])
		return nb.recs[off : off+l]
	}
	next := 0 // next replaced id
	for id := range n {
		var rec []byte
		var sum uint32
		switch {
		case id >= ix.nDocs:
			rec = nbRecord(len(ids) + id - ix.nDocs)
			sum = checksum(rec)
		case next < len(ids) && ids[next] == id:
			rec = nbRecord(next)
			sum = checksum(rec)
			next++
		default:
			// Copied with its checksum, unverified: damage stays detectable.
			var ok bool
			if rec, sum, ok = ix.rawRecord(id); !ok {
				return nil, ErrCorrupt
			}
		}
		table = binary.LittleEndian.AppendUint32(table, uint32(len(recs)))
		table = binary.LittleEndian.AppendUint32(table, uint32(len(rec)))
		table = binary.LittleEndian.AppendUint32(table, sum)
		recs = append(recs, rec...)
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
	for f := range numFields {
		avg := 1.0
		if n > 0 && lenSum[f] > 0 {
			avg = lenSum[f] / float64(n)
		}
		binary.LittleEndian.PutUint32(meta[8+4*f:], math.Float32bits(float32(avg)))
	}
	return load(assemble([numSections][]byte{
		secMeta:    meta,
		secDict:    dict,
		secStrs:    strs,
		secPost:    post,
		secNorms:   norms,
		secDocs:    append(table, recs...),
		secSources: appendSources(nil, nil),
	}))
}

// rawRecord returns one document's record and its stored checksum,
// bounds-checked but not verified.
func (ix *Index) rawRecord(id int) ([]byte, uint32, bool) {
	sec := ix.sec[secDocs]
	e := sec[id*docEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[0:]))
	n := uint64(binary.LittleEndian.Uint32(e[4:]))
	base := uint64(ix.nDocs * docEntrySize)
	if base+off+n > uint64(len(sec)) {
		ix.corrupt.Store(true)
		return nil, 0, false
	}
	return sec[base+off : base+off+n], binary.LittleEndian.Uint32(e[8:]), true
}

// termBytes returns the bytes of a dictionary entry's term, in place.
func (ix *Index) termBytes(entry int) ([]byte, bool) {
	e := ix.sec[secDict][entry*dictEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[0:]))
	n := uint64(binary.LittleEndian.Uint32(e[4:]))
	if off+n > uint64(len(ix.sec[secStrs])) {
		ix.corrupt.Store(true)
		return nil, false
	}
	return ix.sec[secStrs][off : off+n], true
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
