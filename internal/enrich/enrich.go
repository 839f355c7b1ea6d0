// Package enrich writes a memory's aliases: the words a person would really
// type when they need the memory ("I'm about to wreck prod" for a note
// titled "production deploy incident"). The index searches aliases as a
// field of their own, so a memory can be found through words it never uses.
//
// Aliases are paraphrases, never copies. Copying a memory's own terms into
// its aliases duplicates what the index already has, crowds out the
// paraphrases and made retrieval worse where it was measured (14/16 → 13/16
// on the seed's battery). So the model is asked for how people phrase the
// problem, and Filter, a deterministic guard, drops what it returns anyway
// that adds nothing.
//
// # Batches
//
// One model call (Plan, Prompt, Ask) writes the aliases of up to BatchSize
// memories that are alike, and shows beside them, by name and description,
// the store's memories most like them. Asked about a memory alone, a model
// writes the words of its topic, which every memory of that topic shares,
// and a search then finds the neighbours as often as the memory; shown the
// neighbours, it can write what tells them apart. A store of 240 memories
// takes 30 calls instead of 240. Batches depend only on the memories, so
// the same store sends the same prompts (a cassette replays them).
//
// # Filter's rules, in order
//
//   - whitespace collapsed, control characters and invalid UTF-8 dropped;
//     an alias left empty, or longer than MaxAliasLen runes, is dropped;
//   - an alias with no content words (search.Tokens of the lower-cased
//     alias: stopwords and conversational filler dropped, words stemmed) is
//     dropped: it cannot match anything;
//   - a copy is dropped: at least CopyPercent (80%) of its distinct content
//     words are already among the terms of the memory's name, description
//     and tags (taken as written and lower-cased). Below five words that
//     means all of them ("deploy broke" for "Production deploy incident" is
//     kept: "broke" is new; "deploying production" is not). The body does
//     not count: a word only the body uses is worth lifting into a field a
//     query weighs more;
//   - a repeat is dropped: the same content words, in any order, as an
//     alias kept before it;
//   - an alias the secret scan flags (package secrets) is dropped: aliases
//     are committed and shared like the rest of the file;
//   - at most MaxAliases are kept, in the model's order.
//
// # What the aliases were written for
//
// Three frontmatter keys (see record.go): aliases, which search reads, holds
// every alias; aliases_for is the Fingerprint of the name, description and
// body the model's aliases were written for, so that a memory edited since
// is enriched again (Needs); aliases_learned lists the aliases learned from
// use (Learn), which a rewrite keeps and ranks first. An alias in neither
// record was written by hand and is never rewritten.
package enrich

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

const (
	// MaxAliases is how many aliases a memory keeps at most.
	MaxAliases = 8
	// MaxAliasLen is the longest alias kept, in runes: a prompt fragment,
	// not a sentence.
	MaxAliasLen = 80
	// CopyPercent is the share of an alias's content words, in percent,
	// found in the memory's name, description and tags from which it
	// counts as a copy.
	CopyPercent = 80
)

// Reasons an alias is dropped, as Filter reports them.
const (
	ReasonEmpty     = "empty"
	ReasonTooLong   = "longer than 80 characters"
	ReasonNoWords   = "no content words"
	ReasonCopy      = "copies the memory's own terms"
	ReasonRepeat    = "repeats an alias already kept"
	ReasonOverLimit = "over the limit of 8"
	ReasonSecret    = "looks like a secret"
)

// Note is one memory as enrich sees it: its slug in the store and its parse.
type Note struct {
	Slug   string
	Memory *mdparse.Memory
}

// Batch is one model call: the memories to write aliases for, and the
// store's memories most like them, shown for contrast. A model that sees
// the neighbours can write aliases that find its memory and not theirs;
// alone, it writes the words of the topic, which every memory of that topic
// shares.
type Batch struct {
	Targets  []Note
	Contrast []Note
}

const (
	// BatchSize is how many memories one model call writes aliases for.
	BatchSize = 8
	// maxContrast is how many neighbours a batch shows.
	maxContrast = 6
	// bodyCap is how much of a body the prompt shows, in bytes.
	bodyCap = 1500
	// commonShare: a summary word in more than this share of a store's
	// memories says nothing about which of them are alike.
	commonShare = 0.5
)

