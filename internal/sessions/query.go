package sessions

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// Session is one Claude Code session, across its files (the main
// transcript and its subagents' files share the session id).
type Session struct {
	ID       string    `json:"id"`
	Files    []string  `json:"files"`
	First    time.Time `json:"first,omitzero"`
	Last     time.Time `json:"last,omitzero"`
	Entries  int       `json:"entries"`
	Prompts  int       `json:"prompts"`
	Calls    int       `json:"calls"`
	Commands int       `json:"commands"` // simple shell commands, normalized
	Errors   int       `json:"errors"`
}

// Snapshot is the whole index in memory. Within one file, prompts, calls
// and errors are in transcript order; files are in path order.
type Snapshot struct {
	Files    []string
	Sessions []Session // by first timestamp, then id
	Prompts  []Prompt
	Calls    []Call
	Errors   []Error
	Lines    int
	// FileCalls holds each file's calls, in transcript order, by path.
	FileCalls map[string][]Call
}

// Load reads every record of the cache. An unreadable record is skipped:
// the next Update rebuilds it.
func (x *Index) Load() (*Snapshot, error) {
	names, err := filepath.Glob(filepath.Join(x.Dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var recs []*record
	for _, n := range names {
		rec, err := readRecord(n)
		if err != nil || rec.Version != Version {
			continue
		}
		recs = append(recs, rec)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
	s := &Snapshot{FileCalls: map[string][]Call{}}
	byID := map[string]*Session{}
	get := func(id string) *Session {
		if byID[id] == nil {
			byID[id] = &Session{ID: id}
		}
		return byID[id]
	}
	for _, rec := range recs {
		s.Files = append(s.Files, rec.Path)
		s.Lines += rec.Lines
		for id, seen := range rec.Sessions {
			ss := get(id)
			ss.Files = append(ss.Files, rec.Path)
			ss.Entries += seen.Entries
			if !seen.First.IsZero() && (ss.First.IsZero() || seen.First.Before(ss.First)) {
				ss.First = seen.First
			}
			if seen.Last.After(ss.Last) {
				ss.Last = seen.Last
			}
		}
		for _, p := range rec.Prompts {
			get(p.Session).Prompts++
		}
		for _, c := range rec.Calls {
			ss := get(c.Session)
			ss.Calls++
			ss.Commands += len(c.Commands)
		}
		for _, e := range rec.Errors {
			get(e.Session).Errors++
		}
		s.Prompts = append(s.Prompts, rec.Prompts...)
		s.Calls = append(s.Calls, rec.Calls...)
		s.Errors = append(s.Errors, rec.Errors...)
		s.FileCalls[rec.Path] = rec.Calls
	}
	for _, ss := range byID {
		sort.Strings(ss.Files)
		s.Sessions = append(s.Sessions, *ss)
	}
	sort.Slice(s.Sessions, func(i, j int) bool {
		a, b := s.Sessions[i], s.Sessions[j]
		if !a.First.Equal(b.First) {
			return a.First.Before(b.First)
		}
		return a.ID < b.ID
	})
	return s, nil
}

// Count is how often something happened, and in how many sessions.
type Count struct {
	Key      string `json:"key"`
	Times    int    `json:"times"`
	Sessions int    `json:"sessions"`
	Failed   int    `json:"failed,omitempty"` // times it failed
}

// Stats summarises a snapshot.
type Stats struct {
	Files    int     `json:"files"`
	Lines    int     `json:"lines"`
	Sessions int     `json:"sessions"`
	Prompts  int     `json:"prompts"`
	Calls    int     `json:"calls"`
	Commands int     `json:"commands"`
	Errors   int     `json:"errors"`
	Tools    []Count `json:"tools"`    // by tool name
	Heads    []Count `json:"heads"`    // by command head
	Failures []Count `json:"failures"` // failed commands by head, and other failed tools by name
}

// Stats counts tools, command heads and failures, most sessions first.
func (s *Snapshot) Stats() Stats {
	st := Stats{Files: len(s.Files), Lines: s.Lines, Sessions: len(s.Sessions), Prompts: len(s.Prompts), Calls: len(s.Calls), Errors: len(s.Errors)}
	tools, heads, fails := newCounter(), newCounter(), newCounter()
	for _, c := range s.Calls {
		tools.add(c.Tool, c.Session, c.Failed)
		st.Commands += len(c.Commands)
		for _, cmd := range c.Commands {
			heads.add(cmd.Head, c.Session, c.Failed)
		}
	}
	for _, e := range s.Errors {
		if e.Kind != KindTool {
			continue
		}
		if len(e.Heads) > 0 {
			for _, h := range e.Heads {
				fails.add(h, e.Session, true)
			}
		} else {
			fails.add(e.Tool, e.Session, true)
		}
	}
	st.Tools, st.Heads, st.Failures = tools.sorted(), heads.sorted(), fails.sorted()
	return st
}

type counter struct {
	m map[string]*Count
	s map[string]map[string]bool
}

func newCounter() *counter {
	return &counter{m: map[string]*Count{}, s: map[string]map[string]bool{}}
}

func (c *counter) add(key, session string, failed bool) {
	if key == "" {
		key = "(unknown)"
	}
	n := c.m[key]
	if n == nil {
		n = &Count{Key: key}
		c.m[key] = n
		c.s[key] = map[string]bool{}
	}
	n.Times++
	if failed {
		n.Failed++
	}
	if !c.s[key][session] {
		c.s[key][session] = true
		n.Sessions++
	}
}

func (c *counter) sorted() []Count {
	out := make([]Count, 0, len(c.m))
	for _, n := range c.m {
		out = append(out, *n)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Sessions != b.Sessions {
			return a.Sessions > b.Sessions
		}
		if a.Times != b.Times {
			return a.Times > b.Times
		}
		return a.Key < b.Key
	})
	return out
}

// Hit is one thing a search found.
type Hit struct {
	Session string    `json:"session"`
	Time    time.Time `json:"time,omitzero"`
	Kind    string    `json:"kind"` // "prompt", "command", "error"
	Text    string    `json:"text"`
	Failed  bool      `json:"failed,omitempty"`
}

// Answer is a search's answer: how often, in how many sessions, and where.
type Answer struct {
	Query    string   `json:"query"`
	Times    int      `json:"times"`
	Sessions []string `json:"sessions"` // distinct session ids, in order of first hit
	Failed   int      `json:"failed"`   // hits that were failures
	Hits     []Hit    `json:"hits"`
}

// Search finds prompts, commands and errors whose text holds every word of
// query (case-insensitive).
func (s *Snapshot) Search(query string) Answer {
	words := strings.Fields(strings.ToLower(query))
	a := Answer{Query: query}
	match := func(text string) bool {
		if len(words) == 0 {
			return false
		}
		low := strings.ToLower(text)
		for _, w := range words {
			if !strings.Contains(low, w) {
				return false
			}
		}
		return true
	}
	for _, p := range s.Prompts {
		if match(p.Text) {
			a.add(Hit{Session: p.Session, Time: p.Time, Kind: "prompt", Text: p.Text})
		}
	}
	for _, c := range s.Calls {
		if c.Command != "" && match(c.Command) {
			a.add(Hit{Session: c.Session, Time: c.Time, Kind: "command", Text: c.Command, Failed: c.Failed})
		}
	}
	for _, e := range s.Errors {
		if match(e.Message) || match(e.Command) {
			a.add(Hit{Session: e.Session, Time: e.Time, Kind: "error", Text: e.Message, Failed: true})
		}
	}
	return a
}

// SearchCommand finds the simple commands whose normal form starts with
// the normal form of cmd, word by word: "go test" finds every go test, and
// "go test ./x/... -run Y" finds those run on a path with -run.
func (s *Snapshot) SearchCommand(cmd string) (Answer, error) {
	want := Normalize(cmd)
	if len(want) != 1 {
		return Answer{}, fmt.Errorf("%q is not one simple command", cmd)
	}
	prefix := strings.Fields(want[0].Norm)
	a := Answer{Query: want[0].Norm}
	for _, c := range s.Calls {
		for _, n := range c.Commands {
			f := strings.Fields(n.Norm)
			if len(f) >= len(prefix) && slices.Equal(f[:len(prefix)], prefix) {
				a.add(Hit{Session: c.Session, Time: c.Time, Kind: "command", Text: c.Command, Failed: c.Failed})
				break
			}
		}
	}
	return a, nil
}

func (a *Answer) add(h Hit) {
	a.Times++
	if h.Failed {
		a.Failed++
	}
	if !slices.Contains(a.Sessions, h.Session) {
		a.Sessions = append(a.Sessions, h.Session)
	}
	a.Hits = append(a.Hits, h)
}
