// Package learn finds aliases in how memories are used. The words a person
// typed are the best alias there is: when the prompt hook stayed silent on
// a prompt (or injected other memories) and the agent then, in the same
// turn, found a memory itself, the prompt's topic words are what someone
// types when they need that memory, and the search did not know it.
//
// It runs offline (`mem learn`, started by the Stop hook when the agent
// looked a memory up), never on the prompt path, and reads two things: the
// session's transcript, and the prompt hook's decision log
// (<git-common-dir>/mem/injections.jsonl, package hooks).
//
// # A turn
//
// A turn is a prompt the person typed and what the agent did until the next
// one (subagents' work included). The agent found a memory when it ran
// `mem show SLUG` or `mem search …` through Bash, called MCP memory_show or
// context_query, or read a memory file; a search finds its first result
// (slugs are read from its output, in order). The decision for the prompt
// is the log's line of the same session whose query is the prompt's own
// (search.ParseQuery), written within decisionSkew of the prompt; a turn
// without one is passed over, since then nobody knows what the hook did.
//
// # A candidate
//
// A memory found in a turn whose decision did not inject it makes a
// Candidate: the prompt's topic words (Phrase) for that memory. It is Used
// when the agent went on with the memory in the same turn: it opened a
// memory a search had found (show or read), or its text named the memory
// (slug or name). A candidate is promoted, by the caller, when it was used,
// or when the same words (the same content terms, in any order) found the
// same memory in another session too (Book.Ready). A prompt whose topic
// words look like a secret is never kept.
//
// # State
//
// <git-common-dir>/mem/learn/book.json (Book): where each transcript was
// read up to, and every candidate with its status. It is mem's own state,
// never committed; losing it forgets candidates and nothing else.
package learn

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/internal/lazyregexp"
	"github.com/mem-dev/mem/internal/memuse"
	"github.com/mem-dev/mem/internal/secrets"
	"github.com/mem-dev/mem/internal/transcript"
	"github.com/mem-dev/mem/search"
)

// Ways the agent found a memory.
const (
	BySearch = "search" // mem search, context_query: its first result
	ByShow   = "show"   // mem show, memory_show
	ByRead   = "read"   // a Read of the memory file
)

// What the prompt hook did with a candidate's prompt.
const (
	HookSilent = "silent" // it injected nothing
	HookOther  = "other"  // it injected other memories
)

// decisionSkew is how far apart in time a prompt and its decision may be:
// the hook logs before Claude Code writes the prompt, on the same clock.
const decisionSkew = 2 * time.Minute

// Memories is what learning knows of the store: its memories, by slug with
// their names and the terms of their name, description and tags, and the
// directories whose .md files are memories.
type Memories struct {
	Names map[string]string          // slug → name
	Terms map[string]map[string]bool // slug → terms of its name, description and tags (SummaryTerms)
	Dirs  []string                   // absolute
}

// SummaryTerms are the search terms of a memory's name, description and
// tags, lower-cased, as Memories.Terms holds them.
func SummaryTerms(name, description string, tags []string) map[string]bool {
	out := map[string]bool{}
	for _, t := range search.Tokens(strings.ToLower(name + "\n" + description + "\n" + strings.Join(tags, "\n"))) {
		out[t] = true
	}
	return out
}

// Lookup is one memory the agent found in a turn.
type Lookup struct {
	Slug string
	How  string // BySearch, ByShow or ByRead
	Used bool   // it went on with it (see the package doc)
}

// Turn is a prompt and what the agent found after it.
type Turn struct {
	Session  string
	PromptID string // the prompt entry's uuid
	Prompt   string
	Time     time.Time
	Offset   int64    // of the prompt's line in the transcript
	Found    []Lookup // each memory once, in the order first found
}

// Read reads the turns of a transcript from offset (a prompt's line, or 0)
// and returns the offset to read from next time: the start of the last
// turn, which may not be over yet and is read again then, or the end when
// no turn began.
func Read(path string, offset int64, mems Memories) ([]Turn, int64, error) {
	tr := &turnReader{mems: mems, pending: map[string]string{}}
	end, err := transcript.ReadFrom(path, offset, tr.entry)
	if errors.Is(err, transcript.ErrStaleOffset) {
		// The transcript shrank or was replaced: read it whole.
		tr = &turnReader{mems: mems, pending: map[string]string{}}
		end, err = transcript.ReadFrom(path, 0, tr.entry)
	}
	if err != nil {
		return nil, offset, err
	}
	tr.close()
	resume := end
	if len(tr.turns) > 0 {
		resume = tr.turns[len(tr.turns)-1].Offset
	}
	return tr.turns, resume, nil
}

