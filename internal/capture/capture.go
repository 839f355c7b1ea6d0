// Package capture proposes memories from a Claude Code session transcript:
// what the session decided or learned and ended up believing, and why — not
// what the code already says, not what the session tried and dropped.
//
// The flow is ReadSession (the transcript as numbered lines, secrets masked
// before anything else reads them), FindArcs (a deterministic pass that marks
// each statement the session later overturned, and each hypothesis it never
// confirmed), Session.Digest (the lines a model reads, with those marks, and
// only what is new since the last capture of the session plus some context),
// Prompt (the instructions around the digest and the store's related
// memories), one model call through a modelcmd.Asker, then Check, a
// deterministic check of every proposal. The model only fills the typed
// fields of Proposal; nothing it answers is written without passing Check,
// and nothing here writes a file: the caller stores what Propose keeps (and
// reports what it skipped, with the reason).
//
// # What Check keeps
//
//   - name and body non-empty; class one of class.Names; body with its
//     why at most MaxBody bytes (a longer one is a summary of the session,
//     not a memory); importance 1-10, else 5; tags lower-case words joined
//     by "-", at most 8.
//   - nothing that looks like a secret (secrets.Check), though the digest
//     was masked: the model may still assemble one.
//   - nothing the session overturned (see guard.go): not a proposal that
//     rests only on lines FindArcs marked overturned or unconfirmed, nor one
//     that cites a hypothesis the session never confirmed, nor one with a
//     sentence that restates such a line with the same polarity.
//     A mark vetoes only where marks of its kind were measured precise,
//     and not a statement of the developer's against the assistant's
//     summary of it; a proposal kept against a mark says so in its Notes.
//   - a hypothesis (basis "open") only when the developer asked for a note
//     in the session, and then labelled an open question.
//   - not already in the store: the caller's Searcher is asked with the
//     proposal's name and description, and a best score of at least
//     HeldScore names the memory that holds it (see HeldScore for how the
//     bar was chosen), unless that is the memory the proposal updates.
//   - not a repeat of a proposal kept before it in the same answer: same
//     slug, or the same content words in name and description (Jaccard
//     >= 0.6) or body (>= 0.8).
//   - at most max, the more important first (ties in the model's order).
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Searcher is the caller's search over the store it will write to: the slug
// and normalised score (search.Result.Score) of the best memory for query,
// or "" and 0 when nothing is found.
type Searcher func(query string) (bestSlug string, score float64)

// Held is a memory the store holds that the prompt shows the model, so that
// it proposes what is new and updates what the session showed out of date.
type Held struct {
	Slug, Name, Description, Class string
	// Earlier marks a memory written from this session by an earlier capture
	// (PreCompact, then SessionEnd): what the new part may have overturned.
	Earlier bool
}

// Bases of a proposal: how the session knows it.
const (
	BasisShown  = "shown"  // a run, test, output or measurement in the session showed it
	BasisStated = "stated" // the developer stated it: a decision, rule, preference, or a fact they know
	BasisOpen   = "open"   // a hypothesis or open question nobody confirmed
)

// Proposal is one memory the model proposes.
type Proposal struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Class       string   `json:"class"`
	Importance  int      `json:"importance"`
	Tags        []string `json:"tags"`
	Body        string   `json:"body"`
	Why         string   `json:"why"`   // why it holds: the reason for the decision, the cause of the gotcha
	Basis       string   `json:"basis"` // BasisShown, BasisStated or BasisOpen; "" reads as shown
	Lines       LineRefs `json:"lines"` // the digest lines it rests on
	// Updates is the slug of a held memory this one replaces, because the
	// session showed it wrong or out of date; the body is then the whole
	// corrected memory.
	Updates string `json:"updates"`
	// Notes are what Check kept the proposal against: a mark on a line it
	// rests on or restates that the guard does not take as the last word
	// (see guard.go). The caller writes them into its commit.
	Notes []string `json:"-"`
}

