// Package injections is the prompt hook's decision log: one JSON line per
// prompt, saying what the hook made of it and what it injected, if
// anything. The hook writes it (package hooks, by hand for speed, in this
// format); mem injections, mem learn and the web page read it. It is on the
// prompt path, so it links only the standard library and logfile.
//
// # Format
//
// <state dir>/injections.jsonl, rotated by logfile (its older generations
// beside it, read oldest first), one Decision a line:
//
//	{"time":"2026-11-02T09:00:00Z","session":"…","prompt":"…","query":"spanish vat",
//	 "injected":true,"results":[{"slug":"vat-rounding","score":0.5}]}
package injections

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/internal/logfile"
)

// Log is the decision log's file in the state directory.
const Log = "injections.jsonl"

// MaxPrompt is how much of a prompt the decision log keeps: a typed
// prompt whole, a pasted log cut, so that no line outgrows what Decisions
// reads (1 MiB) and the log still holds thousands of decisions.
const MaxPrompt = 8 << 10

// Decision is one line of the decision log: what the prompt hook made of
// one prompt and what it injected, if anything.
type Decision struct {
	Time     string   `json:"time"` // RFC 3339, UTC
	Session  string   `json:"session,omitempty"`
	Prompt   string   `json:"prompt,omitempty"`   // as typed, cut at MaxPrompt bytes
	Clipped  bool     `json:"clipped,omitempty"`  // the prompt was longer and is cut
	Previous string   `json:"previous,omitempty"` // the part of the previous turn that refined the query
	Query    string   `json:"query"`              // the cleaned query: "+" marks the previous turn's terms, "@" entities
	Injected bool     `json:"injected"`
	Results  []Result `json:"results,omitempty"`
}

// Result is one memory a decision injected, with its score.
type Result struct {
	Slug  string  `json:"slug"`
	Score float64 `json:"score"`
}

// Read reads the decision log in stateDir, oldest first, across its
// generations. A line that does not decode (one cut short
// when a disk filled) is passed over; a missing log is no decisions.
func Read(stateDir string) ([]Decision, error) {
	var out []Decision
	for _, p := range logfile.Generations(filepath.Join(stateDir, Log)) {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var d Decision
			if json.Unmarshal(sc.Bytes(), &d) == nil && d.Time != "" {
				out = append(out, d)
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
