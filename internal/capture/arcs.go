package capture

import (
	"fmt"
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/search"
)

// Kinds of Arc.
const (
	// Overturned: a later line contradicts the statement: the developer
	// rejected it, the assistant retracted it, or the run after a claimed
	// fix failed.
	Overturned = "overturned"
	// Unconfirmed: the statement was a hypothesis (hedged: "I suspect",
	// "not proven", "i bet") and no later line confirms it.
	Unconfirmed = "unconfirmed"
	// Confirmed: a hypothesis a later line confirms.
	Confirmed = "confirmed"
)

// Arc is what became of one statement in a session: it was overturned,
// stayed a hypothesis, or was confirmed.
type Arc struct {
	Kind string // Overturned, Unconfirmed or Confirmed
	Line int    // the statement's line number
	By   int    // the line that overturned or confirmed it; 0 when unconfirmed
	How  string // for Overturned: howRejected, howRetracted or howRunFailed
}

// How an Overturned arc was overturned: one of FindArcs' rules each.
const (
	howRejected  = "the developer rejected it"
	howRetracted = "retracted"
	howRunFailed = "a later run failed"
)

// markKind is a mark's kind as its precision is measured: an overturned
// mark by how it was overturned, each a rule of its own in FindArcs.
func markKind(a Arc) string {
	if a.Kind == Overturned {
		return a.Kind + ": " + a.How
	}
	return a.Kind
}

// The cues FindArcs reads, in the words people and assistants use. They are
// phrases about arguing and testing, never about a topic, so they carry to
// sessions on any codebase; a cue missed costs a marker, and the prompt
// tells the model the markers are incomplete.
var (
	// A developer rejecting what the assistant just said, in the first
	// words of a prompt ("no, that's not it", "still failing").
	rejectCue = lazyregexp.New(`(?i)^\W*(no|nope|nah|wrong|incorrect|not quite|not really|actually)\b|` +
		`\b(that'?s|that is|it'?s|it is|this is|thats) (not|n'?t) (it|right|correct|true|the (cause|problem|issue|reason|fix|bug))\b|` +
		`\bisn'?t (it|right|true|the (cause|problem|issue|reason))\b|` +
		`\b(didn'?t|did not|doesn'?t|does not|won'?t|hasn'?t) (work|help|change anything|fix (it|this|that|anything))\b|` +
		`\bstill (fail\w*|broken|crash\w*|happen\w*|the same|see(ing)?|get(ting)?|red|wrong|not work\w*|there)\b|` +
		`\bsame (error|failure|problem|issue|result|thing)\b|` +
		`\b(you'?re|you are) (wrong|mistaken)\b|\bthat'?s wrong\b|\bnot what (i|we) (asked|meant|wanted)\b`)
	// The assistant taking back what it said before.
	retractCue = lazyregexp.New(`(?i)\b(rules?|ruled) out (my|the|that|this) (first |earlier |initial |original |previous )?(guess|idea|theory|hypothesis|explanation|diagnosis|suspicion|suspect)\b|` +
		`\bmy (first|earlier|initial|original|previous) (guess|idea|theory|hypothesis|explanation|diagnosis|assumption|claim|read)\b|` +
		`\bi was wrong\b|\bi said it was\b|\bscratch that\b|\bon second thought\b|\bi stand corrected\b|\bcorrection:|` +
		`\b(it )?turns out\b|(^|[.!?] )actually,|\b(you'?re|you are|you were) right\b|` +
		`\b(is|was|are|were)(n'?t| not) the (cause|problem|issue|culprit|reason)\b|\bnot the (cause|culprit)\b|` +
		`\b(can'?t|cannot|couldn'?t|doesn'?t|does not|didn'?t) (explain|account for|produce|be the cause)\b|\bred herring\b|\bthat wasn'?t it\b`)
	// The assistant agreeing with the developer, which takes back its own
	// claim, never the developer's.
	agreeCue = lazyregexp.New(`(?i)\b(you'?re|you are|you were) right\b`)
	// A statement of cause, diagnosis or fix: what can be overturned.
	claimCue = lazyregexp.New(`(?i)\b(because|caus(e|es|ed|ing)|due to|(comes?|came|coming) from|the (problem|issue|bug|culprit|reason|mismatch|fix) (is|was)|` +
		`found (it|the (problem|issue|bug|cause|culprit))|that'?s (why|the (mismatch|problem|issue|cause|bug|culprit))|` +
		`\b(which|that|this|it|all) points? (at|to)|points at|explains?|should (fix|work|match|pass|solve|resolve|do it)|` +
		`(this|that|which|it) (fixes|fixed|solves|solved|resolves|removes)|is (broken|wrong|stale|missing))\b|` + fixedDone)
	// A fix said to be done, which the next failing run overturns.
	fixCue = lazyregexp.New(`(?i)\b(should (fix|work|pass|solve|resolve|do it|match)|(this|that|which|it) (fixes|should fix|solves)|now (works|passes))\b|` + fixedDone)
	// A hypothesis. Strong cues mark one on their own; weak ones only in a
	// sentence about a cause.
	strongHedge = lazyregexp.New(`(?i)\b(i suspect|suspect(ed)?|suspicion|(not|never) (yet )?(been )?(confirmed|proven|verified|checked|tested|measured)|(have|has)n'?t (yet )?(been )?(confirmed|proven|verified|checked|tested|measured)|unconfirmed|unverified|untested|` +
		`hypothes[ie]s|my (guess|hunch)|a guess|i bet|can'?t confirm|not sure (if|whether|why|what))\b`)
	weakHedge = lazyregexp.New(`(?i)\b(might|may|could) (be|have)\b|\b(probably|likely|possibly|perhaps|presumably|i think|seems? (to|like)|appears? to)\b`)
	causeWord = lazyregexp.New(`(?i)\b(caus\w*|because|due to|regression|culprit|responsible|broke|breaks|why|explain\w*)\b`)
	// A later line confirming a hypothesis.
	confirmCue = lazyregexp.New(`(?i)\b(confirm(ed|s)|that('?s| is) (it|the (shape of it|cause|culprit|problem))|there it is|found it|root cause|cause:|` +
		`the cause (is|was)|verified|as (i )?suspected|sure enough|that explains|so that'?s why)\b`)
)