// turnReader gathers turns from transcript entries.
type turnReader struct {
	mems    Memories
	turns   []Turn
	cur     *turnState
	pending map[string]string // tool_use id → BySearch, awaiting its result
}

type turnState struct {
	Turn
	searched map[string]bool // slugs a search returned
	opened   map[string]int  // slug → times shown or read
	at       map[string]int  // slug → index in Found
}

func (r *turnReader) entry(e transcript.Entry) error {
	switch {
	case e.Type == "user" && e.Prompt != "" && !e.IsSidechain:
		r.close()
		r.cur = &turnState{Turn: Turn{Session: e.SessionID, PromptID: e.UUID, Prompt: e.Prompt, Time: e.Timestamp, Offset: e.Offset},
			searched: map[string]bool{}, opened: map[string]int{}, at: map[string]int{}}
	case r.cur == nil:
	case e.Type == "assistant":
		for _, t := range e.Text {
			r.said(t)
		}
		for _, u := range e.ToolUses {
			r.toolUse(u)
		}
	case e.Type == "user":
		for _, res := range e.ToolResults {
			if how, ok := r.pending[res.ToolUseID]; ok && !res.IsError {
				delete(r.pending, res.ToolUseID)
				if slugs := r.slugsIn(res.Text()); len(slugs) > 0 {
					r.found(slugs[0], how)
					for _, s := range slugs {
						r.cur.searched[s] = true
					}
				}
			}
		}
	}
	return nil
}

func (r *turnReader) toolUse(u transcript.ToolUse) {
	for _, use := range memuse.Of(u) {
		switch use.Kind {
		case memuse.Searched:
			r.pending[u.ID] = BySearch
		case memuse.Shown:
			for _, slug := range use.Slugs {
				if r.known(slug) {
					r.opened(slug, ByShow)
				}
			}
		case memuse.Read:
			if slug, ok := r.fileSlug(use.Path); ok {
				r.opened(slug, ByRead)
			}
		}
	}
}

// opened records a show or a read: a memory a search found and the agent
// then opened is one it went on to use.
func (r *turnReader) opened(slug, how string) {
	r.cur.opened[slug]++
	r.found(slug, how)
	if r.cur.searched[slug] || r.cur.opened[slug] > 1 {
		r.use(slug)
	}
}

func (r *turnReader) found(slug, how string) {
	if _, ok := r.cur.at[slug]; ok {
		return
	}
	r.cur.at[slug] = len(r.cur.Found)
	r.cur.Found = append(r.cur.Found, Lookup{Slug: slug, How: how})
}

func (r *turnReader) use(slug string) {
	if i, ok := r.cur.at[slug]; ok {
		r.cur.Found[i].Used = true
	}
}

// said marks the memories found so far that the agent's text names.
func (r *turnReader) said(text string) {
	if r.cur == nil || len(r.cur.Found) == 0 {
		return
	}
	lower := strings.ToLower(text)
	for _, f := range r.cur.Found {
		name := strings.ToLower(r.mems.Names[f.Slug])
		if strings.Contains(lower, f.Slug) || name != "" && strings.Contains(lower, name) {
			r.use(f.Slug)
		}
	}
}

func (r *turnReader) close() {
	if r.cur != nil {
		r.turns = append(r.turns, r.cur.Turn)
	}
	r.cur = nil
	clear(r.pending)
}

func (r *turnReader) known(slug string) bool {
	_, ok := r.mems.Names[slug]
	return ok
}

// fileSlug returns the slug of a memory file path, absolute or not.
func (r *turnReader) fileSlug(p string) (string, bool) {
	if p == "" || !strings.HasSuffix(p, ".md") || filepath.Base(p) == "MEMORY.md" {
		return "", false
	}
	p = filepath.Clean(p)
	for _, d := range r.mems.Dirs {
		if rel, err := filepath.Rel(d, p); err == nil && filepath.IsLocal(rel) {
			slug := strings.TrimSuffix(filepath.Base(p), ".md")
			return slug, r.known(slug)
		}
	}
	return "", false
}

// slugWord is a run of lower-case words joined by '-', as slugs are.
var slugWord = lazyregexp.New(`[a-z0-9]+(?:-[a-z0-9]+)*`)

