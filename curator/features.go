package curator

import (
	"bytes"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// features is what the curator reads from one memory.
type features struct {
	body     []byte          // body with surrounding white space trimmed
	paths    []string        // repository paths the body cites, as mdparse found them
	links    []string        // link destinations in the body
	topics   map[string]bool // see subjectsOf
	entities map[string]bool // see subjectsOf
	terms    map[string]bool // stemmed words of name, description and body, for candidate pairs
	shingles []uint64        // sorted, distinct hashes of word n-grams, for near-duplicates
	details  []detail        // see detailsOf
	text     string          // name, description and body, as inText reads them
}

func featuresOf(m *mdparse.Memory) *features {
	x := mdparse.ExtractBody(m.Body)
	f := &features{
		body:  bytes.TrimSpace(m.Body),
		paths: x.Paths,
		links: x.Links,
	}
	f.topics, f.entities = subjectsOf(m, x)
	f.terms = map[string]bool{}
	for _, s := range []string{m.Name, m.Description, x.Text} {
		for _, t := range search.Tokens(s) {
			if isWordTerm(t) {
				f.terms[t] = true
			}
		}
	}
	f.shingles = shingles(m.Name + "\n" + m.Description + "\n" + x.Text)
	f.details = detailsOf(m.Name, m.Description, x)
	f.text = normText(m.Name + "\n" + m.Description + "\n" + string(m.Body))
	return f
}

// subjectsOf returns what a memory is about, as two sets of keys.
//
// Topics are the words of its tags, its name and its description, and the
// code spans that are one word, as topicKey makes them: lower case, stemmed,
// a compound ("atlas-web", "force-push") one key rather than a key
// per part. A word in a tag, the name and a code span is one topic.
//
// Entities are the specific things it names: repository paths, URLs, code
// spans of more than one word ("stripe listen", "git revert <sha>"), and
// identifiers in its name, description and text (see isEntity: "lrk-412",
// "ledger#118", "atlas-staging-pg16", "formatMoney", "2025-09-30.clover").
// A technology's name alone ("stripe", "Postgres", "GitHub") is never an
// entity, only a topic.
func subjectsOf(m *mdparse.Memory, x mdparse.Extract) (topics, entities map[string]bool) {
	topics, entities = map[string]bool{}, map[string]bool{}
	var addTopics func(s string)
	addTopics = func(s string) {
		for _, c := range strings.Fields(s) {
			c = trimChunk(c)
			switch {
			case isEntity(c) || strings.Contains(c, "://"):
				// an entity (addIdentifiers), not a topic
			case strings.ContainsRune(c, '/') && looksPath(c):
				entities[strings.ToLower(c)] = true
			case strings.ContainsRune(c, '/'):
				addTopics(strings.ReplaceAll(c, "/", " ")) // "staging/prod", "and/or"
			default:
				if k := topicKey(c); k != "" {
					topics[k] = true
				}
			}
		}
	}
	for _, tag := range m.Tags {
		addTopics(tag)
	}
	addTopics(m.Name)
	addTopics(m.Description)
	for _, p := range x.Paths {
		entities[strings.ToLower(strings.TrimPrefix(p, "./"))] = true
	}
	for _, l := range x.Links {
		if u := normURL(l); u != "" {
			entities[u] = true
		}
	}
	for _, c := range x.Code {
		c = strings.TrimSpace(c)
		switch {
		case c == "":
		case strings.ContainsRune(c, '\n') || len(c) > 80:
			addIdentifiers(entities, c)
		case strings.Contains(c, "://"):
			if u := normURL(c); u != "" {
				entities[u] = true
			}
		case len(strings.Fields(c)) == 1 && !strings.HasPrefix(c, "/") && !isEntity(trimChunk(c)):
			addTopics(c)
		case hasLetter(c):
			entities[strings.ToLower(strings.Join(strings.Fields(c), " "))] = true
		}
	}
	addIdentifiers(entities, m.Name)
	addIdentifiers(entities, m.Description)
	addIdentifiers(entities, x.Text)
	return topics, entities
}

// topicKey returns the topic a chunk of text (no white space) names, or "":
// its parts (split at anything but letters, digits and apostrophes) lower
// case and stemmed, stopwords and numbers dropped, joined by '-'. A key of
// one part must have three letters or more and not be one of genericWords.
func topicKey(chunk string) string {
	parts := strings.FieldsFunc(strings.ToLower(trimChunk(chunk)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	var words []string
	for _, p := range parts {
		for _, t := range search.Tokens(p) {
			if isWordTerm(t) && hasLetter(t) {
				words = append(words, t)
			}
		}
	}
	switch {
	case len(words) == 0 || len(words) > maxTopicParts:
		return ""
	case len(words) == 1 && (len([]rune(words[0])) < 3 || generic()[words[0]]):
		return ""
	}
	return strings.Join(words, "-")
}

// maxTopicParts bounds a compound topic: longer ones are identifiers, DSNs
// or sentences in a code span, not topics.
const maxTopicParts = 3

// looksPath reports whether a chunk with a '/' names a file or directory:
// two slashes or more, a trailing slash, or a dot in its last part
// ("ledger/app/billing/", "infra/main.tf"), not "staging/prod".
func looksPath(c string) bool {
	return strings.Count(c, "/") >= 2 || strings.HasSuffix(c, "/") || strings.ContainsRune(c[strings.LastIndexByte(c, '/')+1:], '.')
}

// trimChunk trims the punctuation around a white-space separated chunk of text.
func trimChunk(c string) string {
	c = strings.TrimLeft(c, "([{<\"'`*_")
	c = strings.TrimRight(c, ")]}>\"'`*_~.,;:!?…")
	return strings.TrimSuffix(c, "(") // "formatMoney()" → "formatMoney"
}

// addIdentifiers adds the identifiers among the white-space separated chunks of s.
func addIdentifiers(set map[string]bool, s string) {
	for _, c := range strings.Fields(s) {
		c = trimChunk(c)
		if strings.Contains(c, "://") {
			if u := normURL(c); u != "" {
				set[u] = true
			}
			continue
		}
		if isEntity(c) {
			set[strings.ToLower(c)] = true
		}
	}
}

// isEntity reports whether a trimmed chunk of text names a specific thing: it
// is made of letters, digits and "_-./#:@", has at least four letters or
// digits and one letter, and either has a separator other than '-' between
// two word characters ("format_money", "atlas-web#188", "tax.py"), mixes
// letters and digits ("lrk-412", "pg16"; not a quantity such as "400s" or
// "10ms"), or is camelCase ("formatMoney"). A '/' counts only next to a
// digit, a '.' or a '_' elsewhere in the chunk: "linux/arm64" is an entity,
// "and/or" and "staging/prod" are not.
func isEntity(c string) bool {
	alnum, letters, digits := 0, 0, 0
	sep, camel := false, false
	var prev rune
	for i, r := range c {
		switch {
		case r < 0x80 && unicode.IsLetter(r):
			alnum++
			letters++
			if unicode.IsUpper(r) && i > 0 && unicode.IsLower(prev) && unicode.IsLower(rune(c[0])) {
				camel = true
			}
		case r >= '0' && r <= '9':
			alnum++
			digits++
		case strings.ContainsRune("_./#:@", r):
			if i > 0 && i < len(c)-1 && r != '/' {
				sep = true
			}
		case r == '-':
		default:
			return false
		}
		prev = r
	}
	if alnum < 4 || letters == 0 {
		return false
	}
	if strings.ContainsRune(c, '/') && !sep && digits == 0 {
		return false
	}
	if digits > 0 && isQuantity(c) {
		return false
	}
	return sep || digits > 0 || camel
}

// isQuantity reports whether c is a number with a short unit: "400s", "10ms", "2xx".
func isQuantity(c string) bool {
	i := strings.IndexFunc(c, func(r rune) bool { return r < '0' || r > '9' })
	return i > 0 && len(c)-i <= 2 && isPlainWord(c[i:])
}

func normURL(u string) string {
	l := strings.ToLower(u)
	for _, p := range []string{"https://", "http://", "mailto:"} {
		l = strings.TrimPrefix(l, p)
	}
	l = strings.TrimPrefix(l, "www.")
	l = strings.TrimRight(l, "/")
	if strings.Contains(l, "://") || len(l) < 4 {
		return ""
	}
	return l
}

func isPlainWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// isWordTerm reports whether a term from search.Tokens is a word rather than
// a joined identifier.
func isWordTerm(t string) bool {
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return t != ""
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// genericWords say what kind of note a memory is, or how sure it is, not what
// it is about; every store is full of them, so they are never topics.
var genericWords = []string{
	"rule", "note", "gotcha", "fact", "reminder", "tip", "reference", "procedure", "decision",
	"preference", "event", "never", "instead", "avoid", "check", "fix", "run", "set", "add",
	"change", "move", "current", "currently", "today", "must", "should", "issue", "problem",
	"work", "happen", "case", "time", "day", "week", "month", "year", "value", "name", "number",
	"people", "team", "agent", "thing", "detail", "info", "mean", "always", "don't", "sure",
	"true", "false", "usual", "usually", "wrong", "correct", "right", "important", "remember",
}

// generic returns the stemmed genericWords.
var generic = sync.OnceValue(func() map[string]bool {
	s := map[string]bool{}
	for _, w := range genericWords {
		for _, t := range search.Tokens(w) {
			s[t] = true
		}
		s[search.Stem(w)] = true
	}
	return s
})

// shingleSize is the length of the word n-grams compared for near-duplicates.
const shingleSize = 3

// shingles returns the sorted distinct hashes of the word n-grams of s, words
// being the stemmed terms search.Tokens yields (so stopwords and inflection
// do not count).
func shingles(s string) []uint64 {
	var words []string
	for _, t := range search.Tokens(s) {
		if isWordTerm(t) {
			words = append(words, t)
		}
	}
	var out []uint64
	for i := 0; i+shingleSize <= len(words) || (i == 0 && len(words) > 0); i++ {
		h := fnv.New64a()
		for j := i; j < i+shingleSize && j < len(words); j++ {
			h.Write([]byte(words[j]))
			h.Write([]byte{0})
		}
		out = append(out, h.Sum64())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// resemblance returns the Jaccard similarity |a∩b|/|a∪b| and the containment
// |a∩b|/min(|a|,|b|) of two sorted sets.
func resemblance(a, b []uint64) (jaccard, containment float64) {
	if len(a) == 0 || len(b) == 0 {
		return 0, 0
	}
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n), float64(n) / float64(min(len(a), len(b)))
}

// A detail is one checkable thing a memory says, of one of the kinds below:
// what a merge must keep and what a review item says would be lost.
type detail struct{ kind, text string }

// Kinds of detail.
const (
	detailPath    = "path"
	detailCommand = "command" // a code span or block
	detailLink    = "link"
	detailNumber  = "number"
	detailName    = "name" // an identifier (isEntity) or a capitalised word within a sentence
)

func (d detail) String() string {
	if d.kind == detailCommand {
		return "`" + text.Clip(d.text, 60) + "`"
	}
	return d.kind + " " + text.Clip(d.text, 60)
}

// detailsOf returns the details of a memory's name, description and body
// x: its paths, code spans and blocks, links, and the numbers and names of
// its text, once each (compared as inText compares them), in order.
func detailsOf(name, description string, x mdparse.Extract) []detail {
	var out []detail
	seen := map[string]bool{}
	add := func(kind, s string) {
		s = strings.Join(strings.Fields(s), " ")
		if k := normText(s); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, detail{kind, s})
		}
	}
	for _, p := range x.Paths {
		add(detailPath, p)
	}
	for _, c := range x.Code {
		add(detailCommand, c)
	}
	for _, l := range x.Links {
		add(detailLink, l)
	}
	for _, s := range []string{name, description, x.Text} {
		for _, d := range wordDetails(s) {
			add(d.kind, d.text)
		}
	}
	return out
}

// wordDetails returns the numbers and names among the white-space separated
// chunks of s: a number is made of digits and ".,:-/%" or is a quantity
// ("5432", "17:00", "2026-08-04", "10ms"); a name is an identifier, or a
// word that starts with a capital letter and does not start a sentence or a
// line ("Doppler", "RDS", "Theo").
func wordDetails(s string) []detail {
	var out []detail
	for _, line := range strings.Split(s, "\n") {
		start := true
		for _, raw := range strings.Fields(line) {
			c := trimChunk(raw)
			switch {
			case c == "":
			case isEntity(c):
				out = append(out, detail{detailName, c})
			case isNumber(c):
				out = append(out, detail{detailNumber, c})
			case !start && len(c) > 1 && isPlainWord(c) && unicode.IsUpper([]rune(c)[0]):
				out = append(out, detail{detailName, c})
			}
			start = strings.ContainsAny(raw[len(raw)-1:], ".!?:")
		}
	}
	return out
}

// isNumber reports whether a trimmed chunk is a number, a date, a time or a
// quantity: "5432", "0.75", "17:00", "2026-08-04", "15%", "10ms".
func isNumber(c string) bool {
	if c == "" || c[0] < '0' || c[0] > '9' {
		return false
	}
	if isQuantity(c) {
		return true
	}
	return strings.Trim(c, "0123456789.,:-/%") == ""
}

// normText is s as details are compared in it: lower case, without
// backticks, white space collapsed.
func normText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(s, "`", ""))), " ")
}

// inText reports whether normalised text t holds detail d as a whole: not
// preceded or followed by a letter or digit ("8000" is not in "18000").
func inText(t string, d detail) bool {
	n := normText(d.text)
	for i := 0; n != ""; {
		j := strings.Index(t[i:], n)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(t[:j])
		after, _ := utf8.DecodeRuneInString(t[j+len(n):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = j + 1
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
