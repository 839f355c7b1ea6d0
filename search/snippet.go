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
	want map[string]float64     // term → weight × idf
	set  [startKeys / 64]uint64 // startKey of every term wanted
	buf  []byte                 // the tokenizer's
}

// newHighlighter prepares to look for the query's terms. Stemming is most of
// the cost of reading a line, so a word is stemmed only when it starts as
// some term does (a stem keeps its word's first three letters, but for a
// few irregular words, "dying", and number words, "ten", which go unseen
// here).
func newHighlighter(stats []termStat) *highlighter {
	h := &highlighter{want: make(map[string]float64, len(stats))}
	for _, st := range stats {
		h.want[st.term] = max(h.want[st.term], st.weight*st.idf)
		// A stem shorter than three letters may come from a longer word
		// ("ads" → "ad", "60s" → "60"), and a final y becomes i ("dry" →
		// "dri").
		first := firstWord(st.term)
		h.add(first)
		switch {
		case len(first) < 3:
			for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789" {
				h.add(first + string(c))
			}
		case first[2] == 'i':
			h.add(first[:2] + "y")
		}
	}
	return h
}

func (h *highlighter) add(start string) {
	k := startKey(start)
	h.set[k/64] |= 1 << (k % 64)
}

// firstWord is the first run of letters and digits in term, apostrophes
// dropped, which is where mayMeet sees a word of its start: an entity's
// first word ("e.g" → "e").
func firstWord(term string) string {
	var w []byte
	for i := 0; i < len(term); i++ {
		c := term[i]
		switch {
		case isLower(c) || '0' <= c && c <= '9' || c >= 0x80:
			w = append(w, c)
		case c == '\'':
		case len(w) > 0:
			return string(w)
		}
	}
	if len(w) == 0 {
		return term
	}
	return string(w)
}

func lowerASCII(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

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
		if h.mayMeet(chunk) {
			h.buf = tokenizeChunk(chunk, h.buf, nil, func(t token) {
				if w, ok := h.want[t.term]; ok {
					fn(t.term, w)
				}
			})
		}
	}
}

// mayMeet reports whether chunk may hold a term wanted: whether one of its
// words starts as a term does. Its words are as the tokenizer splits them:
// runs of letters and digits, apostrophes dropped ("o'neill"), which also
// start entities and file names, and their camelCase parts ("HTTPServer").
func (h *highlighter) mayMeet(chunk string) bool {
	var run, word [3]byte
	nr, nw := 0, 0 // bytes of the run and the word so far, past 3 too
	var prev byte
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		switch {
		case c >= 0x80:
			return true // non-ASCII letters: let the tokenizer judge
		case c == '\'':
			prev = c // "Ab'A" is one word: no camelCase split after an apostrophe
			continue
		case !isLower(c) && !isUpper(c) && (c < '0' || c > '9'):
			if h.starts(run, nr) || h.starts(word, nw) {
				return true
			}
			nr, nw = 0, 0
			continue
		case isUpper(c) && nw > 0 && (isLower(prev) || isUpper(prev) && i+1 < len(chunk) && isLower(chunk[i+1])):
			if h.starts(word, nw) {
				return true
			}
			nw = 0
		}
		prev = c
		c = lowerASCII(c)
		if nr < 3 {
			run[nr] = c
		}
		if nw < 3 {
			word[nw] = c
		}
		nr++
		nw++
	}
	return h.starts(run, nr) || h.starts(word, nw)
}

// starts reports whether some term wanted starts as the word of n bytes
// whose first three are w.
func (h *highlighter) starts(w [3]byte, n int) bool {
	if n == 0 {
		return false
	}
	k := startKey(string(w[:min(n, 3)]))
	return h.set[k/64]&(1<<(k%64)) != 0
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

// snippet is what a reader is shown of memory d: its description, and the
// line (or a long line's sentence) of its body that meets the most of the query's terms that its name
// and description do not (by weight × idf, each term once); without a
// description, the line that meets the most of the query, else the body's
// first. A section of a long MEMORY.md or an unsummarised topic file is
// many facts, and its first line is seldom the one the prompt is about; a
// name and description that already show why the memory was found need no
// more.
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
