package sweep

import (
	"strings"
	"testing"
	"time"
)

func TestDue(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		started time.Time // zero: no state file
		want    bool
	}{
		{"never ran", time.Time{}, true},
		{"an hour ago", now.Add(-time.Hour), false},
		{"just under a day ago", now.Add(-Interval + time.Minute), false},
		{"a day ago", now.Add(-Interval), true},
		{"in the future (the clock moved back)", now.Add(time.Hour), true},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if !tt.started.IsZero() {
			if err := save(dir, Run{Trigger: SessionStart, Started: tt.started}); err != nil {
				t.Fatal(err)
			}
		}
		if got := Due(dir, now); got != tt.want {
			t.Errorf("%s: Due = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestLastReadsWhatSaveWrote(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Last(dir); ok {
		t.Fatal("a run read from an empty directory")
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	run := Run{Store: "/s", Trigger: ByHand, Started: now.Add(-3 * time.Hour), Finished: now.Add(-3 * time.Hour), OK: false, Steps: []Step{
		{Name: StepEnrich, Skipped: "no model"},
		{Name: StepCurate, Summary: "1 superseded", Commits: 1},
		{Name: StepVerify, Error: "walk store: permission denied"},
	}}
	if err := save(dir, run); err != nil {
		t.Fatal(err)
	}
	got, ok := Last(dir)
	if !ok || got.Store != "/s" || len(got.Steps) != 3 {
		t.Fatalf("Last = %+v, %v", got, ok)
	}
	want := "last run 3 h ago (hand): failed; enrich skipped: no model; curate: 1 superseded; verify failed: walk store: permission denied"
	if line := got.Line(now); line != want {
		t.Errorf("Line:\n got %s\nwant %s", line, want)
	}
	run.Finished = time.Time{}
	if line := run.Line(now); !strings.Contains(line, "did not finish") {
		t.Errorf("an unfinished run: %s", line)
	}
}
