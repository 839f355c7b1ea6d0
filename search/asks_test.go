package search

import "testing"

func TestAsksOf(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   asks
	}{
		{"explain how kafka consumer group rebalancing works, short version", asksGeneral},
		{"can you explain the difference between a Deployment and a StatefulSet", asksGeneral},
		{"explain pg_advisory_xact_lock vs pg_advisory_lock", asksGeneral},
		{"whats the difference between helm upgrade --install and helm install", asksGeneral},
		{"What’s the difference between val and const val in kotlin?", asksGeneral},
		{"what does `set -euo pipefail` do exactly", asksGeneral},
		{"does azure front door support websockets?", asksGeneral},
		{"how does rust's borrow checker work", asksGeneral},
		{"awk one-liner to sum the third column of a csv?", asksGeneral},
		{"write a one liner that lists files bigger than 100MB", asksGeneral},
		{"write a regex that matches an ISO 8601 date", asksGeneral},
		{"regex for a US zip code, rough is fine", asksGeneral},
		{"whats a good regex for a hex string of exactly 40 chars", asksGeneral},
		{"rename `apptCount` to `appointmentCount` in day-summary.component.ts", asksForm},
		{"please fix the typo 'Reciept' in src/i18n/en.json", asksForm},
		{"fix the eslint no-unused-vars warning in StepHeader.tsx", asksForm},
		{"reformat this sql so it's readable: ```select 1```", asksForm},
		{"sort the imports in AppointmentController.java", asksForm},
		{"add alt text to the clinic logo in the header", asksForm},
		{"add type hints to parse_rows", asksForm},
		{"remove the leftover console.log calls in ReviewScreen.tsx", asksForm},

		// The team's own way, a question about the project, a paste asked about.
		{"explain how our deploy pipeline works", asksProject},
		{"what's the difference between how we tag releases and hotfixes", asksProject},
		{"rename the column, we use expand-contract for that", asksProject},
		{"explain why the nightly job failed", asksProject},
		{"how do i run ledger's tests locally?", asksProject},
		{"how does that even happen, is stripe sending stuff twice?", asksProject},
		{"what does this mean ```\nERROR worker.go:88 timeout after 30s\n```", asksProject},
		{"what should the schedule page say when it fails to load?", asksProject},
		{"fix the flaky reminder test", asksProject},
		{"add a retry to the webhook handler", asksProject},
		{"remove the feature flag for the new checkout", asksProject},
		{"the regex in validate_phone rejects +44 numbers, fix it", asksProject},
		{"fix the regex that rejects +44 numbers", asksProject},
		{"change the regex to allow a plus sign", asksProject},
		{"add a regex check to the signup email field", asksProject},
		{"the one-liner in deploy.sh breaks on paths with spaces", asksProject},
		{"write a regex that matches our ticket ids like FH-2301", asksProject},
		{"rename it, we’re on camelCase now", asksProject},
		{"explain how the US region's failover works for us", asksProject},
		{"one more thing: the retry test is flaky", asksProject},
		{"", asksProject},
	} {
		if got := parsePrompt(c.prompt).asks; got != c.want {
			t.Errorf("%q: asks %d, want %d", c.prompt, got, c.want)
		}
	}
}
