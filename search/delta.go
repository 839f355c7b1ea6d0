package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// A delta is a small file beside a cache that holds what a refresh changed
// (ReplaceDelta), so that a refresh after one edit writes the lists, norms
// and records that changed rather than the whole cache: at 10,000 memories
// a delta is about a megabyte, the cache 13 MB. Open reads the two as one
// index, identical in every answer to the cache Replace would write (the
// tests compare them), and the next full write (Replace past the delta's
// limit, Update, Build) folds it back in and removes it.
//
// The delta applies to one base file only: it holds a copy of the base's
// header, which names every section's length and checksum, and Open ignores
// a delta whose copy differs. So a writer may replace the base and then
// remove the delta, and a reader that opens the delta first and the base
// second sees either the pair or the new base alone, never a mix.
//
// Format: the cache's frame (see the package doc) with magic "memdelta",
// the cache's version and nine sections:
//
//	meta     document count u32 (the delta's included), dictionary entries
//	         u32, slots u32, reserved u32, average field length f32 × 5
//	dict     the cache's dictionary entries for the terms whose lists
//	         changed, sorted; a term whose documents all went has df 0
//	strs     their term bytes
//	post     their whole posting lists, in document id order
//	norms    one 18-byte norm a slot
//	docs     one 12-byte entry a slot, then the records
//	sources  the stamps, as the cache's
//	ids      the document id of each slot, u32, increasing: replaced
//	         documents keep their id, added ones follow the base's last
//	base     the base file's header
const deltaMagic = "memdelta"

// Sections of a delta, in file order.
const (
	dSecMeta = iota
	dSecDict
	dSecStrs
	dSecPost
	dSecNorms
	dSecDocs
	dSecSources
	dSecIDs
	dSecBase
	numDeltaSections
)

const (
	deltaHeaderSize = 16 + numDeltaSections*secEntrySize + 4
	deltaMetaSize   = 16 + 4*numFields
)

// DeltaPath is the path of the delta beside the cache at path.
func DeltaPath(path string) string { return strings.TrimSuffix(path, ".bin") + ".delta" }

// overlay is a delta as read: the sections in place.
type overlay struct {
	data    []byte
	sec     [numDeltaSections][]byte
	docs    int // documents, base and delta
	nTerms  int
	slots   int
	avgLen  [numFields]float64
	held    []uint64 // a bit per document id that has a slot: the hot paths test it before searching
	release func() error
}

// openDelta maps and checks the delta at path; nil when there is none or
// it does not read (a refresh then starts again from the base).
func openDelta(path string) *overlay {
	data, release, err := mapFile(path)
	if err != nil {
		return nil
	}
	o := loadDelta(data)
	if o == nil {
		if release != nil {
			release()
		}
		return nil
	}
	o.release = release
	return o
}

func (o *overlay) close() {
	if o != nil && o.release != nil {
		o.release()
		o.release = nil
	}
}

