package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// Sentinel errors of Open. Either means: rebuild the cache, silently.
var (
	ErrCorrupt = errors.New("search: index cache is corrupt")
	ErrVersion = errors.New("search: index cache has another format version")
)

const magic = "memindex"

// version is the cache format's version, in every cache's header. Any
// change to the layout, or to what a field holds, bumps it and adds its
// line here; Open refuses another version (ErrVersion) and the caller
// rebuilds, so a cache written by an older mem is never misread.
//
//	1  the BM25F index: header, sections, postings, norms, records (c660f14)
//	2  stamps in an offset table, directories first, read in place; the
//	   prompt path reads only what it touches (5d614f2)
//	3  section checksums CRC-32 IEEE instead of Castagnoli (ae76e9a)
//	4  section and record checksums XXH64 instead of CRC-32 (6648aef)
//	5  alias postings say which of a memory's aliases hold the term, so
//	   that an alias counts as a phrase (eef0959)
//	6  a record holds Doc.Broken: why a memory's frontmatter does not
//	   parse (58474a0)
const version = 6

// Sections, in file order.
const (
	secMeta = iota
	secDict
	secStrs
	secPost
	secNorms
	secDocs
	secSources
	numSections
)

const (
	secEntrySize  = 24 // offset u64, length u64, checksum u32, reserved u32
	headerSize    = 16 + numSections*secEntrySize + 4
	metaSize      = 8 + 4*numFields
	dictEntrySize = 24 // term offset, term length, df, postings offset, postings length, postings checksum
	normSize      = 18 // field lengths 5×u16, importance, class, flags, reserved, modified (days) u32
	docEntrySize  = 12 // record offset, length, checksum

	flagSuperseded = 1
)

// assemble writes the header and the sections, each aligned to 8 bytes.
func assemble(secs [numSections][]byte) []byte {
	return bytes.Join(frame(secs, sectionSums(secs)), nil)
}

// sectionSums are the checksums of secs, as a header holds them.
func sectionSums(secs [numSections][]byte) [numSections]uint32 {
	var sums [numSections]uint32
	for i, s := range secs {
		sums[i] = checksum(s)
	}
	return sums
}

// writeSections writes the cache file of secs, whose checksums are sums,
// to path, unsynced (see doc.go) and without joining it in memory.
func writeSections(path string, secs [numSections][]byte, sums [numSections]uint32) error {
	return atomicfile.WritePartsUnsynced(path, 0o600, frame(secs, sums)...)
}

// frame lays out a cache file as parts to write in order: the header (for
// sections whose checksums are sums), then each section after the padding
// that aligns it to 8 bytes.
func frame(secs [numSections][]byte, sums [numSections]uint32) [][]byte {
	return frameOf(magic, secs[:], sums[:])
}

// frameOf is frame for a file of any magic and number of sections (a
// delta's, delta.go).
func frameOf(magic string, secs [][]byte, sums []uint32) [][]byte {
	size := 16 + len(secs)*secEntrySize + 4
	header := make([]byte, size)
	copy(header, magic)
	binary.LittleEndian.PutUint32(header[8:], version)
	binary.LittleEndian.PutUint32(header[12:], uint32(len(secs)))
	parts := [][]byte{header}
	var zeros [8]byte
	off := size
	for i, s := range secs {
		if pad := align8(off) - off; pad > 0 {
			parts = append(parts, zeros[:pad])
		}
		off = align8(off)
		e := header[16+i*secEntrySize:]
		binary.LittleEndian.PutUint64(e[0:], uint64(off))
		binary.LittleEndian.PutUint64(e[8:], uint64(len(s)))
		binary.LittleEndian.PutUint32(e[16:], sums[i])
		parts = append(parts, s)
		off += len(s)
	}
	binary.LittleEndian.PutUint32(header[size-4:], checksum(header[:size-4]))
	return parts
}

func align8(n int) int { return (n + 7) &^ 7 }

