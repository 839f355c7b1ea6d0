package skills

import (
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/internal/sessions"
)

// MinSessions is how many separate sessions a procedure must recur in.
const MinSessions = 3

// MaxSteps is the longest step sequence counted.
const MaxSteps = 4

// Candidate is a procedure that recurs: a sequence of command heads seen,
// in this order and adjacent, in several sessions.
type Candidate struct {
	Key      string           `json:"key"`      // the steps joined by " → "
	Steps    []string         `json:"steps"`    // command heads, e.g. ["git add", "git commit"]
	Sessions []string         `json:"sessions"` // sessions it was seen in, sorted
	Times    int              `json:"times"`    // occurrences, across sessions
	Examples []string         `json:"examples"` // up to 3 raw command lines of its steps
	Failures []sessions.Error `json:"failures"` // failures of its steps in its sessions
}

// readOnly are command heads that only look: part of every kind of work,
// so they are not steps of a procedure. Simple utilities (sessions.IsUtility)
// are left out too.
var readOnly = map[string]bool{
	"git status": true, "git log": true, "git diff": true, "git show": true, "git branch": true,
	"git remote": true, "git rev-parse": true, "git ls-files": true, "git blame": true,
}

// Step is the step a normalized command is, or "" when it is no step.
func Step(c sessions.Command) string {
	if c.Head == "" || readOnly[c.Head] || sessions.IsUtility(c.Head) || strings.HasPrefix(c.Head, "<") {
		return ""
	}
	return c.Head
}

// Candidates finds the procedures that recur in at least min sessions
// (MinSessions when min <= 0). The rule, deterministic:
//
//  1. For each transcript file, the steps are the heads of its Bash
//     calls' simple commands, in order, leaving out read-only and utility
//     commands (see Step), with a run of one step collapsed to one.
//  2. Every contiguous run of 1 to MaxSteps steps with no repeated step is
//     an n-gram; each n-gram counts the sessions it occurs in (a session's
//     files together) and its occurrences.
//  3. Those in fewer than min sessions are dropped, and so is an n-gram
//     contained in a longer one kept with the same sessions (the longer one
//     says more).
//  4. Order: more sessions first, then longer, then more occurrences, then
//     by key.
//
// A candidate's failures are the indexed errors, in its sessions, of Bash
// calls whose commands include one of its steps.
func Candidates(s *sessions.Snapshot, min int) []Candidate {
	if min <= 0 {
		min = MinSessions
	}
	type agg struct {
		steps    []string
		sessions map[string]bool
		times    int
		examples []string
	}
	grams := map[string]*agg{}
	for _, f := range s.Files { // in path order
		type step struct{ head, session, raw string }
		var seq []step
		for _, c := range s.FileCalls[f] {
			for _, cmd := range c.Commands {
				h := Step(cmd)
				if h == "" || len(seq) > 0 && seq[len(seq)-1].head == h && seq[len(seq)-1].session == c.Session {
					continue
				}
				seq = append(seq, step{h, c.Session, c.Command})
			}
		}
		for i := range seq {
			var heads []string
			for n := 1; n <= MaxSteps && i+n <= len(seq); n++ {
				st := seq[i+n-1]
				if st.session != seq[i].session || slices.Contains(heads, st.head) {
					break
				}
				heads = append(heads, st.head)
				key := strings.Join(heads, " → ")
				a := grams[key]
				if a == nil {
					a = &agg{steps: append([]string(nil), heads...), sessions: map[string]bool{}}
					grams[key] = a
				}
				a.sessions[seq[i].session] = true
				a.times++
				if len(a.examples) < 3 && !slices.Contains(a.examples, st.raw) {
					a.examples = append(a.examples, st.raw)
				}
			}
		}
	}
	var out []Candidate
	for key, a := range grams {
		if len(a.sessions) < min {
			continue
		}
		c := Candidate{Key: key, Steps: a.steps, Times: a.times, Examples: a.examples}
		for id := range a.sessions {
			c.Sessions = append(c.Sessions, id)
		}
		sort.Strings(c.Sessions)
		out = append(out, c)
	}
	// Drop what a longer candidate with the same sessions contains.
	kept := out[:0]
	for _, c := range out {
		subsumed := false
		for _, d := range out {
			if len(d.Steps) > len(c.Steps) && strings.Contains(" → "+d.Key+" → ", " → "+c.Key+" → ") &&
				slices.Equal(d.Sessions, c.Sessions) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			kept = append(kept, c)
		}
	}
	out = kept
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case len(a.Sessions) != len(b.Sessions):
			return len(a.Sessions) > len(b.Sessions)
		case len(a.Steps) != len(b.Steps):
			return len(a.Steps) > len(b.Steps)
		case a.Times != b.Times:
			return a.Times > b.Times
		}
		return a.Key < b.Key
	})
	for i := range out {
		out[i].Failures = failures(s, out[i])
	}
	return out
}

// failures lists the tool errors in c's sessions of calls running one of
// its steps.
func failures(s *sessions.Snapshot, c Candidate) []sessions.Error {
	out := []sessions.Error{}
	for _, e := range s.Errors {
		if e.Kind != sessions.KindTool || !slices.Contains(c.Sessions, e.Session) {
			continue
		}
		for _, h := range e.Heads {
			if slices.Contains(c.Steps, h) {
				out = append(out, e)
				break
			}
		}
	}
	return out
}
