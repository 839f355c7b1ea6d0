package search

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/class"
)

// Options of a search.
type Options struct {
	Limit     int       // results at most; 0 means 3
	Now       time.Time // for recency decay; zero means time.Now()
	Threshold float64   // minimum score of the best result; 0 means DefaultThreshold
	All       bool      // ignore the threshold (debugging)
	// Signals, when set, receives what the decision to speak reads
	// (Signals), and the search answers as if it had decided to speak:
	// what a measurement of the decision needs.
	Signals *Signals
}

// Result is one memory found, with what a renderer needs.
type Result struct {
	Slug, Path, Store string
	Name, Class       string
	Modified          time.Time
	Line              int
	Score             float64  // normalised: comparable across queries, see DefaultThreshold
	Labels            []string // "superseded by X", "unverified: <reason>"
	Snippet           string   // one or two lines of text: see snippet
}

// Where names where a memory found is, as a person reads it: its path, and
// for a section of a MEMORY.md the line the section starts at.
func Where(path string, line int) string {
	if line > 0 {
		return path + ":" + strconv.Itoa(line)
	}
	return path
}

// DefaultThreshold is the score the best result must reach for a search to
// return anything. It was calibrated once, on the whole development battery.
const DefaultThreshold = 0.23

// params are the ranking constants. They are a variable so that the tests can
// measure alternatives; nothing changes them at run time.
type params struct {
	threshold  float64
	k1         float64
	weight, b  [numFields]float64
	topTerms   int     // the query's best possible score counts this many of its best terms
	evidence   float64 // added to the best possible score, in units of the largest idf: short queries need more
	importance float64 // score multiplier per importance point above or below 5
	halfLife   float64 // days, for classes that decay
	decayFloor float64 // what fully decayed memories keep
	superseded float64 // multiplier for superseded memories
	relative   float64 // results after the first must reach this share of its score
	relative3  float64 // results after the second must reach this share of the first's score
	closeCall  float64 // a second within this share of the first goes first when it is the more important
	restate    float64 // a second within this share of the first goes first when the prompt restates one of its aliases (see settle)
	restateBy  float64 // how much larger a share of one of its aliases the prompt must restate than of the other memory's best
	restateMin int     // the fewest words of an alias a prompt restates for it to put its memory first
	aloneMin   int     // the fewest words of an alias a prompt restates for its memory to be shown alone
	previous   float64 // query weight of terms from the previous turn
	expand     float64 // query weight of thesaurus expansions, relative to the term expanded
	join       float64 // query weight of two prompt words joined into one the store has
	cover      float64 // share of a document's score that depends on how much of the prompt's idf mass its name, description and tags cover
	alone      float64 // what an alias counts for a word when the alias holds no other word of the prompt, as a share of a full match
	longAfter  int     // a prompt with more terms than this is long: a paste or a brief, not a question
	longShare  float64 // share of the mass of a long prompt's terms after its longAfter best that the best possible score counts
	unseen     float64 // share of the largest idf that each prompt word the store never uses adds to the best possible score, in a store of no memories
	smallStore float64 // the store size at which unseen stops counting; it fades linearly before
}

var defaults = params{
	threshold:  DefaultThreshold,
	k1:         1.6,
	weight:     [numFields]float64{3, 2, 2.5, 2, 1},
	b:          [numFields]float64{0.3, 0.5, 0.3, 0.2, 0.75},
	topTerms:   3,
	evidence:   1.6,
	importance: 0.03,
	halfLife:   150,
	decayFloor: 0.7,
	superseded: 0.5,
	relative:   0.7,
	relative3:  0.9,
	closeCall:  0.9,
	restate:    0.8,
	restateBy:  0.2,
	restateMin: 3,
	aloneMin:   2,
	previous:   weightPrevious,
	expand:     0.7,
	join:       0.7,
	cover:      0.1,
	alone:      0.5,
	longAfter:  12,
	longShare:  0.2,
	unseen:     0.1,
	smallStore: 400,
}