// load checks data and returns an index that reads it in place. It verifies
// the header's checksum, every section's bounds, the meta and the norms;
// the dictionary, term strings and sources are checked against their
// checksums by Verify (which every non-hook command runs) and bounds-checked
// wherever a query reads them, so a prompt pages in only what it touches;
// postings and document records carry checksums of their own, verified
// when read.
func load(data []byte) (*Index, error) {
	if len(data) < headerSize || string(data[:8]) != magic {
		return nil, ErrCorrupt
	}
	if binary.LittleEndian.Uint32(data[8:]) != version {
		return nil, ErrVersion
	}
	if binary.LittleEndian.Uint32(data[12:]) != numSections ||
		checksum(data[:headerSize-4]) != binary.LittleEndian.Uint32(data[headerSize-4:]) {
		return nil, ErrCorrupt
	}
	ix := &Index{data: data}
	for i := range numSections {
		e := data[16+i*secEntrySize:]
		off, n := binary.LittleEndian.Uint64(e[0:]), binary.LittleEndian.Uint64(e[8:])
		if off > uint64(len(data)) || n > uint64(len(data))-off {
			return nil, ErrCorrupt
		}
		s := data[off : off+n : off+n]
		if (i == secMeta || i == secNorms) && checksum(s) != binary.LittleEndian.Uint32(e[16:]) {
			return nil, ErrCorrupt
		}
		ix.sec[i] = s
	}
	meta := ix.sec[secMeta]
	if len(meta) != metaSize {
		return nil, ErrCorrupt
	}
	nDocs := uint64(binary.LittleEndian.Uint32(meta[0:]))
	nTerms := uint64(binary.LittleEndian.Uint32(meta[4:]))
	if uint64(len(ix.sec[secDict])) != nTerms*dictEntrySize ||
		uint64(len(ix.sec[secNorms])) != nDocs*normSize ||
		uint64(len(ix.sec[secDocs])) < nDocs*docEntrySize {
		return nil, ErrCorrupt
	}
	ix.nDocs, ix.baseDocs, ix.nTerms = int(nDocs), int(nDocs), int(nTerms)
	for f := range numFields {
		a := float64(math.Float32frombits(binary.LittleEndian.Uint32(meta[8+4*f:])))
		if !(a > 0) || math.IsInf(a, 0) {
			return nil, ErrCorrupt
		}
		ix.avgLen[f] = a
	}
	if _, ok := stampsOf(ix.sec[secSources]); !ok {
		return nil, ErrCorrupt
	}
	return ix, nil
}

// Verify checks every checksum and every dictionary entry: what Open leaves
// to the reads of a query. A cache that fails it should be rebuilt.
func (ix *Index) Verify() error {
	for i := range numSections {
		if i == secPost || i == secDocs {
			continue
		}
		e := ix.data[16+i*secEntrySize:]
		if checksum(ix.sec[i]) != binary.LittleEndian.Uint32(e[16:]) {
			return ErrCorrupt
		}
	}
	if !dictInBounds(ix.sec[secDict], ix.sec[secStrs], ix.sec[secPost]) {
		return ErrCorrupt
	}
	if !sourcesValid(ix.sec[secSources]) {
		return ErrCorrupt
	}
	if ix.over != nil && !ix.over.verify() {
		return ErrCorrupt
	}
	return ix.Err()
}

// dictInBounds reports whether every dictionary entry points inside the
// term bytes and the postings.
func dictInBounds(dict, strs, post []byte) bool {
	nStrs, nPost := uint64(len(strs)), uint64(len(post))
	for i := 0; i+dictEntrySize <= len(dict); i += dictEntrySize {
		e := dict[i:]
		so, sn := uint64(binary.LittleEndian.Uint32(e[0:])), uint64(binary.LittleEndian.Uint32(e[4:]))
		po, pn := uint64(binary.LittleEndian.Uint32(e[12:])), uint64(binary.LittleEndian.Uint32(e[16:]))
		if so+sn > nStrs || po+pn > nPost {
			return false
		}
	}
	return true
}

