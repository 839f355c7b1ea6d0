package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/internal/jsonscan"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/logfile"
	"github.com/mem-dev/mem/internal/rawfile"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/internal/transcript"
	"github.com/mem-dev/mem/search"
)

// PromptInput is the part of Claude Code's UserPromptSubmit JSON we read.
type PromptInput struct {
	Prompt         string `json:"prompt"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	SessionID      string `json:"session_id"`
	PromptID       string `json:"prompt_id"` // one prompt's id (Claude Code 2.1.196+)
}

// parsePromptInput decodes the hook's JSON input as encoding/json would
// decode it into a PromptInput (keys match case-insensitively, the last of
// duplicates wins, null leaves a field empty, any other type is an error),
// without the reflection that encoding/json pays for on first use: in a
// hook, first use is every use.
func parsePromptInput(data []byte) (PromptInput, error) {
	var in PromptInput
	s := jsonscan.New(data)
	if s.Kind() == 'n' {
		if err := s.Skip(); err != nil {
			return in, err
		}
		return in, s.End()
	}
	err := s.Object(func(key []byte) error {
		var dst *string
		switch {
		case bytes.EqualFold(key, []byte("prompt")):
			dst = &in.Prompt
		case bytes.EqualFold(key, []byte("transcript_path")):
			dst = &in.TranscriptPath
		case bytes.EqualFold(key, []byte("cwd")):
			dst = &in.Cwd
		case bytes.EqualFold(key, []byte("session_id")):
			dst = &in.SessionID
		case bytes.EqualFold(key, []byte("prompt_id")):
			dst = &in.PromptID
		default:
			return s.Skip()
		}
		switch s.Kind() {
		case 'n':
			return s.Skip()
		case '"':
			v, err := s.String()
			*dst = v
			return err
		}
		return fmt.Errorf("hook input: %s is not a string", key)
	})
	if err != nil {
		return in, err
	}
	return in, s.End()
}

// Refresher brings the cache of a place up to date by parsing the changed
// memory files. The lean hook binary runs `mem index` for it, so that no
// markdown parser is linked into the prompt path; the full binary does it
// in process. It never waits for the store's lock (ErrRefreshBusy); the
// prompt waits for it at most RefreshWait (ErrRefreshSlow) and leaves it to
// finish on its own.
type Refresher func(place locate.Place) error

// Errors of a refresh that did not happen in time; the hook then answers
// from the cache as it is, and says so in its log.
var (
	// ErrRefreshBusy: another process holds the store's lock (a writer,
	// which refreshes the cache when it is done).
	ErrRefreshBusy = errors.New("the store is locked by a writer")
	// ErrRefreshSlow: the refresh still runs; it finishes on its own.
	ErrRefreshSlow = errors.New("the refresh takes longer than a prompt may wait")
)

// Bounds of the hooks, whatever they are given (a transcript that is a
// FIFO or a device, a cache that is one, a store locked for ever, a refresh
// of a huge store, a transcript of gigabytes).
//
// The prompt hook reads only regular files (internal/rawfile), a bounded
// tail of the transcript and its mapped cache, so the one step of it that
// can take long is a refresh: it waits for that at most RefreshWait. It
// sets no timer otherwise: a Go timer starts the runtime's network poller
// (an epoll instance and an eventfd), which every prompt would pay for.
// The gate, which runs once a stop, reads a bounded window of the
// transcript and gives up past GateBudget. (Variables for tests.)
var (
	RefreshWait = 1500 * time.Millisecond
	GateBudget  = 5 * time.Second
)

// watch runs work and waits for it at most budget. On time it returns
// work's result and true (a panic of work panics here, in the caller, whose
// recover fails the hook open); past the budget it returns false, leaving
// work to end on its own or with the process.
func watch[T any](budget time.Duration, work func() T) (T, bool) {
	type outcome struct {
		v     T
		panic any
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panic: r}
			}
		}()
		done <- outcome{v: work()}
	}()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.panic != nil {
			panic(o.panic)
		}
		return o.v, true
	case <-timer.C:
		var zero T
		return zero, false
	}
}

// contextBudget is roughly how many characters the injected text may take.
const contextBudget = 1500

// Prompt is the UserPromptSubmit hook. It prints additionalContext JSON
// when a memory clears the search threshold and nothing otherwise. It never
// fails the user's prompt: on any error of ours it prints nothing and logs
// one line under the state directory. It is meant to be a process's whole
// job: the index it opens stays mapped until the process exits.
func Prompt(in io.Reader, out io.Writer, refresh Refresher, now time.Time) {
	if b := prompt(in, refresh, now); b != nil {
		out.Write(b)
	}
}

// prompt is Prompt's work: the hook's output, or nil.
func prompt(in io.Reader, refresh Refresher, now time.Time) (output []byte) {
	var place locate.Place
	defer func() {
		// A panic would exit 2, which blocks the user's prompt: fail open.
		if r := recover(); r != nil && place.CommonDir != "" {
			logHookError(place.StateDir(), now, fmt.Sprintf("prompt: panic: %v", r))
			output = nil
		}
	}()
	// The index is read through a memory map: should the file shrink under
	// us, the fault becomes a panic recovered above.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	data, err := readInput(in, 16<<20)
	if err != nil {
		return nil
	}
	hin, err := parsePromptInput(data)
	if err != nil {
		return nil // no place is known yet to log it in
	}
	if hin.Cwd == "" {
		hin.Cwd, _ = os.Getwd()
	}
	place, err = locate.Find(hin.Cwd, "")
	if err != nil {
		return nil // not in a repository: nothing to remember here
	}
	stateDir := place.StateDir()
	ctx, results, q, prev, err := answer(place, hin, refresh, now)
	if errors.Is(err, errNoStore) || errors.Is(err, errLogged) || errors.Is(err, errClaimed) {
		return nil
	}
	if err != nil {
		logHookError(stateDir, now, "prompt: "+err.Error())
		return nil
	}
	logDecision(stateDir, now, hin.SessionID, hin.Prompt, prev, q, results)
	if ctx == "" {
		return nil
	}
	if err := RecordLookup(stateDir, hin.SessionID); err != nil {
		logHookError(stateDir, now, "prompt: "+err.Error())
	}
	return ContextJSON("UserPromptSubmit", ctx)
}

// readInput reads at most limit bytes of in into a buffer that holds any
// typed prompt, so that reading one costs a single allocation.
func readInput(in io.Reader, limit int64) ([]byte, error) {
	return rawfile.ReadAll(io.LimitReader(in, limit), make([]byte, 0, 16<<10))
}

// answer searches the store for the prompt and renders what to inject.
// previous is the part of the previous turn that refined the query, if any.
func answer(place locate.Place, hin PromptInput, refresh Refresher, now time.Time) (ctx string, results []search.Result, q search.Query, previous string, err error) {
	q = search.ParseQuery(hin.Prompt, "")
	if q.Empty() {
		// No topic of its own: the previous turn may refine a topic but
		// never create one, so the transcript need not be read.
		if !isDir(place.Store) {
			return "", nil, q, "", errNoStore
		}
		if !claimPrompt(place, hin) {
			return "", nil, q, "", errClaimed
		}
		return "", nil, q, "", nil
	}
	ix, err := OpenFresh(place, refresh, now)
	if err != nil {
		return "", nil, q, "", err
	}
	if !claimPrompt(place, hin) {
		return "", nil, q, "", errClaimed
	}
	// The index stays mapped: Prompt is a hook process's whole job, and
	// unmapping before the exit would only add a TLB shootdown (~4% of the
	// hook's time in a CPU profile).
	if hin.TranscriptPath != "" && q.WantsPrevious() {
		if prev, err := transcript.LastAssistantText(hin.TranscriptPath); err == nil {
			previous = search.PreviousRead(prev)
			q = q.Refine(previous)
		}
	}
	results = ix.Search(q, search.Options{Limit: search.MaxInjected, Now: now})
	return Render(results, now), results, q, previous, nil
}

// errNoStore means the repository has no store: nothing to remember here.
var errNoStore = errors.New("no store in this repository")

// errClaimed means the same prompt's other handler (mem's plugin and the
// settings' hooks both run) answers it.
var errClaimed = errors.New("answered by the prompt's other handler")

// claimPrompt claims the prompt for this process once the store is known
// to be there (so no state directory is made where there is none). The
// prompt's id names it: Claude Code gives both handlers the same input.
// Without an id (before 2.1.196) nothing is claimed, so a prompt typed
// twice is never swallowed.
func claimPrompt(place locate.Place, hin PromptInput) bool {
	return hin.PromptID == "" || Claim(place.StateDir(), "prompt", []byte(hin.SessionID+"\x00"+hin.PromptID), OnceUnique)
}

// errLogged means there is nothing to answer and the log says why.
var errLogged = errors.New("nothing to answer (logged)")

// OpenFresh opens the place's search cache, refreshing it first when the
// cheap freshness signals say the files moved, and rebuilding it when it is
// missing or corrupt. A fresh cache vouches for its store's directory (its
// stamp was just checked), so the store is looked for only when the cache
// cannot be used; errNoStore says it is not there.
func OpenFresh(place locate.Place, refresh Refresher, now time.Time) (*search.Index, error) {
	path := place.IndexPath()
	ix, err := search.Open(path)
	if err == nil {
		switch search.CheckFresh(ix.Stamps(), place.StateDir(), now, false) {
		case search.Fresh:
			return ix, nil
		case search.ClearMarker:
			search.ClearStale(place.StateDir())
			return ix, nil
		}
	}
	if !isDir(place.Store) {
		if ix != nil {
			ix.Close()
		}
		return nil, errNoStore
	}
	if refresh == nil {
		if ix != nil {
			return ix, nil
		}
		return nil, err
	}
	rerr, ok := watch(RefreshWait, func() error { return refresh(place) })
	if !ok {
		rerr = ErrRefreshSlow
	}
	if rerr != nil {
		if errors.Is(rerr, ErrRefreshBusy) || errors.Is(rerr, ErrRefreshSlow) {
			// Said in the log: else a slow or locked store is silent.
			msg := "prompt: " + rerr.Error() + ": answered from the cache as it was"
			if ix == nil {
				msg = "prompt: " + rerr.Error() + " and there is no cache yet: answered nothing"
			}
			logHookError(place.StateDir(), now, msg)
		}
		if ix != nil {
			return ix, nil // stale beats nothing
		}
		if errors.Is(rerr, ErrRefreshBusy) || errors.Is(rerr, ErrRefreshSlow) {
			return nil, errLogged
		}
		return nil, fmt.Errorf("refresh index: %w", rerr)
	}
	if ix != nil {
		ix.Close()
	}
	ix, err = search.Open(path)
	switch {
	case errors.Is(err, search.ErrVersion):
		// The refresher wrote a format this binary does not read.
		return nil, errors.New("mem and mem-hook write different index formats: install both from the same version")
	case errors.Is(err, fs.ErrNotExist):
		// The refresher succeeded but wrote its cache elsewhere: it names
		// caches differently, which only another version does.
		return nil, errors.New("mem index wrote no cache where mem-hook looks for one: install mem and mem-hook from the same version")
	}
	return ix, err
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Render formats results as the text injected into the agent's context:
// where each memory is, what it is called, its class, age and labels, and a
// line or two of its content, about contextBudget characters in all.
func Render(results []search.Result, now time.Time) string {
	if len(results) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(contextBudget + 256)
	b.WriteString("Memories that may bear on this prompt (from mem; read the file for the whole memory):\n")
	per := (contextBudget - b.Len()) / len(results)
	for _, r := range results {
		var e strings.Builder
		e.Grow(per + 64)
		fmt.Fprintf(&e, "- %s — %q (%s", search.Where(r.Path, r.Line), r.Name, r.Class)
		if age := Age(r.Modified, now); age != "" {
			e.WriteString(", " + age)
		}
		if r.Store != "" && r.Store != search.StoreProject {
			e.WriteString(", " + r.Store + " store")
		}
		e.WriteString(")")
		for _, l := range r.Labels {
			e.WriteString(" [" + l + "]")
		}
		e.WriteString("\n")
		// A snippet's lines (a description and the line that meets the
		// prompt) share what room the entry has left; the first takes at
		// most half when there are two.
		lines := strings.Split(strings.TrimSpace(r.Snippet), "\n")
		for i, l := range lines {
			if l = strings.TrimSpace(l); l == "" {
				continue
			}
			room := per - e.Len() - 3
			if i == 0 && len(lines) > 1 {
				room /= 2
			}
			e.WriteString("  " + clip(plain(l), room) + "\n")
		}
		b.WriteString(e.String())
	}
	return strings.TrimRight(b.String(), "\n")
}

// plain drops the markdown that spends the budget and says nothing to a
// reader of one line: a list marker and bold markers (a MEMORY.md
// section's lines are "- **storageAdapter**: …"). Code spans stay as they
// are: they name things.
func plain(line string) string {
	for _, m := range [...]string{"- ", "* ", "+ "} {
		if rest, ok := strings.CutPrefix(line, m); ok {
			line = rest
			break
		}
	}
	if !strings.Contains(line, "**") {
		return line
	}
	// Outside code spans only: `**kwargs` is code.
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "**", "")
	}
	return strings.Join(parts, "`")
}

