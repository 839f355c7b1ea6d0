package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A token is one index or query term.
type token struct {
	term   string
	entity bool // a whole identifier, path, file name or ticket id, kept joined and unstemmed
	// whole is the entity this term was split from ("atlas" and "web" of
	// "atlas-web"), "" for a word typed alone or the entity itself.
	whole string
}

// Tokens returns the terms that text contributes to the index, in order:
// lowercase, split at camelCase, snake_case, kebab-case, paths and dotted
// names, stopwords dropped, words stemmed (Porter2). Identifiers that were
// split also yield the joined identifier as an entity term ("tax.py",
// "lark-412", "expirepasses"), and paths their file name.
func Tokens(text string) []string {
	var out []string
	tokenize(text, func(t token) { out = append(out, t.term) })
	return out
}

// tokenize calls emit for every term of text.
func tokenize(text string, emit func(token)) { tokenizeCached(text, nil, nil, emit) }

// tokenizeCached is tokenize with a cache of word → term ("" for a
// stopword), which Build shares across documents: words repeat, and
// stemming is most of the cost of indexing. When stop is not nil it is
// asked before each chunk of text whether the caller has what it wants.
func tokenizeCached(text string, cache map[string]string, stop func() bool, emit func(token)) {
	var buf []byte
	for chunk := range strings.FieldsSeq(text) {
		if stop != nil && stop() {
			return
		}
		buf = tokenizeChunk(chunk, buf, cache, nil, emit)
	}
}

// trimPunct trims punctuation that surrounds a chunk but is not part of it.
func trimPunct(s string) string {
	if len(s) > 0 && isWordByte(s[0]) && isWordByte(s[len(s)-1]) {
		return s // most chunks: nothing to trim
	}
	isEdge := func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '~' && r != '$'
	}
	s = strings.TrimLeftFunc(s, func(r rune) bool { return isEdge(r) && r != '.' && r != '/' && r != '@' && r != '#' })
	s = strings.TrimRightFunc(s, isEdge)
	s = strings.TrimLeft(s, "./")
	return s
}

func isSep(r rune) bool {
	switch r {
	case '-', '_', '.', '/', ':', '#', '@', '\\':
		return true
	}
	return false
}

// tokenizeChunk calls emit for the terms of one chunk of text (no
// whitespace in it). When skip is not nil it sees each word lowercased,
// before the costly part (stopwords, stemming), and may drop it: a reader
// that wants a few terms spares stemming the words that cannot be one.
func tokenizeChunk(chunk string, buf []byte, cache map[string]string, skip func(word []byte) bool, emit func(token)) []byte {
	c := trimPunct(chunk)
	if c == "" {
		return buf
	}
	// Entity: a chunk with an internal separator or an inner capital.
	whole := "" // the entity the chunk's words are parts of
	if len(c) <= 80 && isIdentifier(c) {
		ent := strings.ToLower(c)
		emit(token{term: ent, entity: true})
		whole = ent
		// A path also yields its file name ("shop/checkout/tax.py" → "tax.py").
		if i := strings.LastIndexAny(ent, "/\\"); i >= 0 && i+1 < len(ent) {
			base := ent[i+1:]
			if strings.ContainsAny(base, "-_.") {
				emit(token{term: base, entity: true, whole: whole})
			}
		}
	}
	// Words: runs of letters and digits, split at camelCase boundaries.
	start := -1
	var prev rune
	flush := func(end int) {
		if start >= 0 {
			buf = emitWord(c[start:end], whole, buf, cache, skip, emit)
		}
		start = -1
	}
	for i, r := range c {
		isWordRune := unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '\'' || r == '’') && start >= 0
		if !isWordRune {
			flush(i)
			prev = r
			continue
		}
		if start < 0 {
			start = i
		} else if unicode.IsUpper(r) {
			// aB → a|B; ABc → A|Bc.
			if unicode.IsLower(prev) {
				flush(i)
				start = i
			} else if unicode.IsUpper(prev) {
				next, _ := utf8.DecodeRuneInString(c[i+utf8.RuneLen(r):])
				if unicode.IsLower(next) && i+utf8.RuneLen(r) < len(c) {
					flush(i)
					start = i
				}
			}
		}
		prev = r
	}
	flush(len(c))
	return buf
}

