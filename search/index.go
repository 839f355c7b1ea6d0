package search

import (
	"encoding/binary"
	"github.com/mem-dev/mem/fresh"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Doc is one searchable memory: a memory file, or a section of a MEMORY.md.
type Doc struct {
	Slug  string
	Path  string // relative to the repository root, e.g. ".claude/agent-memory/vat-rounding.md"
	Store string // "project" or "personal"

	Name, Description, Class string
	Importance               int // 1-10; 0 = unset (treated as 5)
	Modified                 time.Time
	Tags, Aliases            []string
	SupersededBy             string
	Unverified               []string
	Body                     string // plain text of the body, markup removed
	Line                     int    // >0 for a section of a MEMORY.md: Path is that file, Line its first line
}

// Source is bookkeeping stored with the cache for the caller's staleness
// checks: the stat stamps of the store's directories and files.
type Source = fresh.Stamp

// Fields of a document, in index order.
const (
	fieldName = iota
	fieldDesc
	fieldAliases
	fieldTags
	fieldBody
	numFields
)

// Classes, as stored in the norms table.
var classNames = [...]string{"", "rule", "fact", "event", "gotcha", "reference", "procedure", "preference", "decision"}

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
	data    []byte
	sec     [numSections][]byte
	nDocs   int
	nTerms  int
	avgLen  [numFields]float64
	release func() error // unmaps a mapped file
	corrupt atomic.Bool  // corruption found after Open in a lazily checked part
}

// Build indexes docs. Forgotten memories are never passed in.
func Build(docs []Doc) *Index {
	data := encode(docs, nil)
	ix, err := load(data)
	if err != nil {
		panic("search: build produced an unreadable index: " + err.Error())
	}
	return ix
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

// encode lays out docs (and sources) in the cache format.
func encode(docs []Doc, sources []Source) []byte {
	terms := make(map[string]*postingBuilder, len(docs)*8)
	norms := make([]byte, len(docs)*normSize)
	var lenSum [numFields]float64
	local := make(map[string]*[numFields]byte, 64)
	cache := make(map[string]string, 1024)
	var counts [numFields]int
	for id := range docs {
		d := &docs[id]
		clear(local)
		counts = [numFields]int{}
		add := func(f int, text string) {
			tokenizeCached(text, cache, func(t token) {
				counts[f]++
				c := local[t.term]
				if c == nil {
					c = new([numFields]byte)
					local[t.term] = c
				}
				if c[f] < 255 {
					c[f]++
				}
			})
		}
		add(fieldName, d.Name)
		add(fieldDesc, d.Description)
		for _, a := range d.Aliases {
			add(fieldAliases, a)
		}
		for _, t := range d.Tags {
			add(fieldTags, t)
		}
		add(fieldBody, d.Body)
		for term, c := range local {
			pb := terms[term]
			if pb == nil {
				pb = &postingBuilder{}
				terms[term] = pb
			}
			pb.docs = append(pb.docs, uint32(id))
			pb.tfs = append(pb.tfs, c[:]...)
		}
		n := norms[id*normSize:]
		for f := range numFields {
			l := min(counts[f], math.MaxUint16)
			binary.LittleEndian.PutUint16(n[2*f:], uint16(l))
			lenSum[f] += float64(counts[f])
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
	}

	sorted := make([]string, 0, len(terms))
	for t := range terms {
		sorted = append(sorted, t)
	}
	slices.Sort(sorted)

	// meta
	meta := make([]byte, metaSize)
	binary.LittleEndian.PutUint32(meta[0:], uint32(len(docs)))
	binary.LittleEndian.PutUint32(meta[4:], uint32(len(sorted)))
	for f := range numFields {
		avg := 1.0
		if len(docs) > 0 && lenSum[f] > 0 {
			avg = lenSum[f] / float64(len(docs))
		}
		binary.LittleEndian.PutUint32(meta[8+4*f:], math.Float32bits(float32(avg)))
	}

	dict := make([]byte, len(sorted)*dictEntrySize)
	var strs []byte
	var post []byte
	var tmp [binary.MaxVarintLen32]byte
	for i, t := range sorted {
		pb := terms[t]
		e := dict[i*dictEntrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(len(strs)))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(t)))
		strs = append(strs, t...)
		start := len(post)
		last := uint32(0)
		for j, doc := range pb.docs {
			n := binary.PutUvarint(tmp[:], uint64(doc-last))
			last = doc
			post = append(post, tmp[:n]...)
			tf := pb.tfs[j*numFields : (j+1)*numFields]
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
		binary.LittleEndian.PutUint32(e[8:], uint32(len(pb.docs)))
		binary.LittleEndian.PutUint32(e[12:], uint32(start))
		binary.LittleEndian.PutUint32(e[16:], uint32(len(post)-start))
		binary.LittleEndian.PutUint32(e[20:], checksum(post[start:]))
	}

	// documents
	table := make([]byte, len(docs)*docEntrySize)
	var recs []byte
	for id := range docs {
		start := len(recs)
		recs = appendDoc(recs, &docs[id])
		e := table[id*docEntrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(start))
		binary.LittleEndian.PutUint32(e[4:], uint32(len(recs)-start))
		binary.LittleEndian.PutUint32(e[8:], checksum(recs[start:]))
	}
	docSec := append(table, recs...)

	return assemble([numSections][]byte{
		secMeta:    meta,
		secDict:    dict,
		secStrs:    strs,
		secPost:    post,
		secNorms:   norms,
		secDocs:    docSec,
		secSources: appendSources(nil, sources),
	})
}

// lookup returns the dictionary entry of term, or -1.
func (ix *Index) lookup(term string) int {
	dict, strs := ix.sec[secDict], ix.sec[secStrs]
	lo, hi := 0, ix.nTerms
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := dict[m*dictEntrySize:]
		off := uint64(binary.LittleEndian.Uint32(e[0:]))
		n := uint64(binary.LittleEndian.Uint32(e[4:]))
		if off+n > uint64(len(strs)) {
			ix.corrupt.Store(true)
			return -1
		}
		s := strs[off : off+n]
		if c := strings.Compare(string(s), term); c < 0 {
			lo = m + 1
		} else if c == 0 {
			return m
		} else {
			hi = m
		}
	}
	return -1
}

