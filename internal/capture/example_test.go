package capture_test

import (
	"fmt"

	"github.com/mem-dev/mem/internal/capture"
)

func ExampleCheck() {
	// find is the caller's search over its store.
	find := func(q string) (string, float64) {
		if q == "Never force-push main. Use a revert PR instead" {
			return "never-force-push-main", 0.93
		}
		return "", 0
	}
	keep, skipped := capture.Check([]capture.Proposal{
		{Name: "Never force-push main", Description: "Use a revert PR instead", Class: "rule", Body: "Revert, never force-push."},
		{Name: "Staging DB moved to pg16", Class: "fact", Importance: 8, Body: "Staging Postgres is atlas-staging-pg16.", Why: "The old host was deleted."},
		{Name: "Session summary", Class: "diary", Body: "Today we edited three files."},
	}, capture.Input{Find: find, Max: 5})
	for _, p := range keep {
		fmt.Printf("keep %s (importance %d)\n%s\n", p.Name, p.Importance, p.Text())
	}
	for _, s := range skipped {
		fmt.Printf("skip %s: %s\n", s.Proposal.Name, s.Reason)
	}
	// Output:
	// keep Staging DB moved to pg16 (importance 8)
	// Staging Postgres is atlas-staging-pg16.
	//
	// **Why:** The old host was deleted.
	// skip Session summary: class "diary" is not one of rule|fact|event|gotcha|reference|procedure|preference|decision
	// skip Never force-push main: store already holds never-force-push-main (score 0.93)
}
