// Package modeltest holds modelcmd.Askers for the tests of the offline passes:
// a canned JSON answer in place of a model command, and a cassette of a real
// model's recorded answers.
package modeltest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/mem-dev/mem/internal/modelcmd"
)

// Asker answers every call with Answer, decoded into out strictly, as
// modelcmd.Runner decodes an answer (an unknown field is an error), or fails
// every call with Err when it is set. It counts the calls and keeps the last
// prompt; it is safe for concurrent use.
type Asker struct {
	Answer string
	Err    error

	mu     sync.Mutex
	calls  int
	prompt string
}

var _ modelcmd.Asker = (*Asker)(nil)

// Ask records the call and answers it.
func (a *Asker) Ask(_ context.Context, prompt string, out any) error {
	a.mu.Lock()
	a.calls++
	a.prompt = prompt
	a.mu.Unlock()
	if a.Err != nil {
		return a.Err
	}
	return modelcmd.DecodeStrict([]byte(a.Answer), out)
}

// Answering is an Asker whose answer is v, encoded as JSON.
func Answering(v any) *Asker {
	b, err := json.Marshal(v)
	if err != nil {
		panic("modeltest: " + err.Error())
	}
	return &Asker{Answer: string(b)}
}

// Decode puts v in out as a model's answer would arrive: through JSON,
// decoded as modelcmd.Runner decodes (unknown fields, null and trailing data
// refused), for fakes that answer each prompt with a value of their own.
func Decode(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return modelcmd.DecodeStrict(b, out)
}

// Calls is how many times Ask was called.
func (a *Asker) Calls() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}

// Prompt is the prompt of the last call, "" before the first.
func (a *Asker) Prompt() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.prompt
}

// Cassette answers each prompt with what a real model answered to that
// exact prompt when it was recorded (../shared/cassettes/README.md): a JSONL
// file of {"sha256", "prompt", "answer"} lines, looked up by the SHA-256 of
// the prompt's bytes, as the shared replay command does, but in process.
type Cassette struct {
	answers map[string]json.RawMessage
}

// ErrNotRecorded is the error for a prompt the cassette has no answer for:
// the prompt changed since the recording.
var ErrNotRecorded = errors.New("the cassette holds no answer for this prompt: it changed since the recording")

var _ modelcmd.Asker = (*Cassette)(nil)

// LoadCassette reads a cassette file.
func LoadCassette(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &Cassette{answers: map[string]json.RawMessage{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct {
			SHA256 string          `json:"sha256"`
			Answer json.RawMessage `json:"answer"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.SHA256 == "" {
			return nil, fmt.Errorf("%s:%d: not a cassette record", path, n)
		}
		c.answers[rec.SHA256] = rec.Answer
	}
	return c, sc.Err()
}

// Ask answers prompt from the cassette, decoded as modelcmd.Runner decodes.
func (c *Cassette) Ask(_ context.Context, prompt string, out any) error {
	sum := sha256.Sum256([]byte(prompt))
	a, ok := c.answers[hex.EncodeToString(sum[:])]
	if !ok {
		return ErrNotRecorded
	}
	return modelcmd.DecodeStrict(a, out)
}