// loadDelta checks a delta's header, its sections' bounds, the checksums of
// its meta, norms, ids and base, and that its slots cover every added
// document. The rest is checked as the cache's is: when read, and by Verify.
func loadDelta(data []byte) *overlay {
	if len(data) < deltaHeaderSize || string(data[:8]) != deltaMagic ||
		binary.LittleEndian.Uint32(data[8:]) != version ||
		binary.LittleEndian.Uint32(data[12:]) != numDeltaSections ||
		checksum(data[:deltaHeaderSize-4]) != binary.LittleEndian.Uint32(data[deltaHeaderSize-4:]) {
		return nil
	}
	o := &overlay{data: data}
	for i := range numDeltaSections {
		e := data[16+i*secEntrySize:]
		off, n := binary.LittleEndian.Uint64(e[0:]), binary.LittleEndian.Uint64(e[8:])
		if off > uint64(len(data)) || n > uint64(len(data))-off {
			return nil
		}
		s := data[off : off+n : off+n]
		switch i {
		case dSecMeta, dSecNorms, dSecIDs, dSecBase:
			if checksum(s) != binary.LittleEndian.Uint32(e[16:]) {
				return nil
			}
		}
		o.sec[i] = s
	}
	meta := o.sec[dSecMeta]
	if len(meta) != deltaMetaSize || len(o.sec[dSecBase]) != headerSize {
		return nil
	}
	docs := uint64(binary.LittleEndian.Uint32(meta[0:]))
	terms := uint64(binary.LittleEndian.Uint32(meta[4:]))
	slots := uint64(binary.LittleEndian.Uint32(meta[8:]))
	if uint64(len(o.sec[dSecDict])) != terms*dictEntrySize || uint64(len(o.sec[dSecNorms])) != slots*normSize ||
		uint64(len(o.sec[dSecIDs])) != slots*4 || uint64(len(o.sec[dSecDocs])) < slots*docEntrySize {
		return nil
	}
	o.docs, o.nTerms, o.slots = int(docs), int(terms), int(slots)
	for f := range numFields {
		a := float64(math.Float32frombits(binary.LittleEndian.Uint32(meta[16+4*f:])))
		if !(a > 0) || math.IsInf(a, 0) {
			return nil
		}
		o.avgLen[f] = a
	}
	last := int64(-1)
	for i := range o.slots {
		id := int64(binary.LittleEndian.Uint32(o.sec[dSecIDs][4*i:]))
		if id <= last || id >= int64(o.docs) {
			return nil
		}
		last = id
	}
	if _, ok := stampsOf(o.sec[dSecSources]); !ok {
		return nil
	}
	return o
}

// attach reads ix with the delta o, when o applies to ix's file.
func (ix *Index) attach(o *overlay) {
	if o == nil {
		return
	}
	base := ix.data[:headerSize]
	// Every document the base lacks must have a slot: the ids from
	// baseDocs on are then the last docs-baseDocs slots.
	added := o.docs - ix.baseDocs
	if !bytes.Equal(o.sec[dSecBase], base) || added < 0 || added > o.slots ||
		added > 0 && int(binary.LittleEndian.Uint32(o.sec[dSecIDs][4*(o.slots-added):])) != ix.baseDocs {
		o.close()
		return
	}
	o.held = make([]uint64, (o.docs+63)/64)
	for i := range o.slots {
		id := binary.LittleEndian.Uint32(o.sec[dSecIDs][4*i:])
		o.held[id/64] |= 1 << (id % 64)
	}
	ix.over = o
	ix.nDocs = o.docs
	ix.avgLen = o.avgLen
}

// verify checks what loadDelta leaves to the reads: every checksum but the
// postings' and the records' (which carry their own), the dictionary's
// bounds and the stamps.
func (o *overlay) verify() bool {
	for i := range numDeltaSections {
		if i == dSecPost || i == dSecDocs {
			continue
		}
		if checksum(o.sec[i]) != binary.LittleEndian.Uint32(o.data[16+i*secEntrySize+16:]) {
			return false
		}
	}
	if !dictInBounds(o.sec[dSecDict], o.sec[dSecStrs], o.sec[dSecPost]) {
		return false
	}
	return sourcesValid(o.sec[dSecSources])
}

// slot returns the slot of document id in the delta, or -1.
func (o *overlay) slot(id int) int {
	if uint(id) >= uint(o.docs) || o.held[id/64]&(1<<(id%64)) == 0 {
		return -1
	}
	ids := o.sec[dSecIDs]
	lo, hi := 0, o.slots
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch v := int(binary.LittleEndian.Uint32(ids[4*m:])); {
		case v < id:
			lo = m + 1
		case v == id:
			return m
		default:
			hi = m
		}
	}
	return -1
}

func (o *overlay) lookup(term string, corrupt *atomic.Bool) int {
	return lookupIn(o.sec[dSecDict], o.sec[dSecStrs], o.nTerms, term, corrupt)
}

func (o *overlay) docFreq(e int) int {
	return int(binary.LittleEndian.Uint32(o.sec[dSecDict][e*dictEntrySize+8:]))
}

