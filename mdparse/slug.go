package mdparse

import (
	"strings"
	"unicode"
)

// SlugMax is the longest slug Slugify returns.
const SlugMax = 60

// Slugify turns a name into a file slug: lower-case ASCII words joined by
// "-", at most SlugMax bytes, cut at a word boundary (a single longer word is
// cut). Latin letters with diacritics and ligatures are transliterated
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
	var b strings.Builder
	for _, word := range words {
		switch {
		case b.Len() == 0 && len(word) > SlugMax:
			b.WriteString(word[:SlugMax])
		case b.Len() == 0:
			b.WriteString(word)
		case b.Len()+1+len(word) <= SlugMax:
			b.WriteByte('-')
			b.WriteString(word)
		default:
			return b.String()
		}
	}
	if b.Len() == 0 {
		return "memory"
	}
	return b.String()
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
