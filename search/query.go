package search

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Query is a search built from a user prompt: weighted terms.
type Query struct {
	terms []qterm
	joins []string // adjacent prose words written as one ("fall back" → "fallback"): used when the store has them
	asks  asks     // what the prompt asks for (asks.go)
}

type qterm struct {
	term      string
	weight    float64
	prompt    bool // from the prompt itself (not only the previous turn)
	entity    bool
	expansion bool   // added by the thesaurus or a join, not typed
	group     int    // >0: a term and its expansions, which substitute for each other rather than add up
	whole     string // the entity of the prompt this term was split from, "" for a word typed alone (see token)
}

// written reports whether t is a word of the prompt's prose, which its
// writer typed, rather than of a paste or of the previous turn.
func (t qterm) written() bool { return t.prompt && !t.expansion && t.weight >= weightProse }

// Weights of the parts of a prompt.
const (
	weightProse    = 1.0
	weightCode     = 0.5 // pasted logs, stack traces, code blocks
	weightPrevious = 0.2 // params.previous, so that a query's logged weights are the ones ranking uses
)

// ParseQuery builds a query from a user prompt and, optionally, the text of
// the previous assistant turn. It drops what is not topic: image markers,
// URLs (a ticket id in a URL path is kept), conversational filler and
// stopwords; it splits identifiers and paths, keeping the joined form as an
// entity term. Pasted logs and code count for less than prose. The previous
// turn only refines: its terms are used when the prompt has a topic of its
// own, and are given less weight.
func ParseQuery(prompt, previous string) Query {
	return parsePrompt(prompt).Refine(previous)
}

// parsePrompt builds the prompt's own terms.
func parsePrompt(prompt string) Query {
	if goAhead(prompt) {
		return Query{}
	}
	// Sized for the prompt up front: in the hook's short life, slices and
	// maps that grow by doubling touch fresh memory at every step.
	n := min(len(prompt)/4+8, 1024)
	q := Query{terms: make([]qterm, 0, n)}
	acc := make(map[string]int, n)
	pasted := false
	sql := eachSegment(prompt, func(text string, code bool) {
		w := weightProse
		if code {
			w = weightCode
			pasted = true
		}
		tokenize(text, func(t token) {
			q.add(acc, qterm{term: t.term, weight: w, prompt: true, entity: t.entity, whole: t.whole})
		})
		if !code && len(q.joins) < maxJoins {
			joins(text, func(term string) bool {
				if !slices.Contains(q.joins, term) {
					q.joins = append(q.joins, term)
				}
				return len(q.joins) < maxJoins
			})
		}
	})
	// A pasted SQL statement is about SQL, though it seldom says so.
	if sql {
		q.add(acc, qterm{term: "sql", weight: weightCode, prompt: true})
	}
	capPaste(q.terms)
	q.asks = asksOf(prompt, pasted)
	return q
}

// Pasted logs and code may weigh together pasteShare of the prompt's prose,
// or pasteFloor (eight terms at weightCode) when that is more: a short
// paste under a short sentence ("CI fails:" and a panic naming sqlc) is
// often the topic itself.
const (
	pasteShare = 0.5
	pasteFloor = 8 * weightCode
)

// capPaste scales the terms of pasted logs and code down so that together
// they weigh no more than the prose allows them. A prompt is about what
// its writer wrote; a paste's ids, times and paths, new on every line,
// would otherwise outnumber the prose's words and outvote them. A prompt
// that is all paste keeps its weights.
func capPaste(terms []qterm) {
	var prose, code float64
	for _, t := range terms {
		if t.written() {
			prose += t.weight
		} else {
			code += t.weight
		}
	}
	allowed := max(pasteShare*prose, pasteFloor)
	if prose == 0 || code <= allowed {
		return
	}
	f := allowed / code
	for i := range terms {
		if !terms[i].written() {
			terms[i].weight *= f
		}
	}
}

// maxJoins is how many joined pairs a query looks up: a long brief's later
// pairs cost a stemming and a lookup each and seldom find anything.
const maxJoins = 24

// maxJoinedLen is the longest joined word a pair may make, in bytes: two
// long words side by side are seldom one word.
const maxJoinedLen = 24

// joins calls fn with the term of each pair of adjacent words of prose
// written as one word ("fall back" → "fallback", "file name" →
// "filename"), until fn returns false: a store may spell joined what a
// prompt spells apart. A pair whose first word is a stopword is left alone
// ("to do", "in it").
func joins(text string, fn func(term string) bool) {
	prev := ""
	for word, clauseEnds := range proseWords(text) {
		if !isPlainWord(word) {
			prev = ""
			continue
		}
		if prev != "" && len(prev)+len(word) <= maxJoinedLen {
			if term := wordTerm(prev + word); term != "" && !fn(term) {
				return
			}
		}
		prev = word
		if clauseEnds || isStopword(word) {
			prev = ""
		}
	}
}

