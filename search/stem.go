package search

// Stem returns the Porter2 (Snowball English) stem of a lowercase word.
// Words that contain anything but ASCII letters and apostrophes are returned
// unchanged: identifiers, numbers and non-English words are matched exactly.
func Stem(word string) string {
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if (c < 'a' || c > 'z') && c != '\'' {
			return word
		}
	}
	if s, ok := stemException1(word); ok {
		return s
	}
	w := []byte(word)
	if w[0] == '\'' {
		w = w[1:]
	}
	// Mark consonant y: initial y and y after a vowel become Y.
	for i := range w {
		if w[i] == 'y' && (i == 0 || isVowel(w[i-1])) {
			w[i] = 'Y'
		}
	}
	r1, r2 := regions(w)
	w = step0(w)
	w = step1a(w)
	if len(w) <= 2 {
		return restoreY(w)
	}
	switch string(w) {
	case "inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed":
		return restoreY(w)
	}
	w = step1b(w, r1)
	w = step1c(w)
	w = step2(w, r1)
	w = step3(w, r1, r2)
	w = step4(w, r2)
	w = step5(w, r1, r2)
	return restoreY(w)
}

func stemException1(w string) (string, bool) {
	switch w {
	case "skis":
		return "ski", true
	case "skies":
		return "sky", true
	case "dying":
		return "die", true
	case "lying":
		return "lie", true
	case "tying":
		return "tie", true
	case "idly":
		return "idl", true
	case "gently":
		return "gentl", true
	case "ugly":
		return "ugli", true
	case "early":
		return "earli", true
	case "only":
		return "onli", true
	case "singly":
		return "singl", true
	case "sky", "news", "howe", "atlas", "cosmos", "bias", "andes":
		return w, true
	}
	return "", false
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func restoreY(w []byte) string {
	for i := range w {
		if w[i] == 'Y' {
			w[i] = 'y'
		}
	}
	return string(w)
}

func hasPrefix(w []byte, p string) bool {
	return len(w) >= len(p) && string(w[:len(p)]) == p
}

func hasSuffix(w []byte, s string) bool {
	// Comparing the last byte first rejects most rules without a call.
	n := len(s)
	return len(w) >= n && (n == 0 || w[len(w)-1] == s[n-1]) && string(w[len(w)-n:]) == s
}

// regions computes R1 and R2 as start offsets (len(w) when empty).
func regions(w []byte) (int, int) {
	r1 := len(w)
	switch {
	case hasPrefix(w, "gener"), hasPrefix(w, "arsen"):
		r1 = 5
	case hasPrefix(w, "commun"):
		r1 = 6
	default:
		for i := 1; i < len(w); i++ {
			if !isVowel(w[i]) && isVowel(w[i-1]) {
				r1 = i + 1
				break
			}
		}
	}
	r2 := len(w)
	for i := r1 + 1; i < len(w); i++ {
		if !isVowel(w[i]) && isVowel(w[i-1]) {
			r2 = i + 1
			break
		}
	}
	if r1 > len(w) {
		r1 = len(w)
	}
	return r1, r2
}

func step0(w []byte) []byte {
	for _, s := range []string{"'s'", "'s", "'"} {
		if hasSuffix(w, s) {
			return w[:len(w)-len(s)]
		}
	}
	return w
}

func containsVowel(w []byte) bool {
	for _, c := range w {
		if isVowel(c) {
			return true
		}
	}
	return false
}

func step1a(w []byte) []byte {
	switch {
	case hasSuffix(w, "sses"):
		return w[:len(w)-2]
	case hasSuffix(w, "ied"), hasSuffix(w, "ies"):
		if len(w) > 4 {
			return w[:len(w)-2]
		}
		return w[:len(w)-1]
	case hasSuffix(w, "us"), hasSuffix(w, "ss"):
		return w
	case hasSuffix(w, "s"):
		// Delete if the part before the s holds a vowel not immediately before it.
		if len(w) >= 3 && containsVowel(w[:len(w)-2]) {
			return w[:len(w)-1]
		}
	}
	return w
}

func isDouble(w []byte) bool {
	if len(w) < 2 {
		return false
	}
	a, b := w[len(w)-2], w[len(w)-1]
	if a != b {
		return false
	}
	switch a {
	case 'b', 'd', 'f', 'g', 'm', 'n', 'p', 'r', 't':
		return true
	}
	return false
}

// endsShortSyllable reports whether w ends in a short syllable.
func endsShortSyllable(w []byte) bool {
	n := len(w)
	if n == 2 {
		return isVowel(w[0]) && !isVowel(w[1])
	}
	if n >= 3 {
		c := w[n-1]
		return !isVowel(w[n-3]) && isVowel(w[n-2]) && !isVowel(c) && c != 'w' && c != 'x' && c != 'Y'
	}
	return false
}

func isShort(w []byte, r1 int) bool {
	return r1 >= len(w) && endsShortSyllable(w)
}

func step1b(w []byte, r1 int) []byte {
	for _, s := range []string{"eedly", "eed"} {
		if hasSuffix(w, s) {
			if len(w)-len(s) >= r1 {
				return append(w[:len(w)-len(s)], 'e', 'e')
			}
			return w
		}
	}
	for _, s := range []string{"ingly", "edly", "ing", "ed"} {
		if !hasSuffix(w, s) {
			continue
		}
		stem := w[:len(w)-len(s)]
		if !containsVowel(stem) {
			return w
		}
		w = stem
		switch {
		case hasSuffix(w, "at"), hasSuffix(w, "bl"), hasSuffix(w, "iz"):
			return append(w, 'e')
		case isDouble(w):
			return w[:len(w)-1]
		case isShort(w, r1):
			return append(w, 'e')
		}
		return w
	}
	return w
}

func step1c(w []byte) []byte {
	n := len(w)
	if n > 2 && (w[n-1] == 'y' || w[n-1] == 'Y') && !isVowel(w[n-2]) {
		w[n-1] = 'i'
	}
	return w
}

type rule struct{ suffix, repl string }

var step2Rules = [...]rule{
	{"ization", "ize"}, {"ational", "ate"}, {"fulness", "ful"}, {"ousness", "ous"}, {"iveness", "ive"},
	{"tional", "tion"}, {"biliti", "ble"}, {"lessli", "less"},
	{"entli", "ent"}, {"ation", "ate"}, {"alism", "al"}, {"aliti", "al"}, {"ousli", "ous"},
	{"iviti", "ive"}, {"fulli", "ful"},
	{"enci", "ence"}, {"anci", "ance"}, {"abli", "able"}, {"izer", "ize"}, {"ator", "ate"}, {"alli", "al"},
	{"bli", "ble"}, {"ogi", "og"}, {"li", ""},
}

func step2(w []byte, r1 int) []byte {
	for _, r := range step2Rules {
		if !hasSuffix(w, r.suffix) {
			continue
		}
		at := len(w) - len(r.suffix)
		if at < r1 {
			return w
		}
		switch r.suffix {
		case "ogi":
			if at == 0 || w[at-1] != 'l' {
				return w
			}
		case "li":
			if at == 0 {
				return w
			}
			switch w[at-1] {
			case 'c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't':
			default:
				return w
			}
		}
		return append(w[:at], r.repl...)
	}
	return w
}

var step3Rules = [...]rule{
	{"ational", "ate"}, {"tional", "tion"}, {"alize", "al"}, {"icate", "ic"}, {"iciti", "ic"},
	{"ative", ""}, {"ical", "ic"}, {"ness", ""}, {"ful", ""},
}

func step3(w []byte, r1, r2 int) []byte {
	for _, r := range step3Rules {
		if !hasSuffix(w, r.suffix) {
			continue
		}
		at := len(w) - len(r.suffix)
		if at < r1 || (r.suffix == "ative" && at < r2) {
			return w
		}
		return append(w[:at], r.repl...)
	}
	return w
}

var step4Suffixes = [...]string{
	"ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous",
	"ive", "ize", "ion", "al", "er", "ic",
}

func step4(w []byte, r2 int) []byte {
	for _, s := range step4Suffixes {
		if !hasSuffix(w, s) {
			continue
		}
		at := len(w) - len(s)
		if at < r2 {
			return w
		}
		if s == "ion" && (at == 0 || (w[at-1] != 's' && w[at-1] != 't')) {
			return w
		}
		return w[:at]
	}
	return w
}

func step5(w []byte, r1, r2 int) []byte {
	n := len(w)
	if n == 0 {
		return w
	}
	switch w[n-1] {
	case 'e':
		if n-1 >= r2 || (n-1 >= r1 && !endsShortSyllable(w[:n-1])) {
			return w[:n-1]
		}
	case 'l':
		if n-1 >= r2 && n >= 2 && w[n-2] == 'l' {
			return w[:n-1]
		}
	}
	return w
}
