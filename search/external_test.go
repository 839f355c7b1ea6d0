package search

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/internal/transcript"
)

// TestExternalStore is a sanity check on a real store that the method was
// not tuned on (a public project's agent memories, read as test input only).
// It logs what it finds; it asserts only silence on prompts with no topic.
func TestExternalStore(t *testing.T) {
	shareddata.Need(t)
	dir := shareddata.Path("external", "memory-files", "InfernalRabbit__compose-envkit", ".claude", "agent-memory")
	docs := loadStore(t, dir, "project")
	if len(docs) < 50 {
		t.Skipf("external store has %d memories", len(docs))
	}
	ix := Build(docs)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct{ prompt, want string }{
		{"gofmt says nothing but CI lint failed, can you check before we call it done", "dod-gate-gofmt"},
		{"why does t.Setenv with an empty string still make the engine think the var is set?", "feedback-tsetenv-vs-unsetenv"},
		{"sed -i fails on my mac with 'invalid command code', how do i do an in-place replace", "macos-sed-xargs-gotcha"},
		{"the --project-dir flag seems to get passed through to docker compose, any idea why", "disableflagparsing-persistent-flag-leak"},
		{"compose-go errors when I put ${ENV} inside env_file: [a, b] list syntax", "yaml-flow-seq-interpolation"},
		{"reading a persistent flag on the root cobra command returns the default, why", "cobra-persistent-flag-read-from-root"},
		{"local golangci-lint is green but CI fails the lint step", "local-compose-version-masks-ci"},
		{"is discover_test white-box or black-box? which package should it declare", "discover-test-package"},
		{"how should I set colors for TTY output with lipgloss without touching global state", "lipgloss-termenv-color-control"},
		{"the acceptance header count keeps drifting every cycle, how do we stop that for good", "stale-count-guard-pattern"},
		{"which tier does the chain load when COMPOSE_ENV is not set", "chain-default-tier-is-dev"},
		{"ok go ahead", ""},
		{"thanks, looks good", ""},
		{"what's the capital of australia", ""},
		{"can you explain that last part more simply", ""},
	}
	hits, silent, topical, quiet := 0, 0, 0, 0
	for _, c := range cases {
		res := ix.Search(ParseQuery(c.prompt, ""), Options{Now: now})
		var got []string
		for _, r := range res {
			got = append(got, r.Slug)
		}
		if c.want == "" {
			silent++
			if len(res) == 0 {
				quiet++
			} else {
				t.Errorf("%q: want silence, got %v", c.prompt, got)
			}
			continue
		}
		topical++
		hit := false
		for i, g := range got {
			if i < 2 && g == c.want {
				hit = true
			}
		}
		if hit {
			hits++
		} else {
			t.Logf("miss %q: want %s, got %v", c.prompt, c.want, got)
		}
	}
	t.Logf("external store (%d memories): hit@2 %d/%d, silence %d/%d", len(docs), hits, topical, quiet, silent)
}

// TestForeignPromptsSilent: prompts typed on other projects (real Claude
// Code sessions) meet the Larkspur store, which knows nothing of them, with
// silence. Long prompts and briefs make up many of them; the floor is what
// the method measured when it was last changed (49 of 57: since words
// written apart meet a joined word, "add a Github Action to run tests"
// finds Larkspur's memory of its GitHub Actions workflows).
func TestForeignPromptsSilent(t *testing.T) {
	ix, _ := devIndex(t)
	foreign := foreignPrompts(t)
	if len(foreign) < 40 {
		t.Fatalf("found %d prompts in the shared transcripts", len(foreign))
	}
	m := measure(ix, foreign, &defaults)
	t.Logf("silence on %d prompts of other projects: %.2f", len(foreign), m.silence)
	if m.silence < 0.85 {
		t.Errorf("silence on prompts of other projects = %.2f, want >= 0.85", m.silence)
	}
}

// foreignPrompts are the typed prompts of real Claude Code sessions on other
// projects (../shared/external/transcripts; transcript.Entry.Prompt, which
// leaves out what the client itself wrote into the user's turn): a store
// about something else should meet every one of them with silence.
func foreignPrompts(t *testing.T) []battCase {
	var cases []battCase
	seen := map[string]bool{}
	for _, p := range shareddata.Transcripts(t) {
		r := transcript.Reader{Types: []string{"user"}}
		_, err := r.Read(p, 0, func(e transcript.Entry) error {
			text := strings.TrimSpace(e.Prompt)
			if len(text) >= 8 && !seen[text] {
				seen[text] = true
				cases = append(cases, battCase{ID: strconv.Itoa(len(cases)), Prompt: text})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return cases
}