// isIdentifier reports whether c (trimmed) is worth keeping whole: it has a
// separator between two word characters, or a lower-to-upper case change.
func isIdentifier(c string) bool {
	var prev rune = -1
	sep, upperInside, lower := false, false, false
	words := 0
	for i, r := range c {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case alnum && sep && prev != -1:
			return words > 0
		case alnum:
			if unicode.IsUpper(r) && i > 0 && unicode.IsLetter(prev) {
				upperInside = true
			}
			lower = lower || unicode.IsLower(r)
			words++
		case isSep(r) && words > 0:
			sep = true
		default:
			if !isSep(r) {
				sep = false
				words = 0
			}
		}
		prev = r
	}
	return upperInside && lower
}

// emitWord lowercases, filters and stems one word, a part of the entity
// whole when that is not "".
func emitWord(w, whole string, buf []byte, cache map[string]string, skip func([]byte) bool, emit func(token)) []byte {
	buf = buf[:0]
	for _, r := range w {
		if r == '’' {
			r = '\''
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			buf = append(buf, byte(r))
		} else {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		}
	}
	if skip != nil && skip(buf) {
		return buf
	}
	if cache != nil {
		if term, ok := cache[string(buf)]; ok {
			if term != "" {
				emit(token{term: term, whole: whole})
			}
			return buf
		}
	}
	term := wordTerm(string(buf))
	if cache != nil {
		cache[string(buf)] = term
	}
	if term != "" {
		emit(token{term: term, whole: whole})
	}
	return buf
}

// wordTerm returns the term of a lowercase word, or "" when it is not one.
func wordTerm(s string) string {
	k, stem := kept(s)
	if stem {
		return Stem(k)
	}
	return k
}

// kept is what wordTerm makes of a word before its stem: "" when the word
// is no term, and whether what it returns is still to be stemmed.
func kept(s string) (string, bool) {
	if isStopword(s) {
		return "", false
	}
	// Drop possessives and stray apostrophes.
	if strings.ContainsRune(s, '\'') {
		s = strings.TrimSuffix(s, "'s")
		s = strings.ReplaceAll(s, "'", "")
	}
	// Number words map to digits ("six minutes" and "6 minutes" both give
	// "6"), and single digits are kept.
	if d := numberWord(s); d != "" {
		return d, false
	}
	if len(s) == 1 && isDigit(s[0]) {
		return s, false
	}
	if utf8.RuneCountInString(s) < 2 || len(s) > 40 || isStopword(s) {
		return "", false
	}
	if isNumber(s) && len(s) > 8 {
		return "", false
	}
	// Plural numbers ("502s", "1990s") are the number.
	if len(s) > 1 && s[len(s)-1] == 's' && isNumber(s[:len(s)-1]) {
		return s[:len(s)-1], false
	}
	return s, true
}

// words counts the words of text that make terms, without stemming them:
// each chunk between spaces is one word, as an identifier is one with its
// parts, and a chunk of stopwords is none. buf is the tokenizer's, kept
// between calls.
func words(text string, buf *[]byte) int {
	n := 0
	for chunk := range strings.FieldsSeq(text) {
		content := false
		*buf = tokenizeChunk(chunk, *buf, nil, func(w []byte) bool {
			if !content {
				k, _ := kept(string(w))
				content = k != ""
			}
			return true // no stem is needed
		}, func(token) { content = true })
		if content {
			n++
		}
	}
	return n
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numberWord returns the digits of a number word from two to twenty, and of
// the tens, or "". "one" stays a stopword: it is far more often a pronoun.
func numberWord(s string) string {
	switch s {
	case "two":
		return "2"
	case "three":
		return "3"
	case "four":
		return "4"
	case "five":
		return "5"
	case "six":
		return "6"
	case "seven":
		return "7"
	case "eight":
		return "8"
	case "nine":
		return "9"
	case "ten":
		return "10"
	case "eleven":
		return "11"
	case "twelve":
		return "12"
	case "fifteen":
		return "15"
	case "twenty":
		return "20"
	case "thirty":
		return "30"
	case "forty":
		return "40"
	case "fifty":
		return "50"
	case "sixty":
		return "60"
	case "ninety":
		return "90"
	case "hundred":
		return "100"
	case "thousand":
		return "1000"
	}
	return ""
}