// Open reads an index cache written by WriteFile. It maps the file where the
// platform allows, so that a query pages in only what it reads. A cache that
// is unreadable returns ErrCorrupt, one of another format version ErrVersion;
// the caller then rebuilds it.
func Open(path string) (*Index, error) {
	// The delta first: one written after it for a newer base is ignored
	// (it names the base it applies to), and one removed after it with
	// its base rewritten is no longer needed (see delta.go).
	over := openDelta(DeltaPath(path))
	data, release, err := mapFile(path)
	if err != nil {
		over.close()
		return nil, fmt.Errorf("open index: %w", err)
	}
	ix, err := load(data)
	if err != nil {
		over.close()
		if release != nil {
			release()
		}
		return nil, err
	}
	ix.release = release
	ix.attach(over)
	return ix, nil
}

// WriteFile writes the index and the caller's sources to path atomically
// (see internal/atomicfile).
func (ix *Index) WriteFile(path string, sources []Source) error {
	if ix.over != nil {
		return errors.New("search: an index read with its delta is written by Replace, not as it is")
	}
	secs := ix.sec
	secs[secSources] = appendSources(nil, sources)
	// The other sections are written as they are, with the checksums
	// their header gives (damage stays detectable): a refresh writes a
	// large cache without joining it in memory or hashing it again.
	var sums [numSections]uint32
	for i := range numSections {
		sums[i] = binary.LittleEndian.Uint32(ix.data[16+i*secEntrySize+16:])
	}
	sums[secSources] = checksum(secs[secSources])
	return writeSections(path, secs, sums)
}

// Size is the length of the cache file, its delta left out.
func (ix *Index) Size() int { return len(ix.data) }

// Fingerprint identifies the cache's content: its header, which holds every
// section's length and checksum. A caller that checked a cache, closed it
// and opens it again knows by it whether another process rewrote it.
func (ix *Index) Fingerprint() string {
	if ix.over != nil {
		return string(ix.data[:headerSize]) + string(ix.over.data[:deltaHeaderSize])
	}
	return string(ix.data[:headerSize])
}

// Sources returns the stamps stored by WriteFile, all decoded (nil for a
// built index or a corrupt section).
func (ix *Index) Sources() []Source {
	s, _ := decodeSources(ix.sources())
	return s
}

// Stamps serves the stored stamps in place, decoding only those read.
func (ix *Index) Stamps() Stamps {
	v, _ := stampsOf(ix.sources())
	return v
}

// sources is the stamps section: the delta's when there is one.
func (ix *Index) sources() []byte {
	if ix.over != nil {
		return ix.over.sec[dSecSources]
	}
	return ix.sec[secSources]
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// appendSources lays out the stamps for reading in place: a count, the
// number of directories, a table of u32 offsets, then the entries (kind,
// mtime, size, path), directories first.
func appendSources(b []byte, sources []Source) []byte {
	dirs, size := 0, 8
	for _, s := range sources {
		if s.Kind == SourceDir {
			dirs++
		}
		size += 4 + 1 + 2*binary.MaxVarintLen64 + binary.MaxVarintLen32 + len(s.Path)
	}
	// Sized once: at a few thousand memories this section is hundreds of
	// kilobytes, and growing it by doubling touched twice the fresh pages.
	b = slices.Grow(b, size)
	base := len(b)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sources)))
	b = binary.LittleEndian.AppendUint32(b, uint32(dirs))
	table := len(b)
	b = append(b, make([]byte, 4*len(sources))...)
	i := 0
	for _, dir := range []bool{true, false} { // the directories first
		for _, s := range sources {
			if (s.Kind == SourceDir) != dir {
				continue
			}
			binary.LittleEndian.PutUint32(b[table+4*i:], uint32(len(b)-base))
			i++
			b = append(b, byte(s.Kind))
			b = binary.AppendVarint(b, s.ModNs)
			b = binary.AppendVarint(b, s.Size)
			b = appendString(b, s.Path)
		}
	}
	return b
}

