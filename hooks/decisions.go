package hooks

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/internal/logfile"
)

// DecisionLog is the prompt hook's log, in the cache directory, of what it
// did with every prompt; logfile rotates it.
const DecisionLog = "injections.jsonl"

// MaxLoggedPrompt is how much of a prompt the decision log keeps: a typed
// prompt whole, a pasted log cut, so that no line outgrows what Decisions
// reads (1 MiB) and the log still holds thousands of decisions.
const MaxLoggedPrompt = 8 << 10

// Decision is one line of the decision log: what the prompt hook made of
// one prompt and what it injected, if anything.
type Decision struct {
	Time     string           `json:"time"` // RFC 3339, UTC
	Session  string           `json:"session,omitempty"`
	Prompt   string           `json:"prompt,omitempty"`   // as typed, cut at MaxLoggedPrompt bytes
	Clipped  bool             `json:"clipped,omitempty"`  // the prompt was longer and is cut
	Previous string           `json:"previous,omitempty"` // the part of the previous turn that refined the query
	Query    string           `json:"query"`              // the cleaned query: "+" marks the previous turn's terms, "@" entities
	Injected bool             `json:"injected"`
	Results  []DecisionResult `json:"results,omitempty"`
}

// DecisionResult is one memory a decision injected, with its score.
type DecisionResult struct {
	Slug  string  `json:"slug"`
	Score float64 `json:"score"`
}

// Decisions reads the decision log in cacheDir, oldest first, across its
// generations. A line that does not decode (one cut short
// when a disk filled) is passed over; a missing log is no decisions.
func Decisions(cacheDir string) ([]Decision, error) {
	var out []Decision
	for _, p := range logfile.Generations(filepath.Join(cacheDir, DecisionLog)) {
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
