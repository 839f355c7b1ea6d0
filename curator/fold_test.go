package curator

import (
	"context"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

// pairFoldMerge answers a pair prompt "partial", a fold prompt with fold
// and a merge prompt with merge, and counts the fold and merge prompts.
type pairFoldMerge struct {
	fold, merge   string // the JSON answers
	folds, merges int
}

func (a *pairFoldMerge) Ask(_ context.Context, prompt string, out any) error {
	switch {
	case strings.Contains(prompt, "one note written twice"):
		a.folds++
		return (&modeltest.Asker{Answer: a.fold}).Ask(context.Background(), prompt, out)
	case strings.Contains(prompt, "=== kept memory "):
		a.merges++
		return (&modeltest.Asker{Answer: a.merge}).Ask(context.Background(), prompt, out)
	}
	return modeltest.Decode(Verdict{Relation: RelPartial, Confidence: 0.85, Coverage: CoveragePartial, Reason: "each says something the other does not"}, out)
}

// A pair the first reading finds to overlap in part is asked about once
// more: one note written twice is merged as a duplicate, under every guard;
// two notes, or no answer, stay as they are; a pair no merge could ever be
// applied to (a rule and a look-alike event) is not asked about.
func TestRunFolds(t *testing.T) {
	merged := mergeAnswer(t, Merge{Body: "Since ledger#118 (merged 2026-09-14) the ledger dev server listens on 8700, because mkdocs serve took 8000. " +
		"Run `uvicorn app.main:app --reload` in ledger/. Ask Maya about the reload flag; it needs Python 3.12. " +
		"The Stripe CLI forwards to it with `stripe listen --forward-to localhost:8000/webhooks`."})
	rule := mem("never-deploy-fridays", "rule", "Never deploy on Fridays", "no prod deploys on Friday",
		[]string{"deploy", "friday", "prod", "hotfix", "security"}, "No production deploys on Fridays; an emergency needs Sam's go in #deploys.\n")
	event := mem("friday-security-hotfix-2026-10-02", "event", "Friday security hotfix deployed", "prod deploy on Friday 2026-10-02",
		[]string{"deploy", "friday", "prod", "hotfix", "security"}, "On Friday 2026-10-02 we deployed a security hotfix to prod; Sam declared it in #deploys.\n")
	one := `{"notes": "one", "keep": "` + portNew.Slug + `", "confidence": 0.8, "reason": "one port note written twice"}`
	tests := []struct {
		name          string
		a, b          Memory
		fold          string
		folds, merges int    // prompts asked
		applied       bool   // a merge applied, keeping portNew
		review        string // the review reason holds it; "" for none
	}{
		{"one note: merged", portOld, portNew, one, 1, 1, true, ""},
		{"two notes: left alone", portOld, portNew, `{"notes": "two", "keep": "", "confidence": 0.9, "reason": "different subjects"}`, 1, 0, false, ""},
		{"one note, unsure: queued", portOld, portNew, strings.Replace(one, "0.8", "0.5", 1), 1, 0, false, "confidence 0.50<0.60"},
		{"no answer: left alone", portOld, portNew, `{}`, 1, 0, false, ""},
		{"rule and look-alike event: not asked", rule, event, one, 0, 0, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &pairFoldMerge{fold: tc.fold, merge: merged}
			r, err := Run(context.Background(), []Memory{tc.a, tc.b}, Options{Model: a})
			if err != nil {
				t.Fatal(err)
			}
			if a.folds != tc.folds || a.merges != tc.merges {
				t.Errorf("%d fold and %d merge prompts, want %d and %d", a.folds, a.merges, tc.folds, tc.merges)
			}
			switch {
			case tc.applied:
				if len(r.Apply) != 1 || r.Apply[0].Keep != portNew.Slug || r.Apply[0].Merged == "" || len(r.Review) != 0 {
					t.Errorf("apply %+v review %+v, want %s merged into %s", r.Apply, r.Review, portOld.Slug, portNew.Slug)
				}
			case tc.review != "":
				if len(r.Apply) != 0 || len(r.Review) != 1 || !strings.Contains(r.Review[0].Reason, tc.review) {
					t.Errorf("apply %+v review %+v, want it queued for %q", r.Apply, r.Review, tc.review)
				}
			default:
				if len(r.Apply) != 0 || len(r.Review) != 0 {
					t.Errorf("apply %+v review %+v, want nothing", r.Apply, r.Review)
				}
			}
		})
	}
}