func appendDoc(b []byte, d *Doc) []byte {
	for _, s := range [...]string{d.Slug, d.Path, d.Store, d.Name, d.Description, d.Class, d.SupersededBy, d.Body} {
		b = appendString(b, s)
	}
	b = binary.AppendVarint(b, int64(d.Importance))
	mod := int64(math.MinInt64)
	if !d.Modified.IsZero() {
		mod = d.Modified.UnixNano()
	}
	b = binary.AppendVarint(b, mod)
	b = binary.AppendVarint(b, int64(d.Line))
	b = appendStrings(b, d.Tags)
	b = appendStrings(b, d.Aliases)
	b = appendStrings(b, d.Unverified)
	return appendString(b, d.Broken)
}

// reader decodes the varint encoding above, remembering the first failure.
type reader struct {
	b  []byte
	ok bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.ok, r.b = false, nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// bytes reads a string in place.
func (r *reader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.ok, r.b = false, nil
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// skip passes over a string.
func (r *reader) skip() { r.bytes() }

func (r *reader) strs() []string {
	n := r.uvarint()
	if n > uint64(len(r.b)) { // every string takes at least one byte
		r.ok, r.b = false, nil
		return nil
	}
	var ss []string
	for range n {
		ss = append(ss, r.str())
	}
	return ss
}

// skipStrs passes over a string list as strs reads it, copying nothing.
func (r *reader) skipStrs() {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.ok, r.b = false, nil
		return
	}
	for range n {
		if l := r.uvarint(); l <= uint64(len(r.b)) {
			r.b = r.b[l:]
		} else {
			r.ok, r.b = false, nil
		}
	}
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.ok = false
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// decodeSummary decodes a record but its body and aliases, which it skips:
// the bulk of a record, and nothing a listing shows. It copies the record's
// bytes once a stretch (the strings before the body, the tags, what follows
// the aliases) and slices the strings from those copies: a listing of
// 10,000 memories made ten allocations a record.
func decodeSummary(rec []byte) (Doc, bool) {
	r := reader{b: rec, ok: true}
	pos := func() int { return len(rec) - len(r.b) }
	var spans [7][2]int
	for i := range spans {
		b := r.bytes()
		spans[i] = [2]int{pos() - len(b), pos()}
	}
	head := string(rec[:pos()])
	var d Doc
	for i, p := range [...]*string{&d.Slug, &d.Path, &d.Store, &d.Name, &d.Description, &d.Class, &d.SupersededBy} {
		*p = head[spans[i][0]:spans[i][1]]
	}
	r.skip() // body
	d.Importance = int(r.varint())
	if mod := r.varint(); mod != math.MinInt64 {
		d.Modified = time.Unix(0, mod).UTC()
	}
	d.Line = int(r.varint())
	d.Tags = r.strsIn(rec)
	r.skipStrs() // aliases
	d.Unverified = r.strsIn(rec)
	if b := r.bytes(); len(b) > 0 {
		d.Broken = string(b)
	}
	return d, r.ok && len(r.b) == 0
}

// strsIn reads a string list as strs does, from one copy of its bytes (r
// reads rec).
func (r *reader) strsIn(rec []byte) []string {
	start := len(rec) - len(r.b)
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.ok, r.b = false, nil
		return nil
	}
	if n == 0 {
		return nil
	}
	var spans [][2]int
	for range n {
		b := r.bytes()
		end := len(rec) - len(r.b)
		spans = append(spans, [2]int{end - len(b), end})
	}
	if !r.ok {
		return nil
	}
	all := string(rec[start : len(rec)-len(r.b)])
	ss := make([]string, len(spans))
	for i, sp := range spans {
		ss[i] = all[sp[0]-start : sp[1]-start]
	}
	return ss
}

// decodeDoc decodes a whole record.
func decodeDoc(rec []byte) (Doc, bool) {
	r := reader{b: rec, ok: true}
	var d Doc
	for _, p := range [...]*string{&d.Slug, &d.Path, &d.Store, &d.Name, &d.Description, &d.Class, &d.SupersededBy} {
		*p = r.str()
	}
	d.Body = r.str()
	d.Importance = int(r.varint())
	if mod := r.varint(); mod != math.MinInt64 {
		d.Modified = time.Unix(0, mod).UTC()
	}
	d.Line = int(r.varint())
	d.Tags = r.strs()
	d.Aliases = r.strs()
	d.Unverified = r.strs()
	d.Broken = r.str()
	return d, r.ok && len(r.b) == 0
}

// decodeAliases reads the aliases of a record, as decodeDoc would.
func decodeAliases(rec []byte) ([]string, bool) {
	r := reader{b: rec, ok: true}
	for range 8 { // slug, path, store, name, description, class, superseded_by, body
		r.skip()
	}
	for range 3 { // importance, modified, line
		r.varint()
	}
	r.skipStrs() // tags
	return r.strsIn(rec), r.ok
}

// stampView reads the sources section in place.
type stampView struct {
	b           []byte
	count, dirs int
}

// stampsOf checks the section's header and offset table.
func stampsOf(b []byte) (stampView, bool) {
	if len(b) == 0 {
		return stampView{}, true // a built index has no stamps
	}
	if len(b) < 8 {
		return stampView{}, false
	}
	count, dirs := uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[4:]))
	if dirs > count || 8+4*count > uint64(len(b)) {
		return stampView{}, false
	}
	return stampView{b: b, count: int(count), dirs: int(dirs)}, true
}

