package capture

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/search"
)

// The guard drops a proposal whose claim the session's own later text
// contradicts, whatever the model made of the markers. It compares, sentence
// by sentence, what a proposal says with what the session overturned (the
// statement lines of Overturned arcs) or only suspected (Unconfirmed ones):
// a proposal sentence that shares at least guardShared content terms with
// such a sentence (claimTerms: a name counts once), covering half of the
// proposal sentence's terms and two fifths of the statement's, and says it
// with the same polarity (both negated or neither: "it is not X" keeps a
// refutation, "it is X" repeats the belief), restates it. A hypothesis
// restated with a hedge of its own ("suspected", "unconfirmed") is not
// stated as fact.
//
// A sentence of an overturned line that a later line says again, or of a
// hypothesis line that an earlier line said (its evidence), is not guarded:
// only what the session dropped or guessed is. The bars are set to catch a
// restatement, not a topic: a memory about the real cause usually shares a
// word or two with the wrong first guess (the same file, the same symptom)
// and must be kept.
//
// The model's own evidence is checked too. A proposal whose every cited line
// is such a statement rests on nothing the session kept. One that cites a
// hypothesis the session never confirmed rests on it, which the prompt
// forbids ("no rule, gotcha or procedure that rests on it"), unless it is a
// kept open question or the developer's own statement (a decision said in
// the same breath as a guess). An overturned line may be cited beside
// others: "it is not X" rests on the line that said X.
//
// A mark drops a proposal only where marks of its kind were measured
// precise (trustedMarks), and today none is: every mark is a note. Where
// the model's answer rests on, or restates, a line whose mark is of
// another kind, or a proposal of what the developer stated restates the
// assistant's summary of that statement (which a hedge of the assistant's
// own can mark a hypothesis), the answer and the mark disagree: the
// proposal is kept, and the disagreement is written into the commit as a
// Mem-Note (Proposal.Notes), not dropped silently.
const guardShared = 3

// trustedMarks are the kinds of mark (markKind) the guard drops a proposal
// on: those measured precise, at least nine in ten right, on the labelled
// arcs of the dev sessions and every long set together (TestTrustedMarks;
// testdata/dev-arcs.json, testdata/long*/labels.json). None is, so a mark
// is a note, never a veto: where the model's answer rests on a marked line
// the proposal is kept and the commit says so (Mem-Note). `go test
// ./internal/capture -run TestMarks -v` prints the measure; at 5093432,
// precision on the dev sessions and on the seven long sets:
//
//	kind         dev    long sets
//	overturned   2/2    1/8
//	unconfirmed  1/1    9/13
//	confirmed    1/1    5/11
//
// A rejection is marked on the assistant's last claim, and the developer
// often rejects an earlier one or the plan rather than the claim; a hedge
// marks its whole line, a summary that also restates what held among it.
// Confirmed marks drop nothing; they only lift the guard from a
// hypothesis. Before settles, one long session's unconfirmed mark was a
// guess the assistant then checked and said again as found, and it dropped
// a true memory.
var trustedMarks = map[string]bool{}

// negation finds a sentence that denies: the polarity the guard compares.
var negation = lazyregexp.New(`(?i)\b(not|no|never|none|nothing|neither|nor|without|isn'?t|wasn'?t|aren'?t|weren'?t|doesn'?t|didn'?t|don'?t|can'?t|cannot|couldn'?t|won'?t|ruled out|rather than|instead of|red herring|disproved|refuted|wrong)\b|n't\b`)

// modal finds a sentence that says a thing as possible, not as so: a
// hypothesis written that way is said as what it is.
var modal = lazyregexp.New(`(?i)\b(might|may|could|possibly|probably|likely|perhaps|presumably|suspect\w*)\b`)

// askCue finds a developer asking for something to be kept: the condition
// for storing an open question.
var askCue = lazyregexp.New(`(?i)\b(remember|note (this|that|it|down)|make a note|take a note|write (this|that|it) down|keep (this|that) in mind|save (this|that)|for next time|don'?t forget|memor(y|ize|ise)|jot)\b`)

type badStatement struct {
	arc       Arc
	role      string // the statement line's role
	sentences []sentence
	// restates is the developer's line before it that an assistant's
	// unconfirmed statement says again (a summary of their decision, with
	// a hedge of its own), else 0.
	restates int
}

type sentence struct {
	text    string
	terms   map[string]bool
	negated bool
}

type guard struct {
	bad   map[int]badStatement // by line number
	order []int
	asked bool // the developer asked for a note
}