// Plan groups the memories named by todo into batches of at most BatchSize,
// alike memories together, each with the neighbours from all (todo
// included) that are most like its memories. Memories are alike by the
// words of their name, description and tags, each weighed by how rare it
// is in the store (a weighted Jaccard); the grouping
// depends only on the memories, so the same store gives the same prompts.
func Plan(all []Note, todo []string) []Batch {
	terms := make(map[string][]string, len(all))
	byTerm := map[string][]string{}
	notes := make(map[string]Note, len(all))
	for _, n := range all {
		list := summaryTerms(n.Memory)
		terms[n.Slug], notes[n.Slug] = list, n
		for _, t := range list {
			byTerm[t] = append(byTerm[t], n.Slug)
		}
	}
	limit := max(2, int(commonShare*float64(len(all))))
	weight := func(t string) float64 { return math.Log(1 + float64(len(all))/float64(len(byTerm[t]))) }
	// neighbours lists the slugs that share a telling word with slug, most
	// alike first (ties by slug).
	neighbours := func(slug string) []string {
		score := map[string]float64{}
		for _, t := range terms[slug] {
			if len(byTerm[t]) > limit {
				continue
			}
			for _, o := range byTerm[t] {
				if o != slug {
					score[o] = 0
				}
			}
		}
		out := make([]string, 0, len(score))
		for o := range score {
			score[o] = jaccard(terms[slug], terms[o], weight)
			out = append(out, o)
		}
		slices.SortFunc(out, func(a, b string) int {
			if score[a] != score[b] {
				if score[a] > score[b] {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
		return out
	}
	pending := slices.Clone(todo)
	slices.Sort(pending)
	pending = slices.Compact(pending)
	left := map[string]bool{}
	for _, s := range pending {
		if _, ok := notes[s]; ok {
			left[s] = true
		}
	}
	var out []Batch
	for _, seed := range pending {
		if !left[seed] {
			continue
		}
		var b Batch
		in := map[string]bool{}
		// take moves the pending memories of slugs into the batch, in
		// order, until it is full.
		take := func(slugs []string) {
			for _, o := range slugs {
				if len(b.Targets) == BatchSize {
					return
				}
				if left[o] {
					b.Targets = append(b.Targets, notes[o])
					in[o] = true
					delete(left, o)
				}
			}
		}
		take([]string{seed})
		take(neighbours(seed))
		// Fill a batch with the next pending memories, in slug order: fewer
		// calls, and they contrast with each other too.
		take(pending)
		// Each target's nearest outsider, in turn, until maxContrast.
		lists := make([][]string, len(b.Targets))
		for i, t := range b.Targets {
			lists[i] = neighbours(t.Slug)
		}
		for round := 0; len(b.Contrast) < maxContrast; round++ {
			added := false
			for i := range lists {
				for len(lists[i]) > 0 && in[lists[i][0]] {
					lists[i] = lists[i][1:]
				}
				if len(lists[i]) == 0 || len(b.Contrast) == maxContrast {
					continue
				}
				o := lists[i][0]
				b.Contrast = append(b.Contrast, notes[o])
				in[o], added = true, true
			}
			if !added {
				break
			}
		}
		out = append(out, b)
	}
	return out
}

// summaryTerms lists the distinct terms of m's name, description and tags, sorted.
func summaryTerms(m *mdparse.Memory) []string {
	return distinct(search.Tokens(strings.ToLower(m.Name + "\n" + m.Description + "\n" + strings.Join(m.Tags, "\n"))))
}

// jaccard is the weighted Jaccard similarity of two sorted term lists.
// Terms are summed in order, so that equal lists always give equal floats.
func jaccard(a, b []string, weight func(string) float64) float64 {
	var both, either float64
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			either += weight(a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			either += weight(b[j])
			j++
		default:
			w := weight(a[i])
			both += w
			either += w
			i++
			j++
		}
	}
	if either == 0 {
		return 0
	}
	return both / either
}

// Prompt returns the instructions for one model call: each target memory
// (slug, name, description, class, tags, the start of its body), the
// neighbours' names and descriptions, and a request for 5-8 aliases per
// target as a person would type them in a prompt, as JSON
// {"aliases":{"<slug>":[...]}}.
func Prompt(b Batch) string {
	var w strings.Builder
	w.WriteString(`A team keeps short notes ("memories") for its AI coding agent. On every message a developer types to the agent, a keyword search looks for a note that matches the message, and shows the note only when the message shares enough words with it. The developer does not know which notes exist. Your job: for each note below, write the messages a developer would really type at the moment they need that note, so that the search finds it.

Notes to write aliases for:
`)
	for i, n := range b.Targets {
		m := n.Memory
		fmt.Fprintf(&w, "\n[%d] slug: %s\nname: %s\n", i+1, n.Slug, text.OneLine(m.Name))
		if d := text.OneLine(m.Description); d != "" {
			fmt.Fprintf(&w, "description: %s\n", d)
		}
		if c := m.EffectiveClass(); c != "" {
			fmt.Fprintf(&w, "class: %s\n", c)
		}
		if len(m.Tags) > 0 {
			fmt.Fprintf(&w, "tags: %s\n", strings.Join(m.Tags, ", "))
		}
		body := text.Clip(strings.TrimSpace(strings.ToValidUTF8(string(m.Body), "")), bodyCap)
		fmt.Fprintf(&w, "body:\n<<<\n%s\n>>>\n", body)
	}
	if len(b.Contrast) > 0 {
		w.WriteString("\nOther notes in the same store, the ones most like those above (write nothing for these; they are here so that your aliases do not fit them):\n")
		for _, n := range b.Contrast {
			fmt.Fprintf(&w, "- %s: %s", n.Slug, text.OneLine(n.Memory.Name))
			if d := text.OneLine(n.Memory.Description); d != "" {
				fmt.Fprintf(&w, " — %s", d)
			}
			w.WriteString("\n")
		}
	}
	w.WriteString(`
For each note to write aliases for, write 5 to 8 aliases: short phrases (3 to 10 words, under 80 characters), each as a developer would type it in a chat message to the agent. Mix:
- the task they are about to start that the note should warn them about ("about to run the migration on prod");
- symptoms and error messages they would see or paste ("uploads over 10mb time out with a 504");
- questions they would ask ("why is the checkout total a cent off?").
Use the words developers really use for the thing: the project's own names for services, files, commands and tools where a developer would name them, and everyday words for the rest, as real messages mix them. Describe the situation, not the note's solution.

Each alias must fit its own note better than any other note listed here: avoid phrases that would match the other notes too, and words so general that they fit any note ("fix", "broken", "issue", "help") unless a specific word comes with them. An alias that only repeats the note's name, description or tags adds nothing (the search already has them) and will be discarded. Each alias must say something different from the others. Do not copy sentences from the body. No quotes around the whole phrase, no numbering.

Answer with JSON only, no prose and no code fence: one entry per note to write aliases for, keyed by its slug:
{"aliases":{"<slug>":["...","..."]}}
`)
	return w.String()
}

// Result is what enrich wrote for one memory: the aliases kept, and those
// dropped with why (see Filter).
type Result struct {
	Kept    []string
	Dropped map[string]string
}

// answer is the shape of an enrich answer, {"aliases":{"<slug>":[...]}};
// asked holds the targets of the call, which Validate checks it against.
type answer struct {
	Aliases map[string][]string `json:"aliases"`
	asked   []Note
}

// Validate refuses an answer with no alias for any memory the call asked
// about ({}, {"aliases":{}}, or aliases only for a neighbour): that is a
// model that did not answer, and taking it for "no aliases" would erase the
// aliases of every memory in the batch.
func (a *answer) Validate() error {
	for _, n := range a.asked {
		if wrote(a.Aliases[n.Slug]) {
			return nil
		}
	}
	return fmt.Errorf("the answer has no aliases for %s", slugs(a.asked))
}

// wrote reports whether aliases holds one that is not blank.
func wrote(aliases []string) bool {
	return slices.ContainsFunc(aliases, func(a string) bool { return strings.TrimSpace(a) != "" })
}

// Ask asks the model for the aliases of b's targets and filters each
// memory's answer (see Filter). A target the model wrote no alias for gets
// no Result, so that the caller leaves it as it is, and what it wrote for a
// slug it was not asked about (a neighbour's, say) is not used. An error
// means the model could not be asked, or gave no answer in the right shape
// with an alias for at least one target (after the runner's retry).
func Ask(ctx context.Context, a modelcmd.Asker, b Batch) (map[string]Result, error) {
	if a == nil {
		return nil, errors.New("enrich: no model to ask")
	}
	if len(b.Targets) == 0 {
		return nil, errors.New("enrich: no memory")
	}
	for _, n := range b.Targets {
		if n.Memory == nil {
			return nil, errors.New("enrich: no memory")
		}
	}
	ans := answer{asked: b.Targets}
	if err := a.Ask(ctx, Prompt(b), &ans); err != nil {
		return nil, fmt.Errorf("ask model for aliases of %s: %w", slugs(b.Targets), err)
	}
	out := make(map[string]Result, len(b.Targets))
	for _, n := range b.Targets {
		if !wrote(ans.Aliases[n.Slug]) {
			continue
		}
		kept, dropped := Filter(n.Memory, ans.Aliases[n.Slug])
		out[n.Slug] = Result{Kept: kept, Dropped: dropped}
	}
	return out, nil
}

func slugs(notes []Note) string {
	s := make([]string, len(notes))
	for i, n := range notes {
		s[i] = n.Slug
	}
	return strings.Join(s, ", ")
}

// Filter keeps the aliases that add words to the memory (see the package
// doc for the rules). dropped maps each alias dropped, as given, to its
// reason (one of the Reason constants). kept holds the aliases cleaned
// (whitespace collapsed), never an empty one, at most MaxAliases. m may be
// nil: nothing is then a copy.
func Filter(m *mdparse.Memory, aliases []string) (kept []string, dropped map[string]string) {
	dropped = map[string]string{}
	// Terms are compared case-folded: the tokenizer splits "ULIDs" and
	// "TestScheduler_NextRun" at their capitals but not "ULIDS" or
	// "testscheduler_nextrun", and case says nothing a search would use.
	// The memory's terms are taken both ways, the alias's lower-cased.
	own := map[string]bool{}
	if m != nil {
		summary := m.Name + "\n" + m.Description + "\n" + strings.Join(m.Tags, "\n")
		for _, t := range append(search.Tokens(summary), search.Tokens(strings.ToLower(summary))...) {
			own[t] = true
		}
	}
	var seen []string // the sorted content words of each alias kept
	for _, raw := range aliases {
		a := text.OneLine(raw)
		if a == "" {
			dropped[raw] = ReasonEmpty
			continue
		}
		if utf8.RuneCountInString(a) > MaxAliasLen {
			dropped[raw] = ReasonTooLong
			continue
		}
		terms := distinct(search.Tokens(strings.ToLower(a)))
		if len(terms) == 0 {
			dropped[raw] = ReasonNoWords
			continue
		}
		if isCopy(terms, own) {
			dropped[raw] = ReasonCopy
			continue
		}
		key := strings.Join(terms, " ")
		if slices.Contains(seen, key) {
			dropped[raw] = ReasonRepeat
			continue
		}
		if secrets.Check("alias", a) != nil {
			dropped[raw] = ReasonSecret
			continue
		}
		if len(kept) == MaxAliases {
			dropped[raw] = ReasonOverLimit
			continue
		}
		seen = append(seen, key)
		kept = append(kept, a)
	}
	return kept, dropped
}

// isCopy reports whether at least CopyPercent of terms are among own.
func isCopy(terms []string, own map[string]bool) bool {
	n := 0
	for _, t := range terms {
		if own[t] {
			n++
		}
	}
	return n*100 >= CopyPercent*len(terms)
}

// distinct returns the terms sorted, each once.
func distinct(terms []string) []string {
	slices.Sort(terms)
	return slices.Compact(terms)
}