// proseWords yields each whitespace-separated chunk of text lowercased,
// without the non-letters around it ("" for a chunk of none: an emoji, a
// dash), and whether a clause ends after it: a chunk that punctuation
// ends ("fix," "it?") ends one.
func proseWords(text string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		for chunk := range strings.FieldsSeq(text) {
			word := strings.TrimRightFunc(chunk, notLetter)
			clauseEnds := len(word) < len(chunk)
			word = strings.TrimLeftFunc(word, notLetter)
			if !yield(strings.ToLower(word), clauseEnds) {
				return
			}
		}
	}
}

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// goAhead reports whether prompt is a go-ahead: plain words only, no
// question word, and each word that is not a stopword is a verb whose
// object is a pronoun ending its clause ("looks good, ship it", "ok commit
// this", "can you fix it?"). Such a prompt acts on what came before and has
// no topic of its own; like "ok go ahead", it stays silent whatever the
// previous turn says. "who reviews that" asks about something, and "deploy
// it to staging" names it.
func goAhead(prompt string) bool {
	verbs := 0
	pending := false // a verb waits for its pronoun
	object := false  // a pronoun followed the verb; the clause must end
	for word, clauseEnds := range proseWords(prompt) {
		switch {
		case word == "": // an emoji, a dash
		case isQuestionWord(word):
			return false // "who reviews that" asks about something
		case pending:
			if !isPronounObject(word) {
				return false
			}
			pending, object = false, true
		case isStopword(word):
		case object || !isPlainWord(word):
			return false // "fix it properly": a word after the object says more
		default:
			pending = true
			verbs++
		}
		if clauseEnds {
			if pending {
				return false
			}
			object = false
		}
	}
	return verbs > 0 && !pending
}

func isQuestionWord(w string) bool {
	switch w {
	case "who", "whom", "whose", "what", "which", "why", "where", "when", "how":
		return true
	}
	return false
}

func isPronounObject(w string) bool {
	switch w {
	case "it", "this", "that", "them", "these", "those":
		return true
	}
	return false
}

// isPlainWord reports whether w is two or more letters and nothing else.
func isPlainWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// add puts t in q, whose terms acc indexes; a term already there keeps the
// larger of its weights.
func (q *Query) add(acc map[string]int, t qterm) {
	if i, ok := acc[t.term]; ok {
		q.terms[i].weight = max(q.terms[i].weight, t.weight)
		if t.prompt && t.whole == "" {
			q.terms[i].whole = "" // the prompt also has it alone: a word of its own
		}
		return
	}
	acc[t.term] = len(q.terms)
	q.terms = append(q.terms, t)
}

// Refine returns q with the terms of the previous assistant turn added at a
// lower weight, when q wants them (see WantsPrevious). A query with no topic
// of its own stays empty: the previous turn may refine a topic, never create
// one. The hook parses the prompt first and reads the transcript only when
// the query wants it.
func (q Query) Refine(previous string) Query {
	if !q.WantsPrevious() || previous == "" {
		return q
	}
	out := Query{terms: make([]qterm, len(q.terms), len(q.terms)+maxPreviousTerms), joins: q.joins, asks: q.asks}
	copy(out.terms, q.terms)
	acc := make(map[string]int, len(out.terms)+maxPreviousTerms)
	for i, t := range out.terms {
		acc[t.term] = i
	}
	own := len(out.terms)
	// Tokenizing stops once the turn has added all it may.
	full := func() bool { return len(out.terms)-own >= maxPreviousTerms }
	eachSegment(tail(previous, maxPreviousBytes), func(text string, code bool) {
		w := weightPrevious
		if code {
			w *= weightCode
		}
		tokenizeCached(text, nil, full, func(t token) {
			if !full() {
				out.add(acc, qterm{term: t.term, weight: w, entity: t.entity})
			}
		})
	})
	return out
}

// PreviousRead is the part of a previous turn that Refine reads: a log that
// keeps it can replay the query exactly.
func PreviousRead(previous string) string { return tail(previous, maxPreviousBytes) }

// maxPreviousBytes is how much of the previous turn a query reads: its end,
// where a turn says what it did and what comes next. Ranking keeps only its
// weightiest terms anyway, and tokenizing a long turn costs real time on every
// prompt.
const maxPreviousBytes = 1024

// maxPreviousTerms caps the distinct terms a previous turn may add: each is
// a dictionary lookup and a posting list on the prompt path, and ranking
// keeps only the weightiest few.
const maxPreviousTerms = 32

// tail returns about the last n bytes of s, starting at a word boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexAny(s, " \n\t"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// WantsPrevious reports whether the previous turn may refine q: q has a
// topic of its own, but fewer written terms than ranking keeps of a prompt
// (maxPrompt; a paste does not make a prompt say more). A prompt that
// fills them says what it is about by itself — the prompts that lean on
// the turn before are short ("and on staging?") — and skipping the
// transcript spares the slowest prompts its cost.
func (q Query) WantsPrevious() bool {
	own := 0
	for _, t := range q.terms {
		if t.written() {
			own++
		}
	}
	return own > 0 && own < maxPrompt
}

// Typed returns the terms of the prompt's own prose, in the order it has
// them: what the person typed about the topic, without pasted code or
// logs, the previous turn's terms or expansions. Offline passes read it (an
// alias learned from use is the words a prompt typed); ranking does not.
func (q Query) Typed() []string {
	var out []string
	for _, t := range q.terms {
		if t.written() {
			out = append(out, t.term)
		}
	}
	return out
}

// Empty reports whether the query has no terms of its own.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// String lists the query terms with their weights, for logs: terms of the
// previous turn are marked "+", entities "@".
func (q Query) String() string {
	var b strings.Builder
	n := 0
	for _, t := range q.terms {
		n += len(t.term) + 8
	}
	b.Grow(n)
	for i, t := range q.terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !t.prompt {
			b.WriteByte('+')
		}
		if t.entity {
			b.WriteByte('@')
		}
		b.WriteString(t.term)
		if t.weight != 1 {
			b.WriteByte('^')
			b.WriteString(strconv.FormatFloat(t.weight, 'g', 2, 64))
		}
	}
	return b.String()
}
