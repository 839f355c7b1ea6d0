package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// Dir is learning's state directory under the repository's state directory.
const Dir = "learn"

// BookFile is the book's file in Dir.
const BookFile = "book.json"

// A candidate's status.
const (
	StatusCandidate = "candidate" // waiting to be used or to recur
	StatusLearned   = "learned"   // written as an alias (Commit), or the same words were
	StatusRefused   = "refused"   // the filter or the store refused it (Reason)
)

// keepFor is how long a candidate that neither recurred nor was used is
// kept waiting for its second session.
const keepFor = 90 * 24 * time.Hour

// Candidate is a prompt's topic words as a possible alias of a memory the
// agent found itself after the prompt hook did not show it.
type Candidate struct {
	Session  string    `json:"session"`
	PromptID string    `json:"prompt"`
	Time     time.Time `json:"time,omitzero"`
	Slug     string    `json:"slug"`
	Alias    string    `json:"alias"`
	Key      string    `json:"key"`  // Key(Alias): what recurrence compares
	How      string    `json:"how"`  // how the agent found it: BySearch, ByShow, ByRead
	Used     bool      `json:"used"` // it went on with the memory in that turn
	Hook     string    `json:"hook"` // HookSilent or HookOther
	Status   string    `json:"status"`
	Reason   string    `json:"reason,omitempty"` // why it was learned, or refused
	Commit   string    `json:"commit,omitempty"`
}

// Book is learning's state between runs (see the package doc).
type Book struct {
	Offsets    map[string]int64 `json:"offsets"` // transcript path → offset to read from
	Candidates []Candidate      `json:"candidates"`
}

// LoadBook reads the book in dir; a missing or unreadable one is empty (it
// is a cache of what the transcripts say).
func LoadBook(dir string) *Book {
	b := &Book{}
	if data, err := os.ReadFile(filepath.Join(dir, BookFile)); err == nil {
		json.Unmarshal(data, b)
	}
	if b.Offsets == nil {
		b.Offsets = map[string]int64{}
	}
	return b
}

// Save writes the book into dir atomically.
func (b *Book) Save(dir string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("save learning state: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, BookFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save learning state: %w", err)
	}
	return nil
}

// Add records new candidates, each (session, prompt, memory) once (a turn
// is read again while it may not be over), and returns how many were new;
// a candidate read again may have become used.
func (b *Book) Add(cs []Candidate) int {
	at := map[[3]string]int{}
	for i, c := range b.Candidates {
		at[[3]string{c.Session, c.PromptID, c.Slug}] = i
	}
	n := 0
	for _, c := range cs {
		k := [3]string{c.Session, c.PromptID, c.Slug}
		if i, ok := at[k]; ok {
			if c.Used && b.Candidates[i].Status == StatusCandidate {
				b.Candidates[i].Used = true
			}
			continue
		}
		at[k] = len(b.Candidates)
		b.Candidates = append(b.Candidates, c)
		n++
	}
	return n
}

// Ready lists the candidates to promote now, oldest first: waiting, and
// used in their turn, or found with the same words in another session as
// well (then the latest of them stands for the others, which Settle marks
// with its outcome). Each memory and key comes once.
func (b *Book) Ready() []int {
	type group struct{ slug, key string }
	sessions := map[group]map[string]bool{}
	done := map[group]bool{}
	for _, c := range b.Candidates {
		g := group{c.Slug, c.Key}
		if c.Status != StatusCandidate {
			done[g] = true // learned or refused once: settled
			continue
		}
		if sessions[g] == nil {
			sessions[g] = map[string]bool{}
		}
		sessions[g][c.Session] = true
	}
	var out []int
	picked := map[group]int{}
	for i, c := range b.Candidates {
		g := group{c.Slug, c.Key}
		if c.Status != StatusCandidate || done[g] || !c.Used && len(sessions[g]) < 2 {
			continue
		}
		if j, ok := picked[g]; ok {
			out[j] = i // the latest stands for the group
			continue
		}
		picked[g] = len(out)
		out = append(out, i)
	}
	sort.Slice(out, func(i, j int) bool { return b.Candidates[out[i]].Time.Before(b.Candidates[out[j]].Time) })
	return out
}

// Settle records the outcome of promoting candidate i on it and on every
// waiting candidate with the same memory and key.
func (b *Book) Settle(i int, status, reason, commit string) {
	c := b.Candidates[i]
	for j := range b.Candidates {
		o := &b.Candidates[j]
		if j == i || o.Status == StatusCandidate && o.Slug == c.Slug && o.Key == c.Key {
			o.Status, o.Reason, o.Commit = status, reason, commit
		}
	}
}

// Why says why candidate i is promoted, for the commit.
func (b *Book) Why(i int) string {
	c := b.Candidates[i]
	sessions := map[string]bool{}
	for _, o := range b.Candidates {
		if o.Slug == c.Slug && o.Key == c.Key {
			sessions[o.Session] = true
		}
	}
	hook := "the prompt hook stayed silent"
	if c.Hook == HookOther {
		hook = "the prompt hook showed other memories"
	}
	if c.Used {
		return fmt.Sprintf("%s; the agent found it itself (%s) and went on to use it", hook, c.How)
	}
	return fmt.Sprintf("%s; the agent found it itself, with the same words in %d sessions", hook, len(sessions))
}

// Prune drops waiting candidates older than keepFor at now, and the offsets
// of transcripts that no longer exist.
func (b *Book) Prune(now time.Time) {
	kept := b.Candidates[:0]
	for _, c := range b.Candidates {
		if c.Status == StatusCandidate && !c.Time.IsZero() && now.Sub(c.Time) > keepFor {
			continue
		}
		kept = append(kept, c)
	}
	b.Candidates = kept
	for p := range b.Offsets {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			delete(b.Offsets, p)
		}
	}
}