func (ix *Index) docFreq(entry int) int {
	return int(binary.LittleEndian.Uint32(ix.sec[secDict][entry*dictEntrySize+8:]))
}

// postings returns the raw, verified postings of a dictionary entry.
func (ix *Index) postings(entry int) ([]byte, bool) {
	e := ix.sec[secDict][entry*dictEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[12:]))
	n := uint64(binary.LittleEndian.Uint32(e[16:]))
	if off+n > uint64(len(ix.sec[secPost])) {
		ix.corrupt.Store(true)
		return nil, false
	}
	p := ix.sec[secPost][off : off+n]
	if checksum(p) != binary.LittleEndian.Uint32(e[20:]) {
		ix.corrupt.Store(true)
		return nil, false
	}
	return p, true
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
	n := ix.sec[secNorms][doc*normSize : (doc+1)*normSize]
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

// doc decodes one document record.
func (ix *Index) doc(id int) (Doc, bool) {
	sec := ix.sec[secDocs]
	e := sec[id*docEntrySize:]
	off := uint64(binary.LittleEndian.Uint32(e[0:]))
	n := uint64(binary.LittleEndian.Uint32(e[4:]))
	base := uint64(ix.nDocs * docEntrySize)
	if base+off+n > uint64(len(sec)) {
		ix.corrupt.Store(true)
		return Doc{}, false
	}
	rec := sec[base+off : base+off+n]
	if checksum(rec) != binary.LittleEndian.Uint32(e[8:]) {
		ix.corrupt.Store(true)
		return Doc{}, false
	}
	d, ok := decodeDoc(rec)
	if !ok {
		ix.corrupt.Store(true)
	}
	return d, ok
}

// Docs returns every document, in index order, so that a caller can refresh
// the index incrementally: re-parse only the files that changed and Build
// again from the old documents and the new ones. If a document record is
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
