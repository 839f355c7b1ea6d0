// Package capture proposes memories from a Claude Code session transcript:
// what was decided or learned in the session, and why — not what the code
// already says.
//
// The flow is Digest (the transcript condensed to one line per prompt,
// assistant text and tool call, the end kept when it is long), Prompt (the
// instructions around the digest), one model call through a model.Asker, then a
// deterministic check of every proposal (Propose). The model only fills the
// typed fields of Proposal; nothing it answers is written without passing
// that check, and nothing here writes a file: the caller stores what Propose
// keeps (and reports what it skipped, with the reason).
//
// # What Propose keeps
//
//   - name and body non-empty; class one of mdparse.Classes; body with its
//     why at most MaxBody bytes (a longer one is a summary of the session,
//     not a memory); importance 1-10, else 5; tags lower-case words joined
//     by "-", at most 8.
//   - not already in the store: the caller's Searcher is asked with the
//     proposal's name and description, and a best score of at least
//     HeldScore names the memory that holds it (see HeldScore for how the
//     bar was chosen).
//   - not a repeat of a proposal kept before it in the same answer: same
//     slug, or the same content words in name and description (Jaccard
//     >= 0.6) or body (>= 0.8).
//   - at most max, the more important first (ties in the model's order).
package capture

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mem-dev/mem/internal/model"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// Searcher is the caller's search over the store it will write to: the slug
// and normalised score (search.Result.Score) of the best memory for query,
// or "" and 0 when nothing is found.
type Searcher func(query string) (bestSlug string, score float64)

// Proposal is one memory the model proposes.
type Proposal struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Class       string   `json:"class"`
	Importance  int      `json:"importance"`
	Tags        []string `json:"tags"`
	Body        string   `json:"body"`
	Why         string   `json:"why"` // why it holds: the reason for the decision, the cause of the gotcha
}

// Skipped is a proposal Propose did not keep, and why.
type Skipped struct {
	Proposal Proposal `json:"proposal"`
	Reason   string   `json:"reason"`
}

const (
	// DefaultMax is how many memories a session yields at most when the
	// caller passes max <= 0.
	DefaultMax = 5
	// MaxBody is the longest body Propose keeps, in bytes, the why included.
	// The prompt asks for 1,200.
	MaxBody = 1500
	// DefaultImportance replaces an importance outside 1-10.
	DefaultImportance = 5

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
// restatements; the rest are left to the curator. (It was 0.75 until the
// search's coverage factor summed every prompt term, which raised close
// scores a little.) Stored memories stand in for proposals here; a model's
// wording will differ, so re-measure when real capture runs give labelled
// proposals.
const HeldScore = 0.80

// Propose digests the transcript, asks the model for at most max memories
// (max <= 0 means DefaultMax) and checks each one (see the package doc).
// find may be nil (an empty store). keep is in the order they should be
// written; skipped lists every other proposal with its reason. A transcript
// with nothing to show returns no proposals without asking the model.
// An error is returned only when the transcript cannot be read or the model
// cannot be asked; a bad answer from the model is a list of skips.
func Propose(ctx context.Context, a model.Asker, transcriptPath string, find Searcher, max int) (keep []Proposal, skipped []Skipped, err error) {
	if a == nil {
		return nil, nil, errors.New("capture: no model to ask")
	}
	digest, err := Digest(transcriptPath, DefaultDigestBytes)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(digest) == "" {
		return nil, nil, nil
	}
	var answer struct {
		Memories []Proposal `json:"memories"`
	}
	if err := a.Ask(ctx, Prompt(digest, max), &answer); err != nil {
		return nil, nil, fmt.Errorf("ask model for memories: %w", err)
	}
	keep, skipped = Check(answer.Memories, find, max)
	return keep, skipped, nil
}

// Check validates and cleans proposals, drops those the store already holds
// (find may be nil) and repeats within the list, and keeps at most max
// (max <= 0 means DefaultMax), the more important first. It is the
// deterministic half of Propose, for callers that obtained proposals
// otherwise.
func Check(proposals []Proposal, find Searcher, max int) (keep []Proposal, skipped []Skipped) {
	if max <= 0 {
		max = DefaultMax
	}
	valid := make([]Proposal, 0, len(proposals))
	for _, p := range proposals {
		c, reason := clean(p)
		if reason != "" {
			skipped = append(skipped, Skipped{Proposal: p, Reason: reason})
			continue
		}
		valid = append(valid, c)
	}
	slices.SortStableFunc(valid, func(a, b Proposal) int { return b.Importance - a.Importance })
	var kept []summary
	for _, p := range valid {
		if find != nil {
			if slug, score := find(heldQuery(p)); slug != "" && score >= HeldScore {
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
func clean(p Proposal) (Proposal, string) {
	p.Name = oneLine(p.Name, maxName)
	p.Description = oneLine(p.Description, maxDescription)
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
	if !slices.Contains(mdparse.Classes, p.Class) {
		return p, fmt.Sprintf("class %q is not one of %s", p.Class, strings.Join(mdparse.Classes, "|"))
	}
	if n := len(p.Text()); n > MaxBody {
		return p, fmt.Sprintf("body is %d bytes (limit %d): a summary, not a memory", n, MaxBody)
	}
	if p.Importance < 1 || p.Importance > 10 {
		p.Importance = DefaultImportance
	}
	p.Tags = cleanTags(p.Tags)
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
	inter := 0
	for t := range a {
		if b[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