// slugsIn lists the known slugs a search's output names, in order, each once.
func (r *turnReader) slugsIn(text string) []string {
	var out []string
	for _, w := range slugWord.FindAllString(text, -1) {
		if r.known(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// Phrase is a prompt's topic words, as the person wrote them and in their
// order: the words of the prompt whose terms the search's own query
// building keeps as typed prose (search.Query.Typed), without filler,
// stopwords, pasted logs or URLs. "" when the prompt has no topic.
func Phrase(prompt string) string { return strings.Join(phraseWords(prompt), " ") }

func phraseWords(prompt string) []string {
	typed := search.ParseQuery(prompt, "").Typed()
	if len(typed) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, t := range typed {
		want[t] = true
	}
	var words []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(prompt) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		key := strings.ToLower(w)
		if w == "" || seen[key] {
			continue
		}
		for _, t := range search.Tokens(w) {
			if want[t] {
				words = append(words, w)
				seen[key] = true
				break
			}
		}
	}
	return words
}

// without drops the words whose terms are all about the memories the hook
// showed instead (their name, description or tags) and none about the
// memory found: those words found the others, not it.
func without(words []string, found string, shown []string, mems Memories) []string {
	var out []string
	for _, w := range words {
		terms := search.Tokens(strings.ToLower(w))
		theirs := len(terms) > 0
		for _, t := range terms {
			if mems.Terms[found][t] || !slices.ContainsFunc(shown, func(s string) bool { return mems.Terms[s][t] }) {
				theirs = false
				break
			}
		}
		if !theirs {
			out = append(out, w)
		}
	}
	return out
}

// Key is what recurrence compares: an alias's content terms, sorted, each once.
func Key(alias string) string {
	terms := search.Tokens(strings.ToLower(alias))
	slices.Sort(terms)
	return strings.Join(slices.Compact(terms), " ")
}

// Candidates makes the candidates of turns, given the prompt hook's
// decisions (of every session; each turn takes its own). When the hook
// showed other memories, the prompt's words that are about them and not
// about the memory found are left out of its alias.
func Candidates(turns []Turn, decisions []injections.Decision, mems Memories) []Candidate {
	var out []Candidate
	taken := map[int]bool{}
	for _, t := range turns {
		if len(t.Found) == 0 {
			continue
		}
		d, ok := decisionFor(t, decisions, taken)
		if !ok {
			continue
		}
		words := phraseWords(t.Prompt)
		if len(words) == 0 || secrets.Check("prompt", strings.Join(words, " ")) != nil {
			continue
		}
		var shown []string
		for _, r := range d.Results {
			shown = append(shown, r.Slug)
		}
		hook := HookSilent
		if d.Injected && len(shown) > 0 {
			hook = HookOther
		}
		for _, f := range t.Found {
			if d.Injected && slices.Contains(shown, f.Slug) {
				continue // the hook found it: nothing to learn
			}
			alias := strings.Join(words, " ")
			if hook == HookOther {
				if alias = strings.Join(without(words, f.Slug, shown, mems), " "); alias == "" {
					continue
				}
			}
			out = append(out, Candidate{
				Session: t.Session, PromptID: t.PromptID, Time: t.Time.UTC(),
				Slug: f.Slug, Alias: alias, Key: Key(alias), How: f.How, Used: f.Used, Hook: hook,
				Status: StatusCandidate,
			})
		}
	}
	return out
}

// decisionFor finds the decision the prompt hook logged for t's prompt:
// the same session, the prompt's own query, close in time; the first one
// not taken by an earlier turn.
func decisionFor(t Turn, decisions []injections.Decision, taken map[int]bool) (injections.Decision, bool) {
	own := search.ParseQuery(t.Prompt, "").String()
	for i, d := range decisions {
		if taken[i] || d.Session != t.Session || !sameQuery(d.Query, own) {
			continue
		}
		if when, err := time.Parse(time.RFC3339, d.Time); err == nil && !t.Time.IsZero() {
			if skew := when.Sub(t.Time); skew > decisionSkew || skew < -decisionSkew {
				continue
			}
		}
		taken[i] = true
		return d, true
	}
	return injections.Decision{}, false
}

// sameQuery reports whether a logged query is own, the prompt's terms,
// perhaps followed by the previous turn's ("+"-marked) terms.
func sameQuery(logged, own string) bool {
	if own == "" {
		return false
	}
	rest, ok := strings.CutPrefix(logged, own)
	return ok && (rest == "" || strings.HasPrefix(rest, " +"))
}