// MaxInjected is how many memories one prompt receives from the prompt
// hook. A third, shown only when it scored within a tenth of the first,
// was noise far more often than not: without it no battery loses a hit in
// the top two, and precision rises on the dev store (0.54 to 0.57 enriched)
// and the real stores but one, where a right third is lost (TUNING.md).
const MaxInjected = 2

type scored struct {
	doc   int
	score float64
}

// Search ranks the memories for q. It returns nothing unless the best result
// reaches the threshold: silence is better than noise.
func (ix *Index) Search(q Query, opt Options) []Result {
	return ix.search(q, opt, &defaults)
}

// minCorpus is the smallest corpus idf assumes: a new store of five
// memories cannot tell a rare word from a common one, so it is treated as
// if a background of empty documents made it this large. Without it every
// idf in a small store is nearly flat, normalised scores shrink, and the
// one threshold would silence small stores entirely.
const minCorpus = 100

func (ix *Index) idf(df int) float64 {
	n := max(float64(ix.nDocs), minCorpus)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

type termStat struct {
	qterm
	entry int
	idf   float64
	// post is the term's postings, verified once for the whole search
	// (withPostings): phrases and contributions both read them.
	post []byte
}

// withPostings fills in each term's verified postings and drops a term
// whose postings are damaged (the index is then marked corrupt).
func (ix *Index) withPostings(stats []termStat) []termStat {
	out := stats[:0]
	for _, st := range stats {
		var ok bool
		if st.post, ok = ix.postings(st.entry); ok {
			out = append(out, st)
		}
	}
	return out
}

func (ix *Index) search(q Query, opt Options, p *params) []Result {
	if ix.nDocs == 0 || q.Empty() {
		return nil
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = 3
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	threshold := opt.Threshold
	if threshold == 0 {
		threshold = p.threshold
	}
	if q.asks != asksProject {
		threshold *= asksBar
	}

	// Look the terms up; a term the store never uses matches nothing, but in
	// a small store it is evidence (see unseen below).
	maxIDF := ix.idf(0)
	stats, unseenMass := ix.termStats(q, p)
	if len(stats) == 0 {
		return nil
	}

	// Scores accumulate in float32: at 10,000 memories each array a search
	// writes is pages the hook faults in, and ranking needs no more digits.
	scores := make([]float32, ix.nDocs)
	cov := make([]float32, ix.nDocs)
	touched := make([]bool, ix.nDocs)
	// The prompt's words, for what reads aliases (phrases, settle).
	var words [][]int
	if ix.avgLen[fieldAliases] > 0 {
		words = promptWords(stats)
	}
	phrases := ix.phrases(stats, words, p)
	ix.accumulate(stats, phrases, scores, cov, touched, p)
	// The previous turn refines, never creates: a memory that none of the
	// prompt's own words (or their synonyms) reach gets nothing from it.
	// A memory is about what its name, description and tags say, and is
	// found by what its aliases say: one that the prompt meets in neither
	// (a word of its summary, two words of one alias) is not a candidate,
	// however its body matches. A section of a MEMORY.md, which has no
	// description, is judged by its body.
	for doc, ok := range touched {
		if !ok || cov[doc] == 0 && ix.hasSummary(doc) && (phrases == nil || phrases[doc] == 0) {
			scores[doc] = 0
		}
	}
	ix.applyCoverage(stats, scores, cov, p)

	// The query's best possible score: the mass of its best terms, and a
	// share of the mass of a long prompt's own terms beyond its longAfter
	// best (the more words a prompt has, the more a memory meets by chance).
	// In a small store, the prompt's words it never uses count too: its idf
	// cannot tell a generic word ("tests", "action") from a topical one, so
	// a prompt that meets one memory through one word, among many the store
	// does not know, is likely about something else. In a large store idf
	// already knows, and this fades out. Only prose words count: a pasted
	// log's ids and times are words no store uses.
	type termMass struct {
		mass float64
		own  bool // the prompt's own term, not the previous turn's
	}
	masses := make([]termMass, 0, len(stats))
	for _, st := range stats {
		if !st.expansion { // a synonym stands in for a word; it raises no bar
			masses = append(masses, termMass{st.weight * st.idf, st.prompt})
		}
	}
	slices.SortFunc(masses, func(a, b termMass) int { return cmpDesc(a.mass, b.mass) })
	best := p.evidence * maxIDF
	if small := 1 - float64(ix.nDocs)/p.smallStore; small > 0 {
		best += p.unseen * small * unseenMass * maxIDF
	}
	own := 0
	for i, m := range masses {
		if i < p.topTerms {
			best += m.mass
		}
		if m.own {
			if own >= p.longAfter {
				best += p.longShare * m.mass
			}
			own++
		}
	}

	top := ix.rank(scores, best, now, limit, p)
	if len(top) == 0 {
		return nil
	}

	if opt.Signals != nil {
		*opt.Signals = ix.signals(top, stats, scores, cov, phrases, unseenMass)
	} else if !opt.All && top[0].score < threshold {
		return nil
	}
	// What is shown is cut from the best score, whatever settle puts first.
	bestScore := top[0].score
	if len(top) > 1 {
		top = ix.settle(top, stats, words, p, !opt.All)
	}
	var out []Result
	hl := newHighlighter(stats)
	for _, s := range top {
		if len(out) >= limit {
			break
		}
		if !opt.All && len(out) > 0 && s.score < p.relative*bestScore {
			break
		}
		if !opt.All && len(out) > 1 && s.score < p.relative3*bestScore {
			break
		}
		d, ok := ix.doc(s.doc)
		if !ok {
			continue
		}
		r := result(d, s.score)
		r.Snippet = hl.snippet(d)
		out = append(out, r)
	}
	return out
}

// settle decides what the scores cannot: the order of the first two
// results when they are close, and whether the second is shown at all.
//
// An alias is what a person types when they need its memory, and a prompt
// that says one again (a share of its words p.restateBy above what it says
// of the other memory's aliases) asks for that memory more surely than a
// sum of scattered matches. Within p.restate of the first's score, the
// memory restated in p.restateMin words or more goes first; and whenever
// the second would be shown, it is not when the first is restated in
// p.aloneMin words or more (two, a phrase, as an alias counts) and the
// second is not as much: two memories shown where one answers is noise. A
// memory without aliases (not enriched yet, a section of a MEMORY.md) is
// not judged by them. Failing that, within p.closeCall, the memory its
// writer rated the more important goes first. The second is kept whatever
// the aliases say unless trim is set.
func (ix *Index) settle(top []scored, stats []termStat, words [][]int, p *params, trim bool) []scored {
	a, b := top[0], top[1]
	if b.score < p.relative*a.score {
		return top // not shown, nor close
	}
	ra, rb, ok := ix.restatements(a.doc, b.doc, stats, words, p)
	if !ok {
		return ix.moreImportantFirst(top, p)
	}
	if p.restate > 0 && b.score >= p.restate*a.score {
		switch {
		case rb.order >= ra.order+p.restateBy:
			top[0], top[1] = b, a
			ra, rb = rb, ra
		case ra.order >= rb.order+p.restateBy:
		default:
			if top = ix.moreImportantFirst(top, p); top[0] != a {
				ra, rb = rb, ra
			}
		}
	}
	if trim && ra.alone > 0 && ra.alone >= rb.alone+p.restateBy {
		return top[:1]
	}
	return top
}

// moreImportantFirst puts the second result first when it is within
// p.closeCall of the first and its writer rated it the more important.
func (ix *Index) moreImportantFirst(top []scored, p *params) []scored {
	if a, b := top[0], top[1]; p.closeCall > 0 && b.score >= p.closeCall*a.score &&
		ix.norm(b.doc).importance > ix.norm(a.doc).importance {
		top[0], top[1] = b, a
	}
	return top
}

// restatement is how much of one of a memory's aliases a prompt says again:
// the largest share of an alias's words among those it restates in
// p.restateMin words or more (order), and in p.aloneMin or more (alone).
type restatement struct{ order, alone float64 }

// restatements measures how the prompt restates the aliases of documents a
// and b; ok is false when either has none (not enriched yet, a section of
// a MEMORY.md), which is no evidence either way. A word counts once with
// its synonyms and an identifier once with its parts, as in phrases; the
// eighth and later aliases share one bit (see Build) and are not judged.
func (ix *Index) restatements(a, b int, stats []termStat, words [][]int, p *params) (ra, rb restatement, ok bool) {
	aa, bb := ix.aliasesOf(a), ix.aliasesOf(b)
	if len(aa) == 0 || len(bb) == 0 {
		return ra, rb, false
	}
	// The words of the prompt that each alias holds, from the postings'
	// alias bits.
	var ma, mb [8]int
	for _, terms := range words {
		var bitsA, bitsB uint8
		for _, i := range terms {
			ix.eachPosting(stats[i].post, func(doc int, tf *[numFields]uint8) {
				switch doc {
				case a:
					bitsA |= tf[fieldAliases]
				case b:
					bitsB |= tf[fieldAliases]
				}
			})
		}
		for k := range 8 {
			ma[k] += int(bitsA >> k & 1)
			mb[k] += int(bitsB >> k & 1)
		}
	}
	return restatementOf(aa, ma, p), restatementOf(bb, mb, p), true
}

// restatementOf is the restatement of aliases whose words the prompt meets
// met times each.
func restatementOf(aliases []string, met [8]int, p *params) restatement {
	var r restatement
	var buf []byte
	for i, a := range aliases[:min(len(aliases), 8)] {
		if i == 7 && len(aliases) > 8 || met[i] < min(p.restateMin, p.aloneMin) {
			continue
		}
		n := words(a, &buf)
		if n == 0 {
			continue
		}
		share := float64(min(met[i], n)) / float64(n)
		if met[i] >= p.restateMin {
			r.order = max(r.order, share)
		}
		if met[i] >= p.aloneMin {
			r.alone = max(r.alone, share)
		}
	}
	return r
}

// termStats looks up the query's terms, with their thesaurus expansions
// and the joined words the store has, and keeps the weightiest (capTerms)
// whose postings are sound. unseenMass is the weight of the prose words the
// store never uses: in a small store it is evidence (see search).
func (ix *Index) termStats(q Query, p *params) (stats []termStat, unseenMass float64) {
	terms := q.terms
	if p.expand > 0 {
		terms = expand(terms, p.expand)
	}
	stats = make([]termStat, 0, len(terms))
	for _, t := range terms {
		if !t.prompt {
			t.weight *= p.previous / weightPrevious
		}
		if e := ix.lookup(t.term); e >= 0 {
			stats = append(stats, termStat{qterm: t, entry: e, idf: ix.idf(ix.docFreq(e))})
		} else if t.written() && !t.entity {
			unseenMass += t.weight
		}
	}
	// Words the prompt spells apart and the store joined add to the
	// memories that have the joined word, beside what the two words score
	// apart; like a synonym, a joined word does not raise the best possible
	// score, so the bar for the others stays where it was.
	for _, j := range q.joins {
		if e := ix.lookup(j); e >= 0 && !slices.ContainsFunc(stats, func(st termStat) bool { return st.term == j }) {
			stats = append(stats, termStat{qterm: qterm{term: j, weight: p.join, prompt: true, expansion: true}, entry: e, idf: ix.idf(ix.docFreq(e))})
		}
	}
	if len(stats) == 0 {
		return nil, unseenMass
	}
	stats = ix.withPostings(capTerms(stats))
	pathGroups(stats)
	return stats, unseenMass
}

// pathGroup is the first group number of a path (pathGroups), above any
// the thesaurus gives.
const pathGroup = 1 << 24

// pathGroups makes each path the prompt names one group: the path, its file
// name, the words split from it and their synonyms
// ("src/features/intake/ReviewScreen.tsx": src, featur, intak, review,
// screen). A prompt that names a file names one thing, and its directories'
// words summed matched any memory about a file under them: "fix the typo in
// booking-svc/src/main/resources/messages.properties" found the rule on
// migrations under src/main/resources. An identifier that is not a path
// ("atlas-api") is a name whose words are what it is about, and stays
// apart. See accumulate for what a group scores.
func pathGroups(stats []termStat) {
	ids := map[string]int{}
	for i := range stats {
		st := &stats[i]
		path := st.whole
		if path == "" && st.entity {
			path = st.term
		}
		if !st.prompt || !strings.ContainsAny(path, "/\\") {
			continue
		}
		id, ok := ids[path]
		if !ok {
			id = pathGroup + len(ids)
			ids[path] = id
		}
		if synonyms := st.group; synonyms > 0 && synonyms < pathGroup {
			for j := range stats {
				if stats[j].group == synonyms {
					stats[j].group = id
				}
			}
		}
		st.group = id
	}
}

// maxPrevious is how many terms of the previous turn a query keeps: its
// weightiest. A long assistant turn would otherwise outweigh a short prompt.
const maxPrevious = 12

// maxPrompt is how many of the prompt's own terms (with their synonyms) a
// query keeps: its weightiest.
const maxPrompt = 32

// capTerms keeps the maxPrompt weightiest terms of the prompt (weight ×
// idf: the most a term can add to a score) and the maxPrevious weightiest
// terms that only the previous turn contributed. A long prompt's commonest
// words add time on every posting list and no evidence. By idf alone, a
// pasted log's rare ids and times, weighed down by capPaste, would push the
// prose's words out.
func capTerms(stats []termStat) []termStat {
	// The prompt's terms, then the previous turn's, in one slice.
	out := make([]termStat, 0, len(stats))
	for _, st := range stats {
		if st.prompt {
			out = append(out, st)
		}
	}
	own := len(out)
	for _, st := range stats {
		if !st.prompt {
			out = append(out, st)
		}
	}
	weightiest := func(ts []termStat, n int) []termStat {
		if len(ts) > n {
			slices.SortStableFunc(ts, func(a, b termStat) int { return cmpDesc(a.weight*a.idf, b.weight*b.idf) })
			ts = ts[:n]
		}
		return ts
	}
	// The previous turn's kept terms move down over the prompt's dropped ones.
	return append(weightiest(out[:own], maxPrompt), weightiest(out[own:], maxPrevious)...)
}

// accumulate adds each term's BM25F contribution to scores, and to cov
// the idf mass of the prompt's terms that a document's summary fields
// (name, description, tags) contain. phrases says which aliases of each
// document are met in two words or more (see phrases). A term and its thesaurus expansions form a group:
// a document gets the best of the group's contributions, not their sum, so
// a synonym stands in for a word and never counts as extra evidence. So
// does a path (pathGroups), unless two of its own terms are in the
// document's summary: then the path names what the memory is about
// ("components/ui/Select.tsx" and "UI components need stories"), as two
// words of an alias make a phrase, and its terms add up. Groups
// are gathered one at a time in one scratch array, reset through the list
// of documents they reached: a store of 10,000 memories would otherwise
// allocate and page in a score array per group on every prompt.
func (ix *Index) accumulate(stats []termStat, phrases []uint8, scores, cov []float32, touched []bool, p *params) {
	var order []int
	var members map[int][]int
	for i, st := range stats {
		if st.group > 0 {
			if members == nil {
				members = map[int][]int{}
			}
			if members[st.group] == nil {
				order = append(order, st.group)
			}
			members[st.group] = append(members[st.group], i)
			continue
		}
		ix.contributions(st, phrases, touched, p, func(doc int, s float64, summary bool) {
			scores[doc] += float32(s)
			if summary && st.prompt {
				cov[doc] += float32(st.weight * st.idf)
			}
		})
	}
	if len(order) == 0 {
		return
	}
	best := make([]float32, ix.nDocs)
	bestCov := make([]float32, ix.nDocs)
	reached := make([]int32, 0, ix.nDocs) // a large buffer's untouched pages cost nothing
	var sum []float32                     // a path's own terms' contributions, summed
	var inSummary []uint8                 // how many of them are in the summary
	if slices.ContainsFunc(order, func(g int) bool { return g >= pathGroup }) {
		sum, inSummary = make([]float32, ix.nDocs), make([]uint8, ix.nDocs)
	}
	for _, g := range order {
		path := g >= pathGroup
		for _, i := range members[g] {
			st := stats[i]
			ix.contributions(st, phrases, touched, p, func(doc int, s float64, summary bool) {
				if best[doc] == 0 {
					reached = append(reached, int32(doc))
				}
				best[doc] = max(best[doc], float32(s))
				if summary && st.prompt {
					bestCov[doc] = max(bestCov[doc], float32(st.weight*st.idf))
				}
				if path && !st.expansion {
					sum[doc] += float32(s)
					if summary {
						inSummary[doc]++
					}
				}
			})
		}
		for _, doc := range reached {
			if path && inSummary[doc] >= 2 {
				best[doc] = max(best[doc], sum[doc])
			}
			scores[doc] += best[doc]
			best[doc] = 0
			cov[doc] += bestCov[doc]
			bestCov[doc] = 0
			if path {
				sum[doc], inSummary[doc] = 0, 0
			}
		}
		reached = reached[:0]
	}
}

// contributions calls fn with the BM25F contribution of one query term to
// each document it occurs in, and whether it occurs in the document's
// summary (name, description or tags). It marks the documents that a term
// of the prompt itself reaches. An alias that holds the term counts fully
// when phrases says it meets another of the prompt's words, and p.alone of
// that otherwise: one shared word of a phrase is weak evidence, and a rare
// one ("actual", "touch") would outweigh the memory the prompt is about.
func (ix *Index) contributions(st termStat, phrases []uint8, touched []bool, p *params, fn func(doc int, s float64, summary bool)) {
	w := st.weight * st.idf
	ix.eachPosting(st.post, func(doc int, tf *[numFields]uint8) {
		if st.prompt {
			touched[doc] = true
		}
		n := ix.normAt(doc)
		var t float64
		for f := range numFields {
			if tf[f] == 0 {
				continue
			}
			l := float64(uint16(n[2*f]) | uint16(n[2*f+1])<<8)
			c := float64(tf[f])
			if f == fieldAliases {
				c = float64(bits.OnesCount8(tf[f]))
				if phrases != nil {
					met := bits.OnesCount8(tf[f] & phrases[doc])
					c = float64(met) + p.alone*(c-float64(met))
				}
			}
			t += p.weight[f] * c / (1 - p.b[f] + p.b[f]*l/ix.avgLen[f])
		}
		fn(doc, w*t/(p.k1+t), tf[fieldName] > 0 || tf[fieldDesc] > 0 || tf[fieldTags] > 0)
	})
}

// applyCoverage scales each document's score by the share of the prompt's
// idf mass that its name, description and tags cover: a memory is about
// what its summary says, and a prompt whose rare words only meet a
// memory's body or aliases is less likely to be about it. Aliases are left
// out: they are written to match prompts, so they say what a memory is
// found by, not what it is about.
func (ix *Index) applyCoverage(stats []termStat, scores, cov []float32, p *params) {
	var den float64
	for _, st := range stats {
		if st.prompt && !st.expansion {
			den += st.weight * st.idf
		}
	}
	if den == 0 {
		return
	}
	for doc, s := range scores {
		if s > 0 {
			scores[doc] = float32(float64(s) * (1 - p.cover + p.cover*min(1, float64(cov[doc])/den)))
		}
	}
}

// rank normalises raw scores by the query's best possible score, applies
// the importance, recency and supersession multipliers, and returns the k
// best, best first. It keeps a small sorted array rather than sorting every
// candidate: at 10,000 memories a common word matches thousands.
func (ix *Index) rank(scores []float32, best float64, now time.Time, k int, p *params) []scored {
	top := make([]scored, 0, k+1)
	nowDays := float64(now.Unix()) / 86400
	maxMult := 1 + p.importance*5
	for doc, s32 := range scores {
		if s32 <= 0 {
			continue
		}
		s := float64(s32) / best
		if len(top) == k && s*maxMult <= top[k-1].score {
			continue
		}
		nm := ix.norm(doc)
		m := 1 + p.importance*float64(nm.importance-5)
		if class.Decays(nm.class) && nm.modDays > 0 {
			age := max(0, nowDays-float64(nm.modDays))
			m *= p.decayFloor + (1-p.decayFloor)*math.Exp2(-age/p.halfLife)
		}
		if nm.superseded {
			m *= p.superseded
		}
		s *= m
		if len(top) == k && s <= top[k-1].score {
			continue
		}
		// Insert in order; ties keep index order.
		i := len(top)
		for i > 0 && top[i-1].score < s {
			i--
		}
		top = slices.Insert(top, i, scored{doc, s})
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func result(d Doc, score float64) Result {
	r := Result{
		Slug: d.Slug, Path: d.Path, Store: d.Store, Name: d.Name, Class: d.Class,
		Modified: d.Modified, Line: d.Line, Score: score,
	}
	if d.SupersededBy != "" {
		r.Labels = append(r.Labels, "superseded by "+d.SupersededBy)
	}
	for _, u := range d.Unverified {
		r.Labels = append(r.Labels, "unverified: "+u)
	}
	if d.Broken != "" {
		r.Labels = append(r.Labels, "broken: "+d.Broken)
	}
	return r
}

// phrases returns, for each document, the aliases (as bits, see Build) that
// hold two or more of the prompt's own words; nil when aliases count fully
// anyway or the store has none. A word counts once with its synonyms, and
// an identifier once with its parts: "atlas-web" typed once is one word,
// though it meets an alias in "atlas-web", "atlas" and "web".
func (ix *Index) phrases(stats []termStat, words [][]int, p *params) []uint8 {
	if p.alone == 1 || words == nil {
		return nil
	}
	once := make([]uint8, ix.nDocs)  // aliases that hold one word so far
	twice := make([]uint8, ix.nDocs) // aliases that hold two
	word := make([]uint8, ix.nDocs)  // one word's aliases, per document, while it is gathered
	var reached []int32
	fold := func(doc int, m uint8) {
		twice[doc] |= once[doc] & m
		once[doc] |= m
	}
	for _, terms := range words {
		for _, i := range terms {
			ix.eachPosting(stats[i].post, func(doc int, tf *[numFields]uint8) {
				if a := tf[fieldAliases]; a != 0 {
					if word[doc] == 0 {
						reached = append(reached, int32(doc))
					}
					word[doc] |= a
				}
			})
		}
		for _, doc := range reached {
			fold(int(doc), word[doc])
			word[doc] = 0
		}
		reached = reached[:0]
	}
	return twice
}

// promptWords groups the terms (indexes in stats) of each word of the
// prompt itself, in order: a word with its synonyms, an identifier with its
// parts (typedWord).
func promptWords(stats []termStat) [][]int {
	typed := make([]string, len(stats))
	for i := range stats {
		typed[i] = typedWord(stats, i)
	}
	done := make([]bool, len(stats))
	terms := make([]int, 0, len(stats)) // every word's, one after another
	words := make([][]int, 0, len(stats))
	for i := range stats {
		if !stats[i].prompt || done[i] {
			continue
		}
		start := len(terms)
		for j := i; j < len(stats); j++ {
			if !done[j] && stats[j].prompt && typed[j] == typed[i] {
				done[j] = true
				terms = append(terms, j)
			}
		}
		words = append(words, terms[start:len(terms):len(terms)])
	}
	return words
}

// typedWord names the word of the prompt that stats[i] stands for: the
// identifier it was split from, or the typed word a synonym stands in for
// (the synonyms' group, when the store lacks the word itself).
func typedWord(stats []termStat, i int) string {
	st := stats[i]
	if st.expansion && st.group > 0 {
		j := slices.IndexFunc(stats, func(o termStat) bool { return o.group == st.group && !o.expansion })
		if j < 0 {
			return "\x00" + strconv.Itoa(st.group) // no term has a NUL
		}
		st = stats[j]
	}
	if st.whole != "" {
		return st.whole
	}
	return st.term
}

// hasSummary reports whether document doc has a description: a memory
// does, a section of a MEMORY.md (its heading for a name) does not.
func (ix *Index) hasSummary(doc int) bool {
	n := ix.normAt(doc)
	return uint16(n[2*fieldDesc])|uint16(n[2*fieldDesc+1])<<8 > 0
}