// LineRefs are digest line numbers, read from numbers or from strings such
// as "L12", "12" or a range "L12-L14" (models write all of them). An entry
// that names no line is dropped: the references only narrow what the guard
// checks, and a model's odd notation must not cost the whole answer.
type LineRefs []int

// UnmarshalJSON reads [12, "L13", "14-15"]; null is no references.
func (r *LineRefs) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("lines: %w", err)
	}
	out := make(LineRefs, 0, len(raw))
	for _, x := range raw {
		var n float64
		if json.Unmarshal(x, &n) == nil {
			if n >= 1 && n <= maxLineRef {
				out = append(out, int(n))
			}
			continue
		}
		var s string
		if json.Unmarshal(x, &s) != nil {
			continue
		}
		from, to, isRange := strings.Cut(s, "-")
		lo, hi := lineNumber(from), lineNumber(to)
		if !isRange {
			hi = lo
		}
		if lo < 1 || hi < lo || hi-lo > 1000 {
			continue
		}
		for i := lo; i <= hi; i++ {
			out = append(out, i)
		}
	}
	*r = out
	return nil
}

const maxLineRef = 1 << 20

// lineNumber reads "L12" or "12"; 0 for anything else.
func lineNumber(s string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "L"))
	if err != nil || n < 1 || n > maxLineRef {
		return 0
	}
	return n
}

// Skipped is a proposal Check did not keep, and why.
type Skipped struct {
	Proposal Proposal `json:"proposal"`
	Reason   string   `json:"reason"`
	// Refused is set when the proposal itself was at fault: invalid, a
	// secret, or a claim the session overturned or never confirmed (the
	// guard). A proposal passed over because the store or the same answer
	// already holds it, or over the limit, is skipped, not refused.
	Refused bool `json:"refused,omitempty"`
}

const (
	// DefaultMax is how many memories a session yields at most when the
	// caller passes max <= 0.
	DefaultMax = 5
	// MaxBody is the longest body Check keeps, in bytes, the why included.
	// The prompt asks for 1,200.
	MaxBody = 1500
	// DefaultImportance replaces an importance outside 1-10.
	DefaultImportance = 5
	// OpenPrefix opens the name of a memory kept as an open question.
	OpenPrefix = "Open question: "

	maxName        = 100
	maxDescription = 250
	maxTags        = 8
	maxTag         = 40
)

// HeldScore is the search score at or above which a proposal counts as
// already held by the store (the best result's memory), and is skipped.
//
// It is about three times the prompt hook's threshold (search.DefaultThreshold,
// 0.23), because the question differs: the hook asks "is anything worth
// showing?", this asks "is this the same knowledge?", and the costs are
// lopsided: a duplicate let through is found later by the curator (shingle
// similarity, then the model pass), while a memory skipped wrongly is lost.
// Measured on ../shared/eval/store (240 memories, labels in
// store-labels.json) by leaving each memory out of the index and searching
// for its name and description as a proposal's (TestHeldScoreOnEvalStore):
//
//	bar    distinct memories  reworded     near         updates of a    related, not
//	       skipped (wrongly)  duplicates   duplicates   stale fact      the same
//	                          caught       caught       skipped         skipped
//	0.46   54/190 (28%)       12/12        16/16        6/10            9/12
//	0.60   17/190  (9%)       12/12        11/16        4/10            3/12
//	0.70    8/190  (4%)       10/12         9/16        2/10            3/12
//	0.75    7/190  (4%)        9/12         6/16        1/10            0/12
//	0.80    2/190  (1%)        8/12         6/16        1/10            0/12
//
// In a store about one project even a distinct memory has close neighbours,
// so twice the hook threshold (0.46) would drop a quarter of what is new,
// and most updates to a stale fact (the most valuable capture: the curator
// can only supersede what was written) look like the fact they replace.
// 0.80 drops 1% of what is new and still catches two thirds of the plain
// restatements; the rest are left to the curator, and to the model, which
// now sees the related memories the store holds (Held) before it proposes.
// Stored memories stand in for proposals here; a model's wording will
// differ, so re-measure when real capture runs give labelled proposals.
const HeldScore = 0.80