func (v stampView) Files() int { return v.count - v.dirs }

func (v stampView) File(i int) Source { return v.at(v.dirs + i) }

// FilePath is file stamp i's path, in place: a check that looks for a few
// named files compares paths without decoding every stamp.
func (v stampView) FilePath(i int) []byte {
	off := uint64(binary.LittleEndian.Uint32(v.b[8+4*(v.dirs+i):]))
	if off >= uint64(len(v.b)) {
		return nil
	}
	r := reader{b: v.b[off:], ok: true}
	r.byte()
	r.varint()
	r.varint()
	if p := r.bytes(); r.ok {
		return p
	}
	return nil
}

func (v stampView) Dirs() []Source {
	out := make([]Source, v.dirs)
	for i := range out {
		out[i] = v.at(i)
	}
	return out
}

// at decodes entry i. A malformed entry comes back as a stamp that no file
// matches, so the caller sees "changed" and rebuilds.
func (v stampView) at(i int) Source {
	bad := Source{Size: -2}
	off := uint64(binary.LittleEndian.Uint32(v.b[8+4*i:]))
	if off >= uint64(len(v.b)) {
		return bad
	}
	r := reader{b: v.b[off:], ok: true}
	s := Source{Kind: SourceKind(r.byte())}
	s.ModNs = r.varint()
	s.Size = r.varint()
	s.Path = r.str()
	if !r.ok {
		return bad
	}
	return s
}

// sourcesValid reports whether every stamp decodes, decoding none into a
// Source: what Verify needs to know, without allocating ten thousand.
func sourcesValid(b []byte) bool {
	v, ok := stampsOf(b)
	if !ok {
		return false
	}
	for i := range v.count {
		off := uint64(binary.LittleEndian.Uint32(v.b[8+4*i:]))
		if off >= uint64(len(v.b)) {
			return false
		}
		r := reader{b: v.b[off:], ok: true}
		r.byte()
		r.varint()
		size := r.varint()
		if n := r.uvarint(); !r.ok || n > uint64(len(r.b)) || size == -2 {
			return false // -2: what at gives for a malformed entry
		}
	}
	return true
}

func decodeSources(b []byte) ([]Source, bool) {
	v, ok := stampsOf(b)
	if !ok {
		return nil, false
	}
	out := make([]Source, 0, v.count)
	for i := range v.count {
		s := v.at(i)
		if s.Size == -2 {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
