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
}

type qterm struct {
	term      string
	weight    float64
	prompt    bool // from the prompt itself (not only the previous turn)
	entity    bool
	expansion bool // added by the thesaurus or a join, not typed
	group     int  // >0: a term and its expansions, which substitute for each other rather than add up
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
	eachSegment(prompt, func(text string, code bool) {
		w := weightProse
		if code {
			w = weightCode
		}
		tokenize(text, func(t token) {
			q.add(acc, qterm{term: t.term, weight: w, prompt: true, entity: t.entity})
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
	if pastesSQL(prompt) {
		q.add(acc, qterm{term: "sql", weight: weightCode, prompt: true})
	}
	capPaste(q.terms)
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
			word := strings.TrimRightFunc(chunk, func(r rune) bool { return !unicode.IsLetter(r) })
			clauseEnds := len(word) < len(chunk)
			word = strings.TrimLeftFunc(word, func(r rune) bool { return !unicode.IsLetter(r) })
			if !yield(strings.ToLower(word), clauseEnds) {
				return
			}
		}
	}
}

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
		return
	}
	acc[t.term] = len(q.terms)
	q.terms = append(q.terms, t)
}

// pastesSQL reports whether a line of s is an SQL statement.
func pastesSQL(s string) bool {
	for line := range strings.Lines(s) {
		if isSQLStatement(line) {
			return true
		}
	}
	return false
}

// isSQLStatement reports whether line is an SQL statement that changes or
// reads data or a table, with the structure of one: a sentence that starts
// with the same word ("update the docs and set the flag", "select a file
// from the list") is not one.
func isSQLStatement(line string) bool {
	line = strings.TrimLeft(line, " \t")
	verb, _, _ := strings.Cut(line, " ")
	switch {
	case strings.EqualFold(verb, "update"), strings.EqualFold(verb, "select"), strings.EqualFold(verb, "delete"),
		strings.EqualFold(verb, "insert"), strings.EqualFold(verb, "alter"):
	default:
		return false
	}
	f := strings.Fields(line)
	has := func(word string) bool {
		return slices.ContainsFunc(f, func(w string) bool { return strings.EqualFold(w, word) })
	}
	end := strings.HasSuffix(strings.TrimSpace(line), ";")
	switch {
	case len(f) < 3:
		return false
	case strings.EqualFold(verb, "update"):
		return strings.EqualFold(f[2], "set") && strings.Contains(line, "=")
	case strings.EqualFold(verb, "select"):
		return has("from") && (end || strings.ContainsAny(line, "*(,="))
	case strings.EqualFold(verb, "delete"):
		return strings.EqualFold(f[1], "from") && (end || has("where"))
	case strings.EqualFold(verb, "insert"):
		return strings.EqualFold(f[1], "into") && (has("values") || has("select") || strings.Contains(line, "("))
	default: // alter
		return strings.EqualFold(f[1], "table") && len(f) > 3 &&
			(strings.EqualFold(f[3], "add") || strings.EqualFold(f[3], "drop") || strings.EqualFold(f[3], "alter") || strings.EqualFold(f[3], "rename"))
	}
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
	out := Query{terms: make([]qterm, len(q.terms), len(q.terms)+maxPreviousTerms), joins: q.joins}
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

// eachSegment splits raw prompt text into prose and code (fenced blocks,
// lines that look like logs, and whole stack traces and diffs), with markers
// and URLs removed.
func eachSegment(s string, fn func(text string, code bool)) {
	inFence, inBlock := false, false
	var prose strings.Builder
	flush := func() {
		if prose.Len() > 0 {
			fn(prose.String(), false)
			prose.Reset()
		}
	}
	for line := range strings.Lines(s) {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			inFence = !inFence
			continue
		}
		// A stack trace or diff runs until a blank line: its frames' code
		// lines and its context lines look like prose one by one.
		inBlock = inBlock && trim != "" || startsBlock(trim)
		line = stripNoise(line)
		if inFence || inBlock || looksLikeLog(trim) {
			flush()
			fn(line, true)
			continue
		}
		prose.WriteString(line)
		prose.WriteByte('\n')
	}
	flush()
}