// normAt returns the norm of document doc: the delta's when it holds one.
func (ix *Index) normAt(doc int) []byte {
	if ix.over != nil {
		if s := ix.over.slot(doc); s >= 0 {
			return ix.over.sec[dSecNorms][s*normSize : (s+1)*normSize]
		}
	}
	return ix.sec[secNorms][doc*normSize : (doc+1)*normSize]
}

// entries returns the dictionary entries in term order: the base file's,
// with the delta's in place of those it changed and without those it left
// with no document.
func (ix *Index) entries() []int {
	out := make([]int, 0, ix.nTerms)
	if ix.over == nil {
		for e := range ix.nTerms {
			out = append(out, e)
		}
		return out
	}
	i, j := 0, 0
	for i < ix.nTerms || j < ix.over.nTerms {
		var c int
		switch {
		case i == ix.nTerms:
			c = 1
		case j == ix.over.nTerms:
			c = -1
		default:
			a, ok := ix.termBytes(i)
			b, ok2 := ix.termBytes(ix.nTerms + j)
			if !ok || !ok2 {
				return nil
			}
			c = bytes.Compare(a, b)
		}
		if c < 0 {
			out = append(out, i)
			i++
			continue
		}
		if ix.over.docFreq(j) > 0 {
			out = append(out, ix.nTerms+j)
		}
		if c == 0 {
			i++
		}
		j++
	}
	return out
}

// Delta is a refresh's changes to a cache, to be written beside it.
type Delta struct {
	secs [numDeltaSections][]byte
}

// Size is how many bytes the delta's file takes.
func (d *Delta) Size() int {
	n := deltaHeaderSize
	for _, s := range d.secs {
		n = align8(n) + len(s)
	}
	return n
}

// WriteFile writes the delta, with the caller's stamps, beside the cache
// at path (DeltaPath), atomically.
func (d *Delta) WriteFile(path string, sources []Source) error {
	secs := d.secs
	secs[dSecSources] = appendSources(nil, sources)
	var sums [numDeltaSections]uint32
	for i, s := range secs {
		sums[i] = checksum(s)
	}
	return atomicfile.WritePartsUnsynced(DeltaPath(path), 0o600, frameOf(deltaMagic, secs[:], sums[:])...)
}

// errNotInPlace means the change is not one a delta can hold: ids move.
var errNotInPlace = errors.New("search: the change moves documents")

// deltaList is one term's list in a delta being made.
type deltaList struct {
	df   int
	list []byte
	sum  uint32
}

