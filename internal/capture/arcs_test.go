package capture

import (
	"fmt"
	"strings"
	"testing"
)

// session numbers lines given as "role: text".
func session(lines ...string) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		role, text, _ := strings.Cut(l, ": ")
		out[i] = Line{N: i + 1, Role: role, Text: text, Repeat: 1}
	}
	return out
}

func arcString(arcs []Arc) string {
	var parts []string
	for _, a := range arcs {
		s := fmt.Sprintf("%s L%d", a.Kind, a.Line)
		if a.By > 0 {
			s += fmt.Sprintf(" by L%d", a.By)
		}
		if a.How != "" {
			s += " (" + a.How + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestFindArcs(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{
			name: "the developer rejects a diagnosis",
			lines: []string{
				"user: the nightly export is empty since monday",
				"assistant: The export is empty because the cron job runs before the snapshot finishes.",
				"tool: Edit /srv/export/cron.yaml",
				"user: no, that's not it. the snapshot finished at 01:10 and the job ran at 02:00",
				"assistant: Then the filter must be dropping rows; let me look at the query.",
			},
			want: "overturned L2 by L4 (the developer rejected it)",
		},
		{
			name: "a guess checked and then said as found",
			lines: []string{
				"user: the quota report flags every fileset",
				"assistant: Dividing by 1024 cubed leaves every number 1024 times too small, so I suspect the report's block fields are KiB, not bytes.",
				"tool: Bash mmlsquota -j chem --block-size auto",
				"out: chem FILESET 4.54T 5T",
				"assistant: mmlsquota agrees: the report's block fields are KiB.",
			},
			want: "confirmed L2 by L5",
		},
		{
			name: "a guess said again before anything was checked",
			lines: []string{
				"assistant: I suspect the report's block fields are KiB, not bytes.",
				"assistant: So the report's block fields are KiB; I'll change the divisor.",
			},
			want: "unconfirmed L1",
		},
		{
			name: "a guess checked and then denied",
			lines: []string{
				"assistant: I suspect the report's block fields are KiB.",
				"tool: Bash mmlsquota -j chem --block-size auto",
				"out: chem FILESET 4.54G 5T",
				"assistant: The report's block fields are not KiB after all.",
			},
			want: "unconfirmed L1",
		},
		{
			name: "an assistant's guess the developer says again",
			lines: []string{
				"assistant: I suspect the report's block fields are KiB, not bytes.",
				"tool: Bash mmlsquota -j chem --block-size auto",
				"out: chem FILESET 4.54T 5T",
				"user: ok so the report's block fields are KiB then",
			},
			want: "unconfirmed L1",
		},
		{
			name: "still failing after the fix",
			lines: []string{
				"assistant: Raising the pool size should fix the timeouts.",
				"tool: Edit config/pool.yaml",
				"user: still failing, same error in CI",
			},
			want: "overturned L1 by L3 (the developer rejected it)",
		},
		{
			name: "a run fails after a fix is claimed",
			lines: []string{
				"assistant: Pinning the resolver version should fix the build.",
				"tool: Bash make build",
				"error: Exit code 2 resolver: unknown flag --legacy",
				"assistant: The flag was removed in that version too.",
			},
			want: "overturned L1 by L3 (a later run failed)",
		},
		{
			name: "a fix followed by a passing run stands",
			lines: []string{
				"assistant: Pinning the resolver version should fix the build.",
				"tool: Bash make build",
				"out: ok 12 packages built",
			},
			want: "",
		},
		{
			name: "the assistant retracts its first guess",
			lines: []string{
				"assistant: The upload stalls because the proxy buffers the whole request body before forwarding it.",
				"tool: Bash curl -v https://staging/upload",
				"out: < HTTP/2 200",
				"assistant: That rules out my first guess. The proxy streams the body fine; the stall is in the virus scanner, which holds the file until its signatures refresh.",
				"assistant: Found it: the scanner refreshes its signatures on every upload.",
			},
			want: "overturned L1 by L4 (retracted)",
		},
		{
			name: "the retraction names what was not the cause, the summary restates the real one",
			lines: []string{
				"assistant: The totals drift because the rounding mode is banker's rounding, which explains the odd cents.",
				"assistant: Found it: the report joins each refund twice, so refunds are counted double.",
				"assistant: Fixed. Cause: the report joins each refund twice. Not the cause: the rounding mode. Banker's rounding only moves half cents.",
			},
			want: "overturned L1 by L3 (retracted)",
		},
		{
			name: "actually, followed by the same diagnosis, is a restatement",
			lines: []string{
				"assistant: The issue is that the worker never acks messages from the retry queue.",
				"assistant: Actually, the real issue is that the worker never acks the retry queue messages.",
			},
			want: "",
		},
		{
			name: "agreeing takes back the assistant's own claim, not the developer's",
			lines: []string{
				"assistant: The 502s come from the app crashing under load.",
				"user: the app logs are clean. i bet the load balancer idle timeout is shorter than the app's keepalive",
				"assistant: You're right: the app never crashed. The load balancer idle timeout is 60s and the app keeps connections for 75s; that is the cause.",
			},
			want: "overturned L1 by L3 (retracted); confirmed L2 by L3",
		},
		{
			name: "a hypothesis never confirmed",
			lines: []string{
				"assistant: I suspect the search index is stale after the migration, but it is not confirmed yet.",
				"user: ok leave it for today",
			},
			want: "unconfirmed L1",
		},
		{
			name: "a weak hedge about a cause is a hypothesis; one about anything else is not",
			lines: []string{
				"assistant: The slowdown might be caused by the new logging middleware.",
				"assistant: It might be nicer to name the flag --quiet.",
			},
			want: "unconfirmed L1",
		},
		{
			name: "a hypothesis confirmed later",
			lines: []string{
				"assistant: I suspect the search index is stale after the migration.",
				"tool: Bash mem index --check",
				"assistant: Confirmed: the index is stale; the migration never rebuilt it.",
			},
			want: "confirmed L1 by L3",
		},
		{
			name: "a no to a question overturns nothing",
			lines: []string{
				"assistant: Shall I push the branch?",
				"user: no, keep it local",
			},
			want: "",
		},
		{
			name: "a plain session has no arcs",
			lines: []string{
				"user: rename the flag to --dry-run",
				"tool: Edit cmd/root.go",
				"assistant: Renamed, and the docs say --dry-run now.",
			},
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := arcString(FindArcs(session(tt.lines...))); got != tt.want {
				t.Errorf("arcs:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestArcNotesInDigest(t *testing.T) {
	s := &Session{Lines: session(
		"assistant: The export is empty because the cron job runs too early.",
		"user: no, that's not it",
	)}
	s.Arcs = FindArcs(s.Lines)
	want := "L1 assistant [overturned by L2: the developer rejected it]: The export is empty because the cron job runs too early.\n" +
		"L2 user [overturns L1]: no, that's not it"
	if got := s.Digest(0); got != want {
		t.Errorf("digest:\n got %q\nwant %q", got, want)
	}
}
