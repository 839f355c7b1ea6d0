package mdparse

import (
	"strings"
	"unicode"
)

// SlugMax is the longest slug Slugify returns.
const SlugMax = 60

// Slugify turns a name into a file slug: lower-case ASCII words joined by
// "-", at most SlugMax bytes, cut at a word boundary and not after a word
// such as "the" or "of" (a single longer word is cut). Latin letters with diacritics and ligatures are transliterated
// ("Größe" → "grosse"), as is Cyrillic; other letters are dropped, and
// apostrophes inside words vanish ("don't" → "dont"). A name with nothing
// left gives "memory".
func Slugify(name string) string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range name {
		switch {
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			w.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '\u2019':
			// don't → dont
		case r >= 0x80:
			if t, ok := translit(r); ok {
				w.WriteString(t)
			} else if !unicode.IsMark(r) {
				flush()
			}
		default:
			flush()
		}
	}
	flush()
	n, size := 0, 0 // words kept, and their length joined
	for i, word := range words {
		if i > 0 && size+1+len(word) > SlugMax {
			break
		}
		n, size = i+1, size+len(word)+min(i, 1)
	}
	if n < len(words) {
		// Cut: end on a word that carries meaning, not on "the" or "of".
		for n > 1 && cutWords[words[n-1]] {
			n--
		}
	}
	slug := strings.Join(words[:n], "-")
	if len(slug) > SlugMax {
		slug = slug[:SlugMax] // one longer word
	}
	if slug == "" {
		return "memory"
	}
	return slug
}

// cutWords are the words a cut slug does not end on.
var cutWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "at": true, "for": true,
	"and": true, "or": true, "but": true, "with": true, "by": true, "from": true, "during": true, "as": true,
	"is": true, "are": true, "was": true, "be": true, "if": true, "when": true, "then": true, "than": true, "that": true,
}

// translit spells a non-ASCII letter in lower-case ASCII. ok is false for
// letters it does not know and for anything that is not a letter.
func translit(r rune) (string, bool) {
	r = unicode.ToLower(r)
	if r < 0x80 && unicode.IsLetter(r) {
		return string(r), true
	}
	for _, g := range translitTable {
		if strings.ContainsRune(g.from, r) {
			return g.to, true
		}
	}
	return "", false
}

var translitTable = []struct{ from, to string }{
	{"àáâãäåāăąǎ", "a"}, {"æ", "ae"}, {"çćĉċč", "c"}, {"ďđð", "d"},
	{"èéêëēĕėęě", "e"}, {"ĝğġģ", "g"}, {"ĥħ", "h"}, {"ìíîïĩīĭįıǐ", "i"},
	{"ĳ", "ij"}, {"ĵ", "j"}, {"ķ", "k"}, {"ĺļľŀł", "l"}, {"ñńņňŉ", "n"},
	{"òóôõöøōŏőǒ", "o"}, {"œ", "oe"}, {"ŕŗř", "r"}, {"śŝşšș", "s"}, {"ß", "ss"},
	{"ţťŧț", "t"}, {"ùúûüũūŭůűųǔ", "u"}, {"ŵ", "w"}, {"ýÿŷ", "y"}, {"źżž", "z"},
	{"þ", "th"},
	// Cyrillic (Russian, Ukrainian), scientific-ish, ASCII only.
	{"а", "a"}, {"б", "b"}, {"в", "v"}, {"гґ", "g"}, {"д", "d"}, {"еэєё", "e"},
	{"ж", "zh"}, {"з", "z"}, {"иіїй", "i"}, {"к", "k"}, {"л", "l"}, {"м", "m"},
	{"н", "n"}, {"о", "o"}, {"п", "p"}, {"р", "r"}, {"с", "s"}, {"т", "t"},
	{"у", "u"}, {"ф", "f"}, {"х", "kh"}, {"ц", "ts"}, {"ч", "ch"}, {"ш", "sh"},
	{"щ", "shch"}, {"ы", "y"}, {"ю", "yu"}, {"я", "ya"}, {"ъь", ""},
}