// Input is what one capture call works from.
type Input struct {
	Session *Session
	Held    []Held   // related memories to show the model (RelatedQueries finds them)
	Find    Searcher // nil: an empty store
	Max     int      // <= 0: DefaultMax
}

// Propose asks the model for at most in.Max memories from what is new in
// the session and checks each one (Check). A session with nothing new
// returns no proposals without asking the model. An error is returned when
// the model cannot be asked or gives no answer (an empty or malformed one,
// after the runner's retry); a proposal that fails Check is a skip.
func Propose(ctx context.Context, a modelcmd.Asker, in Input) (keep []Proposal, skipped []Skipped, err error) {
	if a == nil {
		return nil, nil, errors.New("capture: no model to ask")
	}
	if in.Session == nil || !in.Session.New() {
		return nil, nil, nil
	}
	digest := in.Session.Digest(DefaultDigestBytes)
	if strings.TrimSpace(digest) == "" {
		return nil, nil, nil
	}
	var answer answer
	if err := a.Ask(ctx, Prompt(digest, in.Held, in.Max), &answer); err != nil {
		return nil, nil, fmt.Errorf("ask model for memories: %w", err)
	}
	keep, skipped = Check(answer.Memories, in)
	return keep, skipped, nil
}

// answer is the shape of a capture answer: {"memories":[...]}, and
// {"memories":[]} when the session taught nothing durable.
type answer struct {
	Memories []Proposal `json:"memories"`
}

// Validate refuses an answer without its memories list ({}, or "memories":
// null): that is a model that did not answer, not one that found nothing,
// and taking it for "nothing to store" would mark the session captured.
func (a *answer) Validate() error {
	if a.Memories == nil {
		return errors.New(`the answer has no "memories" list (an empty list says there is nothing to store)`)
	}
	return nil
}

// Check validates and cleans proposals, drops what the session overturned
// or never confirmed (when in.Session is set), secrets, what the store
// already holds (in.Find may be nil) and repeats within the list, and keeps
// at most in.Max, the more important first. It is the deterministic half of
// Propose, for callers that obtained proposals otherwise.
func Check(proposals []Proposal, in Input) (keep []Proposal, skipped []Skipped) {
	max := in.Max
	if max <= 0 {
		max = DefaultMax
	}
	g := newGuard(in.Session)
	valid := make([]Proposal, 0, len(proposals))
	for _, p := range proposals {
		c, reason := clean(p, in.Held)
		if reason == "" {
			c, reason = g.check(c)
		}
		if reason != "" {
			skipped = append(skipped, Skipped{Proposal: p, Reason: reason, Refused: true})
			continue
		}
		valid = append(valid, c)
	}
	slices.SortStableFunc(valid, func(a, b Proposal) int { return b.Importance - a.Importance })
	var kept []summary
	for _, p := range valid {
		if in.Find != nil {
			if slug, score := in.Find(heldQuery(p)); slug != "" && slug != p.Updates && score >= HeldScore {
				skipped = append(skipped, Skipped{Proposal: p, Reason: fmt.Sprintf("store already holds %s (score %.2f)", slug, score)})
				continue
			}
		}
		s := summarize(p)
		if i := slices.IndexFunc(kept, s.repeats); i >= 0 {
			skipped = append(skipped, Skipped{Proposal: p, Reason: "repeats " + kept[i].slug})
			continue
		}
		if len(keep) == max {
			skipped = append(skipped, Skipped{Proposal: p, Reason: fmt.Sprintf("over the limit of %d a session", max)})
			continue
		}
		kept = append(kept, s)
		keep = append(keep, p)
	}
	return keep, skipped
}

// heldQuery is what the Searcher is asked: the proposal's summary, the
// fields a memory is about (and those HeldScore was measured with).
func heldQuery(p Proposal) string { return p.Name + ". " + p.Description }