// clip shortens s to one line of at most n bytes (20 at least), at a word
// boundary, ellipsis included.
func clip(s string, n int) string {
	return text.ClipWords(squeeze(s), max(n, 20))
}

// Age says how old a memory is in words a person reads at a glance.
func Age(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	days := int(d.Hours() / 24)
	switch {
	case d < 0:
		return "dated in the future"
	case days == 0:
		return "from today"
	case days == 1:
		return "1 day old"
	case days < 14:
		return fmt.Sprintf("%d days old", days)
	case days < 60:
		return fmt.Sprintf("%d weeks old", days/7)
	case days < 730:
		return fmt.Sprintf("%d months old", days/30)
	default:
		return fmt.Sprintf("%d years old", days/365)
	}
}

// ContextJSON is a hook's stdout that adds context for an event.
//
// It is written by hand, like the decision log: encoding/json's reflection
// is cold code that every prompt would page in.
func ContextJSON(event, context string) []byte {
	b := make([]byte, 0, len(context)+len(context)/8+96) // room for escapes
	b = append(b, `{"hookSpecificOutput":{"hookEventName":`...)
	b = appendJSONString(b, event)
	b = append(b, `,"additionalContext":`...)
	b = appendJSONString(b, context)
	return append(b, "}}\n"...)
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does; < and > stay as they are (the agent reads <slug>).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// logDecision appends one line to the decision log: what the hook saw and
// did (time, session, the prompt and the part of the previous turn it read,
// cleaned query, injected or not, results and scores), so a person can
// review what was injected and what was kept quiet, and turn a decision
// into a battery line that replays it. A prompt longer than injections.MaxPrompt
// is logged cut there, and says so.
func logDecision(stateDir string, now time.Time, session, prompt, previous string, q search.Query, results []search.Result) {
	query := q.String()
	clipped := len(prompt) > injections.MaxPrompt
	if clipped {
		prompt = text.Clip(prompt, injections.MaxPrompt)
	}
	b := make([]byte, 0, len(query)+len(prompt)+len(previous)+(len(query)+len(prompt))/8+128*(len(results)+2))
	b = append(b, `{"time":`...)
	b = appendJSONString(b, now.UTC().Format(time.RFC3339Nano))
	if session != "" {
		b = append(b, `,"session":`...)
		b = appendJSONString(b, session)
	}
	b = append(b, `,"prompt":`...)
	b = appendJSONString(b, prompt)
	if clipped {
		b = append(b, `,"clipped":true`...)
	}
	if previous != "" {
		b = append(b, `,"previous":`...)
		b = appendJSONString(b, previous)
	}
	b = append(b, `,"query":`...)
	b = appendJSONString(b, query)
	b = append(b, `,"injected":`...)
	b = strconv.AppendBool(b, len(results) > 0)
	if len(results) > 0 {
		b = append(b, `,"results":[`...)
		for i, r := range results {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"slug":`...)
			b = appendJSONString(b, r.Slug)
			b = append(b, `,"score":`...)
			b = strconv.AppendFloat(b, r.Score, 'g', -1, 64)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	logfile.Append(filepath.Join(stateDir, injections.Log), string(b))
}
