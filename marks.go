package mem

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/internal/atomicfile"
	"github.com/mem-dev/mem/internal/eval"
)

// MarksFile is where a person's judgements of the prompt hook's decisions
// are kept, in the state directory: a battery in the `mem eval` format, one
// line per decision judged, local to the clone and never committed (prompts
// can be private; a person who wants them shared copies the file).
const MarksFile = "marks.jsonl"

// MarksPath is the marks battery's path: `mem eval` runs it.
func (r *Repo) MarksPath() string { return filepath.Join(r.Place.StateDir(), MarksFile) }

// Marks reads the marks battery, oldest first; none when it does not exist.
func (r *Repo) Marks(_ context.Context) ([]eval.Case, error) {
	data, err := os.ReadFile(r.MarksPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cases, err := eval.ReadBattery(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.MarksPath(), err)
	}
	return cases, nil
}

// Mark records a judgement as a battery line: c.Expect is what the prompt
// should have been given ([] for silence). A mark with the id of an earlier
// one replaces it, so a person may change their mind and the battery keeps
// unique ids. It writes under the store's lock, atomically.
func (r *Repo) Mark(ctx context.Context, c eval.Case) error {
	if c.ID == "" || c.Prompt == "" {
		return errors.New("a mark needs the decision's id and its prompt")
	}
	if c.Expect == nil {
		c.Expect = []string{}
	}
	unlock, err := r.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	cases, err := r.Marks(ctx)
	if err != nil {
		return err
	}
	replaced := false
	for i := range cases {
		if cases[i].ID == c.ID {
			cases[i], replaced = c, true
		}
	}
	if !replaced {
		cases = append(cases, c)
	}
	var b bytes.Buffer
	for _, k := range cases {
		if k.Expect == nil {
			k.Expect = []string{}
		}
		line, err := json.Marshal(k)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(r.Place.StateDir(), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(r.MarksPath(), b.Bytes(), 0o600)
}