func newGuard(s *Session) *guard {
	g := &guard{bad: map[int]badStatement{}}
	if s == nil {
		return g
	}
	byN := map[int]Line{}
	for _, l := range s.Lines {
		byN[l.N] = l
		if l.Role == RoleUser && askCue.MatchString(l.Text) {
			g.asked = true
		}
	}
	var said *spoken // made once, when a statement is first checked
	for _, a := range s.Arcs {
		if a.Kind != Overturned && a.Kind != Unconfirmed {
			continue
		}
		l, ok := byN[a.Line]
		if !ok {
			continue
		}
		// What was overturned is the line's claims (its sentences of cause,
		// diagnosis or fix), not its descriptions; what is unconfirmed, its
		// hypothesis.
		txt := l.Text
		if a.Kind == Unconfirmed {
			txt, _ = cueText(txt, hedgeSentence{})
		} else if c, _ := cueText(txt, claimSentence{}); c != "" {
			txt = c
		}
		var ss []sentence
		for _, x := range sentences(txt) {
			// The hedge ("I suspect", "not checked") is not the claim.
			if t := claimTerms(strongHedge.ReplaceAllString(x, "")); len(t) >= guardShared {
				ss = append(ss, sentence{text: x, terms: t, negated: denies(x)})
			}
		}
		// What the session said outside its dropped statements is not
		// dropped: an overturned line's sentence said again after the
		// refutation, and a hypothesis line's sentence said before it (the
		// evidence the guess was drawn from: "It adds 12 kB of JS", measured
		// two lines up, after "suspect, not proven: the accordion").
		lo, hi := a.By, math.MaxInt
		if a.Kind == Unconfirmed {
			lo, hi = 0, a.Line
		}
		if said == nil {
			said = spokenLines(s)
		}
		b := badStatement{arc: a, role: l.Role}
		if l.Role == RoleAssistant && a.Kind == Unconfirmed {
			// Only a hedge is the assistant's own: an overturned summary of
			// the developer's first lean was overturned with it.
			b.restates = restated(ss, a.Line, s.Lines)
		}
		b.sentences = slices.DeleteFunc(ss, func(x sentence) bool { return saidElsewhere(x, lo, hi, said) })
		g.bad[a.Line] = b
		g.order = append(g.order, a.Line)
	}
	return g
}

// claimSentence matches a sentence of claim or hypothesis, for cueText.
type claimSentence struct{}

func (claimSentence) MatchString(s string) bool { return claimCue.MatchString(s) || hedged(s) }

// spoken is the session's user and assistant lines that are no
// overturned or unconfirmed statement themselves, each cut into sentences
// with their terms and polarity when first compared: what saidElsewhere
// compares a statement with. A long session has thousands of lines and
// dozens of statements; each line is cut once, not once per statement.
type spoken struct {
	lines []Line
	cut   [][]sentence // by index into lines; nil until first compared
}

func spokenLines(s *Session) *spoken {
	bad := map[int]bool{}
	for _, a := range s.Arcs {
		if a.Kind != Confirmed {
			bad[a.Line] = true
		}
	}
	sp := &spoken{}
	for _, l := range s.Lines {
		if !bad[l.N] && (l.Role == RoleUser || l.Role == RoleAssistant) {
			sp.lines = append(sp.lines, l)
		}
	}
	sp.cut = make([][]sentence, len(sp.lines))
	return sp
}

func (sp *spoken) sentences(i int) []sentence {
	if sp.cut[i] == nil {
		ss := []sentence{}
		for _, y := range sentences(sp.lines[i].Text) {
			ss = append(ss, sentence{text: y, terms: claimTerms(y), negated: denies(y)})
		}
		sp.cut[i] = ss
	}
	return sp.cut[i]
}

// saidElsewhere reports whether a line of said between lines lo and hi
// (both excluded) says x again with x's polarity. Part of an overturned
// line often stood (the rejected turn's change was kept for another
// reason, its first sentence described the code correctly), and a
// hypothesis line repeats what was shown before it as its reason; only
// what the session dropped or guessed is guarded. A line that is itself an
// overturned or unconfirmed statement does not count (spokenLines leaves
// it out); nor does one of opposite polarity, which is the refutation.
func saidElsewhere(x sentence, lo, hi int, said *spoken) bool {
	for i, l := range said.lines {
		if l.N <= lo || l.N >= hi {
			continue
		}
		for _, y := range said.sentences(i) {
			if k := overlap(x.terms, y.terms); k >= 2 && 3*k >= len(x.terms) && y.negated == x.negated {
				return true
			}
		}
	}
	return false
}

// restated is the last developer line before line n that says one of ss
// again, with its polarity (as saidElsewhere compares), else 0: the
// statement the assistant's line n summarises.
func restated(ss []sentence, n int, lines []Line) int {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if l.N >= n || l.Role != RoleUser {
			continue
		}
		for _, y := range sentences(l.Text) {
			yt, yn := claimTerms(y), denies(y)
			for _, x := range ss {
				if k := overlap(x.terms, yt); k >= 2 && 3*k >= len(x.terms) && yn == x.negated {
					return l.N
				}
			}
		}
	}
	return 0
}

// denies reports the polarity of a sentence, its hedges aside ("not proven"
// qualifies a claim, it does not deny it).
func denies(s string) bool {
	return negation.MatchString(strongHedge.ReplaceAllString(s, ""))
}