// delta lays out the replacement as changes to ix's base file: the lists of
// the terms it touched and those the delta already held, the norms and
// records of the documents it replaced or added and those the delta held.
func (r *replacement) delta() (*Delta, error) {
	ix := r.ix
	lists := map[string]deltaList{}
	if o := ix.over; o != nil {
		for j := range o.nTerms {
			term, ok := ix.termBytes(ix.nTerms + j)
			list, sum, ok2 := ix.rawPostings(ix.nTerms + j)
			if !ok || !ok2 {
				return nil, ErrCorrupt
			}
			lists[string(term)] = deltaList{df: o.docFreq(j), list: list, sum: sum}
		}
	}
	touched := map[string]bool{}
	for t := range r.was.terms {
		touched[t] = true
	}
	for t := range r.nb.terms {
		touched[t] = true
	}
	for t := range touched {
		var old []byte
		if e := r.current(t); e >= 0 {
			var ok bool
			if old, ok = ix.postings(e); !ok {
				return nil, ErrCorrupt
			}
		}
		df, list, ok := r.edited(t, old)
		if !ok {
			return nil, ErrCorrupt
		}
		list = slices.Clone(list)
		lists[t] = deltaList{df: df, list: list, sum: checksum(list)}
	}
	terms := make([]string, 0, len(lists))
	for t, l := range lists {
		if l.df == 0 && lookupIn(ix.sec[secDict], ix.sec[secStrs], ix.nTerms, t, &ix.corrupt) < 0 {
			continue // neither the base nor the result has it
		}
		terms = append(terms, t)
	}
	slices.Sort(terms)
	var d Delta
	for _, t := range terms {
		l := lists[t]
		var e [dictEntrySize]byte
		binary.LittleEndian.PutUint32(e[0:], uint32(len(d.secs[dSecStrs])))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(t)))
		binary.LittleEndian.PutUint32(e[8:], uint32(l.df))
		binary.LittleEndian.PutUint32(e[12:], uint32(len(d.secs[dSecPost])))
		binary.LittleEndian.PutUint32(e[16:], uint32(len(l.list)))
		binary.LittleEndian.PutUint32(e[20:], l.sum)
		d.secs[dSecDict] = append(d.secs[dSecDict], e[:]...)
		d.secs[dSecStrs] = append(d.secs[dSecStrs], t...)
		d.secs[dSecPost] = append(d.secs[dSecPost], l.list...)
	}

	// Slots: the delta's, then the replacement's over them.
	type slotData struct {
		norm, rec []byte
		sum       uint32
	}
	slots := map[int]slotData{}
	if o := ix.over; o != nil {
		for s := range o.slots {
			id := int(binary.LittleEndian.Uint32(o.sec[dSecIDs][4*s:]))
			rec, sum, ok := ix.rawRecord(id)
			if !ok {
				return nil, ErrCorrupt
			}
			slots[id] = slotData{norm: o.sec[dSecNorms][s*normSize : (s+1)*normSize], rec: rec, sum: sum}
		}
	}
	for j := range r.nb.docs() {
		rec := r.nb.record(j)
		slots[int(r.newID(uint32(j)))] = slotData{norm: r.nb.norms[j*normSize : (j+1)*normSize], rec: rec, sum: checksum(rec)}
	}
	ids := make([]int, 0, len(slots))
	for id := range slots {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var table, recs []byte
	for _, id := range ids {
		sd := slots[id]
		d.secs[dSecIDs] = binary.LittleEndian.AppendUint32(d.secs[dSecIDs], uint32(id))
		d.secs[dSecNorms] = append(d.secs[dSecNorms], sd.norm...)
		table = binary.LittleEndian.AppendUint32(table, uint32(len(recs)))
		table = binary.LittleEndian.AppendUint32(table, uint32(len(sd.rec)))
		table = binary.LittleEndian.AppendUint32(table, sd.sum)
		recs = append(recs, sd.rec...)
	}
	d.secs[dSecDocs] = append(table, recs...)

	meta := make([]byte, deltaMetaSize)
	binary.LittleEndian.PutUint32(meta[0:], uint32(r.n))
	binary.LittleEndian.PutUint32(meta[4:], uint32(len(terms)))
	binary.LittleEndian.PutUint32(meta[8:], uint32(len(ids)))
	var lenSum [numFields]float64
	for id := range r.n {
		sd, ok := slots[id] // every added document has one
		n := sd.norm
		if !ok {
			n = ix.normAt(id)
		}
		for f := range numFields {
			lenSum[f] += float64(binary.LittleEndian.Uint16(n[2*f:]))
		}
	}
	putAverages(meta[16:], lenSum, r.n)
	d.secs[dSecMeta] = meta
	d.secs[dSecBase] = slices.Clone(ix.data[:headerSize])
	return &d, nil
}

// putAverages writes the average field lengths of n documents whose field
// lengths sum to lenSum, as f32s, as a build does.
func putAverages(b []byte, lenSum [numFields]float64, n int) {
	for f := range numFields {
		avg := 1.0
		if n > 0 && lenSum[f] > 0 {
			avg = lenSum[f] / float64(n)
		}
		binary.LittleEndian.PutUint32(b[4*f:], math.Float32bits(float32(avg)))
	}
}

// ReplaceDelta is Replace written as a delta beside ix's base file: the
// same documents in the same order, read by Open as one index with the
// base. A change that is not made in place (see Replace) has no delta:
// it returns an error, and the caller writes the whole cache with Replace.
func ReplaceDelta(ix *Index, paths []string, docs []Doc) (*Delta, error) {
	r, err := planReplace(ix, paths, docs)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, errNotInPlace
	}
	return r.delta()
}
