package capture

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/class"
	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

func answerOf(ps ...Proposal) string {
	return mustJSON(map[string]any{"memories": ps})
}

func prop(name, class string, importance int) Proposal {
	return Proposal{
		Name:        name,
		Description: "About " + name,
		Class:       class,
		Importance:  importance,
		Tags:        []string{"Billing", "tax rules", "billing", ""},
		Body:        "Knowledge about " + name + ".",
		Why:         "Because of " + name + ".",
	}
}

func names(ps []Proposal) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// readSession reads a transcript written by writeTranscript.
func readSession(t testing.TB, path string) *Session {
	t.Helper()
	s, err := ReadSession(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPropose(t *testing.T) {
	session := readSession(t, writeTranscript(t,
		userLine("Spanish VAT must be rounded per line; finance says so."),
		textLine("Done: rounding per line now, because the total was off by a cent."),
	))
	held := func(q string) (string, float64) {
		switch {
		case strings.Contains(q, "Deploy on Wednesdays"):
			return "release-day-wednesday", 0.91
		case strings.Contains(q, "Staging DB"):
			return "staging-db-host", HeldScore - 0.01 // related, not the same knowledge
		}
		return "", 0
	}
	long := prop("Long body", "fact", 5)
	long.Body = strings.Repeat("word ", MaxBody/5+1)
	dupBody := prop("VAT rounding rule", "gotcha", 6)
	dupBody.Body = "Knowledge about VAT per line."
	tests := []struct {
		name     string
		answer   []Proposal
		max      int
		keep     []string
		skipped  map[string]string // name → a part of the reason
		validate func(t *testing.T, keep []Proposal)
	}{
		{
			name:   "valid proposals kept, most important first",
			answer: []Proposal{prop("VAT per line", "gotcha", 6), prop("Finance owns rounding", "decision", 9)},
			keep:   []string{"Finance owns rounding", "VAT per line"},
		},
		{
			name: "invalid class, empty body, no name",
			answer: []Proposal{
				prop("Odd class", "insight", 5),
				{Name: "Empty body", Class: "fact", Body: "  \n "},
				{Name: " ", Class: "fact", Body: "x"},
				{Name: "!!!", Class: "fact", Body: "x"},
				long,
			},
			skipped: map[string]string{"Odd class": "class", "Empty body": "empty body", " ": "no name", "!!!": "no words", "Long body": "limit 1500"},
		},
		{
			name:   "class is case-insensitive, importance out of range becomes 5, tags cleaned",
			answer: []Proposal{prop("Mixed case class", " Gotcha ", 0), prop("Too important", "rule", 11)},
			keep:   []string{"Mixed case class", "Too important"},
			validate: func(t *testing.T, keep []Proposal) {
				for _, p := range keep {
					if p.Importance != DefaultImportance {
						t.Errorf("%s: importance %d, want %d", p.Name, p.Importance, DefaultImportance)
					}
					if got := strings.Join(p.Tags, ","); got != "billing,tax-rules" {
						t.Errorf("%s: tags %q", p.Name, got)
					}
				}
				if keep[0].Class != "gotcha" {
					t.Errorf("class %q, want gotcha", keep[0].Class)
				}
			},
		},
		{
			name: "a long description is cut after a whole clause, never inside the one that says it is not so",
			answer: []Proposal{{Name: "Payout gap is refunds", Class: "gotcha", Importance: 6, Body: "x",
				Description: "When a studio's payout report exceeds what Stripe paid, count the refunds: a refunded destination charge is its own negative payment_refund balance transaction on the connected account and must be counted; float summing in totals() is not the cause, as the round amount of the gap shows"}},
			keep: []string{"Payout gap is refunds"},
			validate: func(t *testing.T, keep []Proposal) {
				d := keep[0].Description
				if !strings.HasSuffix(d, "must be counted…") || len(d) > maxDescription {
					t.Errorf("description %q (%d bytes): want it cut after \"must be counted\", within %d bytes", d, len(d), maxDescription)
				}
			},
		},
		{
			name:    "the store already holds one",
			answer:  []Proposal{prop("Deploy on Wednesdays", "rule", 8), prop("Staging DB moved to pg16", "fact", 7)},
			keep:    []string{"Staging DB moved to pg16"},
			skipped: map[string]string{"Deploy on Wednesdays": "store already holds release-day-wednesday (score 0.91)"},
		},
		{
			name: "repeats within the answer",
			answer: []Proposal{
				prop("VAT per line", "gotcha", 6),
				prop("VAT  per line!", "gotcha", 5), // same slug
				{Name: "Rounding of VAT", Description: "About VAT per line", Class: "gotcha", Importance: 4, Body: "Other words entirely here."},
				dupBody,
			},
			keep:    []string{"VAT per line"},
			skipped: map[string]string{"VAT per line!": "repeats vat-per-line", "Rounding of VAT": "repeats vat-per-line", "VAT rounding rule": "repeats vat-per-line"},
		},
		{
			name: "more than max",
			answer: []Proposal{
				prop("One alpha", "fact", 3), prop("Two bravo", "fact", 9), prop("Three charlie", "fact", 5),
				prop("Four delta", "fact", 9), prop("Five echo", "fact", 1),
			},
			max:     3,
			keep:    []string{"Two bravo", "Four delta", "Three charlie"},
			skipped: map[string]string{"One alpha": "over the limit of 3", "Five echo": "over the limit of 3"},
		},
		{
			name:    "default max is 5",
			answer:  []Proposal{prop("A one", "fact", 5), prop("B two", "fact", 5), prop("C three", "fact", 5), prop("D four", "fact", 5), prop("E five", "fact", 5), prop("F six", "fact", 5)},
			keep:    []string{"A one", "B two", "C three", "D four", "E five"},
			skipped: map[string]string{"F six": "over the limit of 5"},
		},
		{
			name:   "nothing durable",
			answer: []Proposal{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &modeltest.Asker{Answer: answerOf(tt.answer...)}
			keep, skipped, err := Propose(context.Background(), a, Input{Session: session, Find: held, Max: tt.max})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(names(keep), "|"), strings.Join(tt.keep, "|"); got != want {
				t.Errorf("kept %q, want %q", got, want)
			}
			if len(skipped) != len(tt.skipped) {
				t.Errorf("skipped %d, want %d: %+v", len(skipped), len(tt.skipped), skipped)
			}
			for _, s := range skipped {
				want, ok := tt.skipped[s.Proposal.Name]
				if !ok || !strings.Contains(s.Reason, want) {
					t.Errorf("skipped %q for %q, want a reason with %q", s.Proposal.Name, s.Reason, want)
				}
				// Refused: the proposal was at fault; skipped: held, repeated, over the limit.
				passedOver := strings.HasPrefix(s.Reason, "store already holds") || strings.HasPrefix(s.Reason, "repeats ") || strings.HasPrefix(s.Reason, "over the limit")
				if s.Refused == passedOver {
					t.Errorf("%q (%s): refused is %v", s.Proposal.Name, s.Reason, s.Refused)
				}
			}
			for _, p := range keep {
				if p.Name == "" || strings.TrimSpace(p.Body) == "" || len(p.Text()) > MaxBody {
					t.Errorf("kept an invalid proposal: %+v", p)
				}
			}
			if tt.validate != nil {
				tt.validate(t, keep)
			}
			max := tt.max
			if max <= 0 {
				max = DefaultMax
			}
			if !strings.Contains(a.Prompt(), fmt.Sprintf("at most %d memories", max)) {
				t.Errorf("the prompt does not state the limit of %d", max)
			}
		})
	}
}

func TestProposeErrors(t *testing.T) {
	session := readSession(t, writeTranscript(t, userLine("remember: never deploy on Fridays")))
	down := errors.New("model down")
	if _, _, err := Propose(context.Background(), &modeltest.Asker{Err: down}, Input{Session: session}); !errors.Is(err, down) {
		t.Errorf("model failure: got %v, want it wrapped", err)
	}
	if _, err := ReadSession(filepath.Join(t.TempDir(), "missing.jsonl"), 0); err == nil {
		t.Error("missing transcript: want an error")
	}
	if _, _, err := Propose(context.Background(), nil, Input{Session: session}); err == nil {
		t.Error("nil modelcmd.Asker: want an error")
	}
	// Unknown fields are the runner's to reject; the fake rejects them too.
	// So is an answer without its list: {} is no answer, not "nothing to
	// store", which is the empty list.
	for _, answer := range []string{`{"memories":[],"extra":1}`, `{}`, `{"memories":null}`} {
		if _, _, err := Propose(context.Background(), &modeltest.Asker{Answer: answer}, Input{Session: session}); err == nil {
			t.Errorf("answer %s: want an error", answer)
		}
	}
	keep, skipped, err := Propose(context.Background(), &modeltest.Asker{Answer: `{"memories":[]}`}, Input{Session: session})
	if err != nil || len(keep)+len(skipped) != 0 {
		t.Errorf(`{"memories":[]}: %v, %v, %v; want nothing to store and no error`, keep, skipped, err)
	}
}

func TestProposeAsksNothingWithoutNewLines(t *testing.T) {
	a := &modeltest.Asker{Answer: answerOf(prop("Anything", "fact", 5))}
	empty := readSession(t, writeTranscript(t, metaLine("<x>caveat</x>")))
	path := writeTranscript(t, userLine("never deploy on Fridays"), textLine("Noted."))
	seen, err := ReadSession(path, readSession(t, path).End)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Session{nil, empty, seen} {
		keep, skipped, err := Propose(context.Background(), a, Input{Session: s})
		if err != nil || keep != nil || skipped != nil || a.Calls() != 0 {
			t.Fatalf("got %v %v %v after %d calls; want nothing, no call", keep, skipped, err, a.Calls())
		}
	}
}

func TestPrompt(t *testing.T) {
	digest := "L1 user: never force-push main\nL2 assistant: noted"
	held := []Held{
		{Slug: "release-day", Name: "Release on Wednesdays", Description: "Releases go out on Wednesdays", Class: "rule"},
		{Slug: "vat-guess", Name: "VAT guess", Description: "A guess", Class: "gotcha", Earlier: true},
	}
	p := Prompt(digest, held, 3)
	for _, want := range []string{
		"at most 3 memories",
		digest,
		`"why"`,
		"why it was made",
		`{"memories":[]}`,
		"empty list",
		"Do not propose",
		"already says",
		"overturned",
		"never confirmed",
		`"basis"`,
		`"lines"`,
		`"updates"`,
		"- release-day (rule): Release on Wednesdays — Releases go out on Wednesdays\n",
		"- vat-guess (gotcha): VAT guess — A guess [written from the earlier part of this session]\n",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	for _, c := range class.Names {
		if !strings.Contains(p, c) {
			t.Errorf("prompt does not offer class %q", c)
		}
	}
	if !strings.Contains(Prompt(digest, nil, 0), fmt.Sprintf("at most %d memories", DefaultMax)) {
		t.Error("max 0 should mean DefaultMax")
	}
	if !strings.Contains(Prompt(digest, nil, 0), "description):\n(none)\n") {
		t.Error("an empty store should be said to hold nothing")
	}
}

func TestProposalText(t *testing.T) {
	tests := []struct{ body, why, want string }{
		{"Round per line.", "Finance reconciles per line.", "Round per line.\n\n**Why:** Finance reconciles per line."},
		{"Round per line.", "", "Round per line."},
		{"Round per line.\n\n**Why:** finance.", "finance again", "Round per line.\n\n**Why:** finance."},
		{"Round per line because finance reconciles per line.", "finance reconciles per line", "Round per line because finance reconciles per line."},
	}
	for _, tt := range tests {
		if got := (Proposal{Body: tt.body, Why: tt.why}).Text(); got != tt.want {
			t.Errorf("Text(%q, %q) = %q, want %q", tt.body, tt.why, got, tt.want)
		}
	}
}

func TestCleanTags(t *testing.T) {
	long := strings.Repeat("x", maxTag+1)
	got := cleanTags([]string{"Go", "go", long, "Tax rules", "c", "d", "e", "f", "g", "h", "i"})
	if want := "go,tax-rules,c,d,e,f,g,h"; strings.Join(got, ",") != want {
		t.Errorf("cleanTags = %q, want %s (repeats and a tag over %d bytes dropped, %d at most)", got, want, maxTag, maxTags)
	}
}