// startsBlock reports whether line opens a stack trace or a diff.
func startsBlock(line string) bool {
	for _, p := range [...]string{"Traceback (most recent call last)", "goroutine ", "panic:", "Exception in thread",
		"diff --git", "@@ ", "+++ ", "--- a/"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// stripNoise removes image and paste markers ("[Image #1]") and URLs. From a
// URL it keeps path segments that look like ticket ids ("LARK-412").
func stripNoise(s string) string {
	if !strings.Contains(s, "[") && !strings.Contains(s, "://") && !strings.Contains(s, "www.") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		if s[0] == '[' {
			if end := strings.IndexByte(s, ']'); end > 0 && isMarker(s[1:end]) {
				b.WriteByte(' ')
				s = s[end+1:]
				continue
			}
		}
		if n := urlLen(s); n > 0 && (b.Len() == 0 || !isWordByte(lastByte(b.String()))) {
			for i, seg := range strings.Split(s[:n], "/") {
				if isTicketID(seg) || i >= 3 && isURLWord(seg) {
					b.WriteByte(' ')
					b.WriteString(seg)
				}
			}
			b.WriteByte(' ')
			s = s[n:]
			continue
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
	return b.String()
}

func lastByte(s string) byte { return s[len(s)-1] }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isMarker reports whether the inside of brackets is a client marker such as
// "Image #1", "Pasted text #2 +40 lines" or "image".
func isMarker(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"image", "pasted", "screenshot", "file", "attachment"} {
		if strings.HasPrefix(s, p) && (len(s) == len(p) || s[len(p)] == ' ' || s[len(p)] == '#') {
			return true
		}
	}
	return false
}

// urlLen returns the length of a URL at the start of s, or 0.
func urlLen(s string) int {
	i := 0
	for i < len(s) && i <= 10 && (isWordByte(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	switch {
	case i > 0 && strings.HasPrefix(s[i:], "://") && isScheme(s[:i]):
	case strings.HasPrefix(s, "www."):
		i = -3
	default:
		return 0
	}
	n := i + 3
	for n < len(s) && !unicode.IsSpace(rune(s[n])) && s[n] != '>' && s[n] != ')' && s[n] != '"' && s[n] != '\'' && s[n] != '`' {
		n++
	}
	return n
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// isURLWord reports whether a URL path segment is a short name ("ledger",
// "atlas-web") rather than an id, a hash or a title slug.
func isURLWord(seg string) bool {
	if seg == "" || len(seg) > 24 || strings.Count(seg, "-") > 1 || strings.ContainsAny(seg, "?=&%#.") {
		return false
	}
	for i := 0; i < len(seg); i++ {
		if isDigit(seg[i]) {
			return false
		}
	}
	return true
}

// isTicketID reports whether s looks like "ABC-123".
func isTicketID(s string) bool {
	i := strings.IndexByte(s, '-')
	if i < 2 || i == len(s)-1 {
		return false
	}
	for j := 0; j < i; j++ {
		if !(s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z') {
			return false
		}
	}
	return isNumber(s[i+1:])
}

// looksLikeLog reports whether a line reads like machine output rather than
// prose: a timestamp or log level up front, a stack frame, a diff line, or
// few letters among many symbols. (The lines that open a stack trace or a
// diff are startsBlock's, which eachSegment asks first.)
func looksLikeLog(line string) bool {
	if line == "" {
		return false
	}
	switch {
	case strings.HasPrefix(line, "at ") && strings.ContainsAny(line, "(:"),
		strings.HasPrefix(line, "File \""), strings.HasPrefix(line, "Traceback"),
		strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "$ "):
		return true
	}
	// Leading date or time: 2026-11-10, 14:02:11.
	if len(line) >= 8 && isDigit(line[0]) && isDigit(line[1]) && (line[2] == ':' || (isDigit(line[2]) && isDigit(line[3]) && line[4] == '-')) {
		return true
	}
	letters, others := 0, 0
	for _, r := range line {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsSpace(r):
		default:
			others++
		}
	}
	return others > 8 && others*2 > letters
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
