package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/mem-dev/mem/fresh"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Sentinel errors of Open. Either means: rebuild the cache, silently.
var (
	ErrCorrupt = errors.New("search: index cache is corrupt")
	ErrVersion = errors.New("search: index cache has another format version")
)

const (
	magic   = "memindex"
	version = 1
)

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
	secEntrySize  = 24 // offset u64, length u64, crc32c u32, reserved u32
	headerSize    = 16 + numSections*secEntrySize + 4
	metaSize      = 8 + 4*numFields
	dictEntrySize = 24 // term offset, term length, df, postings offset, postings length, postings crc32c
	normSize      = 18 // field lengths 5×u16, importance, class, flags, reserved, modified (days) u32
	docEntrySize  = 12 // record offset, length, crc32c

	flagSuperseded = 1
)

// crcTable is made on first use, not at package init: the hardware-assisted
// table costs ~0.1 ms to build, which only an Open or a Build should pay.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

func checksum(b []byte) uint32 { return crc32.Checksum(b, crcTable()) }

// assemble writes the header and the sections, each aligned to 8 bytes.
func assemble(secs [numSections][]byte) []byte {
	size := headerSize
	for _, s := range secs {
		size = align8(size) + len(s)
	}
	data := make([]byte, size)
	copy(data, magic)
	binary.LittleEndian.PutUint32(data[8:], version)
	binary.LittleEndian.PutUint32(data[12:], numSections)
	off := headerSize
	for i, s := range secs {
		off = align8(off)
		copy(data[off:], s)
		e := data[16+i*secEntrySize:]
		binary.LittleEndian.PutUint64(e[0:], uint64(off))
		binary.LittleEndian.PutUint64(e[8:], uint64(len(s)))
		binary.LittleEndian.PutUint32(e[16:], checksum(s))
		off += len(s)
	}
	binary.LittleEndian.PutUint32(data[headerSize-4:], checksum(data[:headerSize-4]))
	return data
}

func align8(n int) int { return (n + 7) &^ 7 }

// load checks data and returns an index that reads it in place. Everything
// a query touches on every call is verified here (header, dictionary, term
// strings, norms, sources); postings and document records carry their own
// checksums and are verified when read.
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
		if i != secPost && i != secDocs && checksum(s) != binary.LittleEndian.Uint32(e[16:]) {
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
	ix.nDocs, ix.nTerms = int(nDocs), int(nTerms)
	for f := range numFields {
		a := float64(math.Float32frombits(binary.LittleEndian.Uint32(meta[8+4*f:])))
		if !(a > 0) || math.IsInf(a, 0) {
			return nil, ErrCorrupt
		}
		ix.avgLen[f] = a
	}
	dict := ix.sec[secDict]
	nStrs, nPost := uint64(len(ix.sec[secStrs])), uint64(len(ix.sec[secPost]))
	for i := 0; i < len(dict); i += dictEntrySize {
		e := dict[i:]
		so, sn := uint64(binary.LittleEndian.Uint32(e[0:])), uint64(binary.LittleEndian.Uint32(e[4:]))
		po, pn := uint64(binary.LittleEndian.Uint32(e[12:])), uint64(binary.LittleEndian.Uint32(e[16:]))
		if so+sn > nStrs || po+pn > nPost {
			return nil, ErrCorrupt
		}
	}
	if _, ok := decodeSources(ix.sec[secSources]); !ok {
		return nil, ErrCorrupt
	}
	return ix, nil
}

// Open reads an index cache written by WriteFile. It maps the file where the
// platform allows, so that a query pages in only what it reads. A cache that
// is unreadable returns ErrCorrupt, one of another format version ErrVersion;
// the caller then rebuilds it.
func Open(path string) (*Index, error) {
	data, release, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	ix, err := load(data)
	if err != nil {
		if release != nil {
			release()
		}
		return nil, err
	}
	ix.release = release
	return ix, nil
}

// WriteFile writes the index and the caller's sources to path atomically:
// a temporary file in the same directory, fsync, rename.
func (ix *Index) WriteFile(path string, sources []Source) error {
	secs := ix.sec
	secs[secSources] = appendSources(nil, sources)
	data := assemble(secs)
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write index: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write index: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// Sources returns the bookkeeping stored by WriteFile (nil for a built index).
func (ix *Index) Sources() []Source {
	s, _ := decodeSources(ix.sec[secSources])
	return s
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

func appendSources(b []byte, sources []Source) []byte {
	b = binary.AppendUvarint(b, uint64(len(sources)))
	for _, s := range sources {
		b = appendString(b, s.Path)
		b = binary.AppendVarint(b, s.ModNs)
		b = binary.AppendVarint(b, s.Size)
		b = append(b, byte(s.Kind))
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
	return appendStrings(b, d.Unverified)
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

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.ok = false
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func decodeDoc(rec []byte) (Doc, bool) {
	r := reader{b: rec, ok: true}
	var d Doc
	for _, p := range [...]*string{&d.Slug, &d.Path, &d.Store, &d.Name, &d.Description, &d.Class, &d.SupersededBy, &d.Body} {
		*p = r.str()
	}
	d.Importance = int(r.varint())
	if mod := r.varint(); mod != math.MinInt64 {
		d.Modified = time.Unix(0, mod).UTC()
	}
	d.Line = int(r.varint())
	d.Tags = r.strs()
	d.Aliases = r.strs()
	d.Unverified = r.strs()
	return d, r.ok && len(r.b) == 0
}

func decodeSources(b []byte) ([]Source, bool) {
	r := reader{b: b, ok: true}
	n := r.uvarint()
	if n > uint64(len(b)) {
		return nil, false
	}
	var out []Source
	for range n {
		var s Source
		s.Path = r.str()
		s.ModNs = r.varint()
		s.Size = r.varint()
		s.Kind = fresh.Kind(r.byte())
		out = append(out, s)
	}
	return out, r.ok && len(r.b) == 0
}
