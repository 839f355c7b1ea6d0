package search

import (
	"iter"
	"slices"
	"strings"
)

// maxSnippetScan is how much of a body a snippet reads looking for the line
// that meets the query: a memory's point is seldom past its first pages,
// and the hook has milliseconds.
const maxSnippetScan = 16 << 10

// A highlighter finds, in a memory found, the line that says why.
type highlighter struct {
	want   map[string]float64     // term → weight × idf
	set    [startKeys / 64]uint64 // startKey of every term wanted
	buf    []byte                 // the tokenizer's
	skipFn func([]byte) bool      // h.skip, bound once
}

// newHighlighter prepares to look for the query's terms. Stemming is most of
// the cost of reading a line, so the tokenizer stems a word only when it
// starts as some term does (a stem keeps its word's first three letters,
// but for a few irregular words, "dying", and number words, "ten", which
// go unseen here). Entities are not stemmed and are always seen.
func newHighlighter(stats []termStat) *highlighter {
	h := &highlighter{want: make(map[string]float64, len(stats))}
	h.skipFn = h.skip
	for _, st := range stats {
		t := st.term
		h.want[t] = max(h.want[t], st.weight*st.idf)
		h.add(t)
		// A stem shorter than three letters may come from a longer word
		// ("ads" → "ad", "60s" → "60"), and a final y becomes i ("dry" →
		// "dri").
		switch {
		case len(t) < 3:
			for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789" {
				h.add(t + string(c))
			}
		case t[2] == 'i':
			h.add(t[:2] + "y")
		}
	}
	return h
}

func (h *highlighter) add(start string) {
	k := startKey(start)
	h.set[k/64] |= 1 << (k % 64)
}

// skip reports whether no wanted term starts as word (lowercase) does. An
// apostrophe does not count: the tokenizer drops it ("o'neill").
func (h *highlighter) skip(word []byte) bool {
	var start [3]byte
	n := 0
	for _, c := range word {
		if c != '\'' {
			start[n] = c
			if n++; n == len(start) {
				break
			}
		}
	}
	k := startKey(string(start[:n]))
	return h.set[k/64]&(1<<(k%64)) == 0
}

// startKeys is the size of the highlighter's bitmap: a query's terms set a
// few hundred bits at most, and the hook pays for every page it touches.
const startKeys = 1 << 12

// startKey hashes the first three bytes of a lowercase word (all of a
// shorter one) into the highlighter's bitmap.
func startKey(w string) uint16 {
	k := uint32(min(len(w), 3))
	for i := range min(len(w), 3) {
		k = k*131 + uint32(w[i])
	}
	return uint16((k ^ k>>12) % startKeys)
}

// meet calls fn for each term of text that the query wants, with its
// weight × idf.
func (h *highlighter) meet(text string, fn func(term string, w float64)) {
	for chunk := range strings.FieldsSeq(text) {
		h.buf = tokenizeChunk(chunk, h.buf, nil, h.skipFn, func(t token) {
			if w, ok := h.want[t.term]; ok {
				fn(t.term, w)
			}
		})
	}
}

// maxUnit is the longest line a snippet shows whole; a longer one, a
// paragraph, is read a sentence at a time, since the hook shows a line's
// first couple of hundred characters only.
const maxUnit = 200

// units yields line, or when it is longer than maxUnit its sentences (cut
// after ". ", "! ", "? " and "; ").
func units(line string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if len(line) <= maxUnit {
			yield(line)
			return
		}
		start := 0
		for i := 0; i+1 < len(line); i++ {
			if c := line[i]; (c == '.' || c == '!' || c == '?' || c == ';') && line[i+1] == ' ' {
				if s := strings.TrimSpace(line[start : i+1]); s != "" && !yield(s) {
					return
				}
				start = i + 1
			}
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			yield(s)
		}
	}
}

// snippet is what a reader is shown of memory d: its description, then the
// line (or a long line's sentence) of its body that meets the most of the
// query's terms that its name and description do not (by weight × idf,
// each term once), when one does; without a description, that line, else
// the body's first. A section of a long MEMORY.md or an unsummarised topic
// file is many facts, and its first line is seldom the one the prompt is
// about; a name and description that already show why the memory was
// found need no more.
func (h *highlighter) snippet(d Doc) string {
	desc := strings.TrimSpace(d.Description)
	var shown []string
	for _, s := range [...]string{d.Name, desc} {
		h.meet(s, func(term string, _ float64) {
			if !slices.Contains(shown, term) {
				shown = append(shown, term)
			}
		})
	}
	if desc != "" && len(shown) == len(h.want) {
		return desc
	}
	body := d.Body
	if len(body) > maxSnippetScan {
		body = body[:maxSnippetScan]
		if i := strings.LastIndexByte(body, '\n'); i > 0 {
			body = body[:i] // whole lines only: a cut line may end mid-character
		} else {
			body = strings.ToValidUTF8(body, "")
		}
	}
	var first, best string
	bestMass := 0.0
	met := shown
	for line := range strings.Lines(body) {
		line = strings.TrimSpace(line)
		if line == "" || line == desc {
			continue
		}
		if first == "" {
			first = line
		}
		for unit := range units(line) {
			mass := 0.0
			met = met[:len(shown)]
			h.meet(unit, func(term string, w float64) {
				if !slices.Contains(met, term) {
					met = append(met, term)
					mass += w
				}
			})
			if mass > bestMass {
				best, bestMass = unit, mass
			}
		}
	}
	switch {
	case desc != "" && best != "":
		return desc + "\n" + best
	case desc != "":
		return desc
	case best != "":
		return best
	}
	return first
}