// fixedDone is "fixed" said of the work ("Fixed.", "it's fixed", "fixed
// it"), not as an adjective ("our fixed implementation").
const fixedDone = `(?i)(^|[.!?]\s+)fixed\b|\b(is|are|now|it'?s|that'?s) fixed\b|\bfixed (it|this|that|the)\b`

// sentenceSplit cuts a digest line into sentences, list items (a one-lined
// list is "… - item - item") and asides in parentheses ("keeping the change
// (it wasn't the cause)" says two things of opposite polarity).
var sentenceSplit = lazyregexp.New(`[.!?;](\s+|$)|\s[-*•]\s|\s\d+\.\s|\s\(|\)(\s|$)`)

func sentences(s string) []string {
	var out []string
	for _, p := range sentenceSplit.Split(s, -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// cueText is the part of s a cue speaks about: the sentences cue matches
// and, when those are short, the one after each (the explanation usually
// follows: "That rules out my first guess. tokens.css was current …").
func cueText(s string, cue matcher) (about, rest string) {
	ss := sentences(s)
	var in, out []string
	for i := 0; i < len(ss); i++ {
		if !cue.MatchString(ss[i]) {
			out = append(out, ss[i])
			continue
		}
		in = append(in, ss[i])
		if len(search.Tokens(ss[i])) < 6 && i+1 < len(ss) {
			i++
			in = append(in, ss[i])
		}
	}
	return strings.Join(in, ". "), strings.Join(out, ". ")
}

// matcher is a cue: a regular expression, or hedgeSentence.
type matcher interface{ MatchString(string) bool }

func overlap(a, b map[string]bool) int {
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// isQuestion reports whether an assistant line only asks.
func isQuestion(s string) bool { return strings.HasSuffix(strings.TrimSpace(s), "?") }

// FindArcs marks what became of the statements in a session's lines, by
// four deterministic rules, in this order:
//
//  1. A prompt that rejects what came before ("no, that's not it", "still
//     failing", "actually") overturns the claims (cause, diagnosis, fix) of
//     the assistant's turn before it, or, when it made none, what the turn
//     ended saying (unless that was a question).
//  2. An assistant line that retracts ("that rules out my first guess", "X
//     is not the cause", "you're right") overturns the earlier claim of the
//     assistant, or hypothesis of the developer, that it shares most words
//     with: at least two of the terms of the retracting sentences, and more
//     of those than of the line's other sentences (which usually restate
//     what did hold). A line that has three fifths of the retracting
//     sentences' terms, said with the same polarity, is restated by them
//     ("Actually, the real issue is" followed by the same diagnosis), not
//     retracted. Agreeing ("you're
//     right") takes back the assistant's own claim only.
//  3. A fix said to be done ("that should fix it") is overturned by a tool
//     error before the assistant speaks again.
//  4. A hypothesis ("I suspect", "not proven", "i bet"; "might", "probably"
//     only about a cause) not overturned is confirmed by a later line that
//     says so ("found it", "the cause was", "confirmed") and shares two
//     terms with it, or by a line of the same speaker that, after a tool
//     ran, says what was guessed as found (settles); else it stays
//     unconfirmed.
//
// Arcs are sorted by their statement's line; a statement has one arc.
func FindArcs(lines []Line) []Arc {
	terms := make([]map[string]bool, len(lines))
	for i, l := range lines {
		terms[i] = termSet(l.Text)
	}
	arc := map[int]Arc{} // by statement index
	over := func(i, by int, how string) {
		if _, done := arc[i]; !done {
			arc[i] = Arc{Kind: Overturned, Line: lines[i].N, By: lines[by].N, How: how}
		}
	}
	claim := func(l Line) bool {
		return !isQuestion(l.Text) && (claimCue.MatchString(l.Text) || hedged(l.Text))
	}
	for j, l := range lines {
		switch l.Role {
		case RoleUser:
			head := cutEnd(l.Text, 240)
			if !rejectCue.MatchString(head) {
				continue
			}
			marked, last := false, -1
			for i := j - 1; i >= 0 && lines[i].Role != RoleUser; i-- {
				if lines[i].Role != RoleAssistant || isQuestion(lines[i].Text) {
					continue
				}
				if last < 0 {
					last = i
				}
				if claim(lines[i]) {
					over(i, j, howRejected)
					marked = true
				}
			}
			if !marked && last >= 0 {
				over(last, j, howRejected) // what the turn ended saying
			}
		case RoleAssistant:
			if about, rest := cueText(l.Text, retractCue); about != "" {
				at, rt := termSet(about), termSet(rest)
				own := agreeCue.MatchString(about) // agreeing retracts the assistant's own claim
				best, bestN := -1, 1
				for i := j - 1; i >= 0; i-- {
					li := lines[i]
					if li.Role != RoleAssistant && (own || li.Role != RoleUser || !hedged(li.Text)) || !claim(li) {
						continue
					}
					n := overlap(at, terms[i])
					if 5*n >= 3*len(at) && denies(about) == denies(li.Text) {
						continue // says again what the line said: a restatement, not a retraction
					}
					if n > bestN && n > overlap(rt, terms[i]) {
						best, bestN = i, n
					}
				}
				if best >= 0 {
					over(best, j, howRetracted)
				}
			}
			if fixCue.MatchString(l.Text) {
				for k := j + 1; k < len(lines) && lines[k].Role != RoleAssistant && lines[k].Role != RoleUser; k++ {
					if lines[k].Role == RoleError {
						over(j, k, howRunFailed)
						break
					}
				}
			}
		}
	}
	for i, l := range lines {
		if _, done := arc[i]; done || (l.Role != RoleAssistant && l.Role != RoleUser) || !hedged(l.Text) {
			continue
		}
		about, _ := cueText(l.Text, hedgeSentence{})
		ht := termSet(about)
		a := Arc{Kind: Unconfirmed, Line: l.N}
		looked := false // a tool ran since the guess
		for k := i + 1; k < len(lines); k++ {
			lk := lines[k]
			if lk.Role != RoleAssistant && lk.Role != RoleUser {
				looked = true
				continue
			}
			if confirmCue.MatchString(lk.Text) && overlap(ht, terms[k]) >= 2 ||
				looked && lk.Role == l.Role && settles(about, lk.Text) {
				a = Arc{Kind: Confirmed, Line: l.N, By: lk.N}
				break
			}
		}
		arc[i] = a
	}
	out := make([]Arc, 0, len(arc))
	for i := range lines {
		if a, ok := arc[i]; ok {
			out = append(out, a)
		}
	}
	return out
}

// settles reports whether later says as found what the hypothesis
// sentences guess guessed: one of its sentences, neither hedged nor a
// question, holds at least three of a guess's terms and half of the fewer
// terms of the two, and denies only where the guess did. FindArcs asks it
// only after a tool ran ("I suspect the fields are KiB" … a check … "so
// the fields are KiB"): the session looked, and its speaker said what it
// found in the guess's own words.
func settles(guess, later string) bool {
	type said struct {
		terms  map[string]bool
		denies bool
	}
	var found []said // later's sentences that say something as so
	for _, x := range sentences(later) {
		if !hedged(x) && !isQuestion(x) {
			found = append(found, said{termSet(x), denies(x)})
		}
	}
	for _, g := range sentences(guess) {
		gt, gd := termSet(g), denies(g)
		for _, x := range found {
			if x.denies && !gd {
				continue
			}
			if n := overlap(gt, x.terms); n >= 3 && 2*n >= min(len(gt), len(x.terms)) {
				return true
			}
		}
	}
	return false
}

// hedged reports whether s states a hypothesis: a strong hedge, or a weak
// one in a sentence about a cause.
func hedged(s string) bool {
	if strongHedge.MatchString(s) {
		return true
	}
	for _, x := range sentences(s) {
		if weakHedge.MatchString(x) && causeWord.MatchString(x) {
			return true
		}
	}
	return false
}

// hedgeSentence matches the sentences hedged finds, for cueText.
type hedgeSentence struct{}

func (hedgeSentence) MatchString(s string) bool { return hedged(s) }

// arcNotes is what the digest writes after each line's role.
func arcNotes(arcs []Arc) map[int][]string {
	notes := map[int][]string{}
	for _, a := range arcs {
		switch a.Kind {
		case Overturned:
			notes[a.Line] = append(notes[a.Line], fmt.Sprintf("overturned by L%d: %s", a.By, a.How))
			notes[a.By] = append(notes[a.By], fmt.Sprintf("overturns L%d", a.Line))
		case Unconfirmed:
			notes[a.Line] = append(notes[a.Line], "hypothesis, never confirmed")
		case Confirmed:
			notes[a.Line] = append(notes[a.Line], fmt.Sprintf("hypothesis, confirmed by L%d", a.By))
			notes[a.By] = append(notes[a.By], fmt.Sprintf("confirms L%d", a.Line))
		}
	}
	return notes
}