// Text is the memory's body as it should be written: the body, then the why
// as a "**Why:**" paragraph unless the body already says it.
func (p Proposal) Text() string {
	body := strings.TrimSpace(p.Body)
	why := strings.TrimSpace(p.Why)
	if why == "" || strings.Contains(body, why) || strings.Contains(strings.ToLower(body), "**why:**") {
		return body
	}
	return body + "\n\n**Why:** " + why
}

// clean returns the proposal normalised, or the reason it cannot be kept.
func clean(p Proposal, held []Held) (Proposal, string) {
	p.Name = oneLine(p.Name, maxName)
	// Whole clauses: a description cut mid-clause can read as the opposite
	// of what it says ("… is not the cause" cut to "… i…").
	p.Description = text.ClipClauses(text.OneLine(p.Description), maxDescription)
	p.Body = strings.TrimSpace(strings.ToValidUTF8(p.Body, ""))
	p.Why = strings.TrimSpace(strings.ToValidUTF8(p.Why, ""))
	switch {
	case p.Name == "":
		return p, "no name"
	case p.Body == "":
		return p, "empty body"
	}
	if strings.IndexFunc(p.Name, isWordRune) < 0 {
		return p, fmt.Sprintf("name %q has no words", p.Name)
	}
	p.Class = strings.ToLower(strings.TrimSpace(p.Class))
	if !class.Valid(p.Class) {
		return p, fmt.Sprintf("class %q is not one of %s", p.Class, strings.Join(class.Names, "|"))
	}
	p.Basis = strings.ToLower(strings.TrimSpace(p.Basis))
	switch p.Basis {
	case "":
		p.Basis = BasisShown
	case BasisShown, BasisStated, BasisOpen:
	default:
		return p, fmt.Sprintf("basis %q is not one of shown|stated|open", p.Basis)
	}
	if n := len(p.Text()); n > MaxBody {
		return p, fmt.Sprintf("body is %d bytes (limit %d): a summary, not a memory", n, MaxBody)
	}
	if p.Importance < 1 || p.Importance > 10 {
		p.Importance = DefaultImportance
	}
	p.Tags = cleanTags(p.Tags)
	// An update may only name a memory the prompt showed; any other slug is
	// the model's invention, and the proposal is then a new memory.
	p.Updates = strings.TrimSpace(p.Updates)
	if p.Updates != "" && !slices.ContainsFunc(held, func(h Held) bool { return h.Slug == p.Updates }) {
		p.Updates = ""
	}
	for _, f := range []struct{ field, text string }{
		{"name", p.Name}, {"description", p.Description}, {"tags", strings.Join(p.Tags, " ")}, {"body", p.Text()},
	} {
		if err := secrets.Check(f.field, f.text); err != nil {
			return p, err.Error()
		}
	}
	return p, ""
}

// cleanTags lower-cases tags, joins their words with "-", drops empty,
// over-long and repeated ones, and keeps at most maxTags.
func cleanTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		t = strings.Trim(strings.Join(strings.FieldsFunc(strings.ToLower(t), notTagRune), "-"), "-")
		if t == "" || len(t) > maxTag || slices.Contains(out, t) {
			continue
		}
		out = append(out, t)
		if len(out) == maxTags {
			break
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// notTagRune splits a tag into words: anything but letters, digits and the
// punctuation of identifiers and paths.
func notTagRune(r rune) bool { return !isWordRune(r) && !strings.ContainsRune("._/", r) }

// summary is what the repeat check compares.
type summary struct {
	slug        string
	terms, body map[string]bool
}

func summarize(p Proposal) summary {
	return summary{
		slug:  mdparse.Slugify(p.Name),
		terms: termSet(p.Name + " " + p.Description),
		body:  termSet(p.Body),
	}
}

// repeats reports whether a proposal summarised as o says what s says.
func (s summary) repeats(o summary) bool {
	return s.slug == o.slug || jaccard(s.terms, o.terms) >= 0.6 || jaccard(s.body, o.body) >= 0.8
}

// termSet is the content terms of text (search.Tokens: lower-cased,
// stemmed, stopwords dropped), as a set.
func termSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, t := range search.Tokens(strings.ToLower(text)) {
		set[t] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := overlap(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}
