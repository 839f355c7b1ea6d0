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
//   - at most MaxAliases are kept, in the model's order.
package enrich

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/model"
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

	// bodyCap is how much of the body the prompt shows, in bytes.
	bodyCap = 2500
)

// Reasons an alias is dropped, as Filter reports them.
const (
	ReasonEmpty     = "empty"
	ReasonTooLong   = "longer than 80 characters"
	ReasonNoWords   = "no content words"
	ReasonCopy      = "copies the memory's own terms"
	ReasonRepeat    = "repeats an alias already kept"
	ReasonOverLimit = "over the limit of 8"
)

// Prompt returns the instructions for one enrichment call: the memory
// (slug, name, description, class, tags, the start of its body) and a
// request for 5-8 aliases as a person would type them in a prompt, as JSON
// {"aliases":[...]}.
func Prompt(m *mdparse.Memory, slug string) string {
	var b strings.Builder
	b.WriteString(`A team keeps short notes ("memories") for its AI coding agent. A search runs on every message a developer types to the agent and shows a note only when the message matches it. Your job: write the words a developer would really type at the moment they need this note, when they do not yet know the note exists.

The note:
`)
	fmt.Fprintf(&b, "slug: %s\nname: %s\n", slug, text.OneLine(m.Name))
	if d := text.OneLine(m.Description); d != "" {
		fmt.Fprintf(&b, "description: %s\n", d)
	}
	if c := m.EffectiveClass(); c != "" {
		fmt.Fprintf(&b, "class: %s\n", c)
	}
	if len(m.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(m.Tags, ", "))
	}
	body := text.Clip(strings.TrimSpace(strings.ToValidUTF8(string(m.Body), "")), bodyCap)
	fmt.Fprintf(&b, "body:\n<<<\n%s\n>>>\n", body)
	b.WriteString(`
Write 5 to 8 aliases: short phrases (3 to 10 words, under 80 characters) as a developer would type them in a chat message to the agent, in their own casual words. Mix:
- questions they would ask ("why is the checkout total a cent off?");
- symptoms and error messages they would see or paste ("login keeps redirecting in a loop");
- the task they are about to start that this note should warn them about ("about to run the migration on prod");
- casual or slang phrasings, abbreviations they would use ("prod", "db", "pr").
Describe the problem or the situation, not the note's solution.

Paraphrase: use words that are NOT in the note's name, description or tags above. An alias made of the note's own words adds nothing (the search already has them) and will be discarded. Each alias must say something different from the others. Do not copy sentences from the body. No quotes around the whole phrase, no numbering.

Answer with JSON only, no prose and no code fence:
{"aliases":["...","..."]}
`)
	return b.String()
}

// Aliases asks the model for aliases of the memory m (named slug in the
// store) and filters the answer (see Filter). kept may be empty: the model
// found nothing that passes. An error is returned only when the model
// cannot be asked or answers in the wrong shape.
func Aliases(ctx context.Context, a model.Asker, m *mdparse.Memory, slug string) (kept []string, dropped map[string]string, err error) {
	if a == nil {
		return nil, nil, errors.New("enrich: no model to ask")
	}
	if m == nil {
		return nil, nil, errors.New("enrich: no memory")
	}
	var answer struct {
		Aliases []string `json:"aliases"`
	}
	if err := a.Ask(ctx, Prompt(m, slug), &answer); err != nil {
		return nil, nil, fmt.Errorf("ask model for aliases of %s: %w", slug, err)
	}
	kept, dropped = Filter(m, answer.Aliases)
	return kept, dropped, nil
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
