// Package modeltest holds a fake model.Asker for the unit tests of the
// offline passes: a canned JSON answer in place of a model command.
package modeltest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mem-dev/mem/internal/model"
)

// Asker answers every call with Answer, decoded into out strictly, as
// model.Runner decodes an answer (an unknown field is an error), or fails
// every call with Err when it is set. It counts the calls and keeps the last
// prompt; it is safe for concurrent use.
type Asker struct {
	Answer string
	Err    error

	mu     sync.Mutex
	calls  int
	prompt string
}

var _ model.Asker = (*Asker)(nil)

// Ask records the call and answers it.
func (a *Asker) Ask(_ context.Context, prompt string, out any) error {
	a.mu.Lock()
	a.calls++
	a.prompt = prompt
	a.mu.Unlock()
	if a.Err != nil {
		return a.Err
	}
	return model.DecodeStrict([]byte(a.Answer), out)
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
// decoded as model.Runner decodes (unknown fields, null and trailing data
// refused), for fakes that answer each prompt with a value of their own.
func Decode(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return model.DecodeStrict(b, out)
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