// check returns p, labelled when it is a kept open question and with a
// note for each mark it was kept against, or the reason it is dropped.
func (g *guard) check(p Proposal) (Proposal, string) {
	p.Notes = nil
	note := func(why string) {
		if x := fmt.Sprintf("%q kept though %s", cutEnd(p.Name, 80), why); !slices.Contains(p.Notes, x) {
			p.Notes = append(p.Notes, x)
		}
	}
	// refutes reports whether the mark on line n drops p, noting why not
	// when the reason is the mark's and not p's.
	refutes := func(n int, reason string) bool {
		b := g.bad[n]
		switch {
		case p.Basis == BasisStated && b.restates > 0:
			note(fmt.Sprintf("L%d is marked a hypothesis never confirmed: it says again the developer's L%d, which the proposal states", n, b.restates))
			return false
		case !trustedMarks[markKind(b.arc)]:
			note(fmt.Sprintf("it %s: a mark of a kind not measured precise (%s)", reason, markKind(b.arc)))
			return false
		}
		return true
	}
	if len(p.Lines) > 0 && len(g.bad) > 0 {
		var bad []int
		for _, n := range p.Lines {
			if g.badBasis(n, p) {
				bad = append(bad, n)
			}
		}
		if len(bad) == len(p.Lines) {
			reason := fmt.Sprintf("rests only on %s, which the session %s", lineList(p.Lines), g.fate(p.Lines[0]))
			dropped := true
			for _, n := range bad {
				dropped = refutes(n, reason) && dropped
			}
			if dropped {
				return p, reason
			}
		}
		if p.Basis != BasisOpen {
			for _, n := range bad {
				if g.bad[n].arc.Kind != Unconfirmed {
					continue
				}
				if reason := fmt.Sprintf("rests on L%d, a hypothesis the session never confirmed", n); refutes(n, reason) {
					return p, reason
				}
			}
		}
	}
	if p.Basis == BasisOpen {
		if !g.asked {
			return p, "an open question, and the developer did not ask to keep one"
		}
		if !strings.HasPrefix(p.Name, OpenPrefix) {
			p.Name = OpenPrefix + p.Name
		}
		if !slices.Contains(p.Tags, "open-question") {
			p.Tags = append(p.Tags, "open-question")
		}
	}
	for _, part := range []string{p.Name, p.Description, p.Body, p.Why} {
		for _, x := range sentences(part) {
			st := claimTerms(x)
			if len(st) < guardShared {
				continue
			}
			neg, hedge := denies(x), strongHedge.MatchString(x) || modal.MatchString(x)
			for _, n := range g.order {
				b := g.bad[n]
				if b.arc.Kind == Unconfirmed && (hedge || p.Basis == BasisOpen) {
					continue // said as what it is: a suspicion
				}
				for _, bs := range b.sentences {
					k := overlap(st, bs.terms)
					if k >= guardShared && 2*k >= len(st) && 5*k >= 2*len(bs.terms) && neg == bs.negated {
						if reason := fmt.Sprintf("%q restates L%d, which the session %s", cutEnd(x, 120), n, g.fate(n)); refutes(n, reason) {
							return p, reason
						}
						break
					}
				}
			}
		}
	}
	return p, ""
}

// claimTerms is the content terms of text, as termSet, for comparing what
// two sentences claim: a name (a path, file name, dotted or hyphenated
// identifier) counts once, as itself, not also as the words the index splits
// it into. Two sentences about the same file share that file, one thing,
// not three (`tokenizer.css` is "tokenizer.css", "token" and "css" to the
// index), and "next.js" and "tokenizer.js" share nothing. A path counts as
// its file name, so "/tokenizer/tokenizer.css" and "tokenizer.css" agree.
func claimTerms(text string) map[string]bool {
	set := map[string]bool{}
	for _, chunk := range strings.Fields(strings.ToLower(text)) {
		toks := search.Tokens(chunk)
		name := ""
		for _, t := range toks {
			if strings.ContainsAny(t, nameSeps) {
				name = t // the last one: a path's file name
			}
		}
		if name != "" {
			set[name] = true
			continue
		}
		for _, t := range toks {
			set[t] = true
		}
	}
	return set
}

// nameSeps are the characters only a name's term holds (search.Tokens
// splits words at them and keeps the joined name as an entity term).
const nameSeps = "-_./:#@\\"

// badBasis reports whether line n, cited by p, is a statement the session
// overturned or never confirmed. The developer's own line is not, for a
// proposal of what they stated: a decision said in the same breath as a
// guess stands on the decision (what restates the guess is still caught
// sentence by sentence).
func (g *guard) badBasis(n int, p Proposal) bool {
	b, bad := g.bad[n]
	return bad && !(b.role == RoleUser && p.Basis == BasisStated)
}

// fate says what became of the statement on line n.
func (g *guard) fate(n int) string {
	b, ok := g.bad[n]
	switch {
	case !ok:
		return "kept"
	case b.arc.Kind == Overturned:
		return fmt.Sprintf("overturned (L%d: %s)", b.arc.By, b.arc.How)
	default:
		return "never confirmed"
	}
}

func lineList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("L%d", n)
	}
	return strings.Join(parts, ", ")
}
