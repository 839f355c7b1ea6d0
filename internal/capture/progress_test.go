package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "capture")
	path := writeTranscript(t, userLine("first"), textLine("one"))
	p, err := LoadProgress(dir, path)
	if err != nil || p.Offset != 0 || len(p.Written) != 0 {
		t.Fatalf("never captured: %+v %v", p, err)
	}
	s := readSession(t, path)
	now := time.Date(2026, 11, 20, 10, 31, 0, 0, time.UTC)
	p.Advance(s, []string{"a"}, now)
	if err := p.Save(dir); err != nil {
		t.Fatal(err)
	}
	p.Advance(s, []string{"a", "b"}, now)
	if err := p.Save(dir); err != nil {
		t.Fatal(err)
	}
	got, err := LoadProgress(dir, path)
	if err != nil || got.Offset != s.End || strings.Join(got.Written, ",") != "a,b" || !got.Captured.Equal(now) {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	// Another transcript has its own progress; a damaged file is no progress.
	other := writeTranscript(t, userLine("else"))
	if q, _ := LoadProgress(dir, other); q.Offset != 0 {
		t.Errorf("another transcript's progress before it was captured: %+v", q)
	}
	os2 := readSession(t, other)
	q := Progress{Transcript: other}
	q.Advance(os2, []string{"c"}, now)
	if err := q.Save(dir); err != nil {
		t.Fatal(err)
	}
	if q, _ := LoadProgress(dir, other); q.Offset != os2.End || strings.Join(q.Written, ",") != "c" {
		t.Errorf("another transcript's progress: %+v", q)
	}
	if got, _ := LoadProgress(dir, path); got.Offset != s.End || strings.Join(got.Written, ",") != "a,b" {
		t.Errorf("the first transcript's progress after another's was saved: %+v", got)
	}
	file, _, _ := progressFile(dir, path)
	os.WriteFile(file, []byte("{not json"), 0o644)
	if q, err := LoadProgress(dir, path); err != nil || q.Offset != 0 {
		t.Errorf("damaged progress: %+v %v", q, err)
	}
}

// A second capture sees what the first did as context only, with the first
// prompt, and marks an arc that crosses the resume point.
func TestIncrementalDigest(t *testing.T) {
	first := []string{
		userLine("the nightly export is empty since monday"),
		textLine("The export is empty because the cron job starts before the snapshot finishes."),
		textLine(strings.Repeat("Unrelated chatter about the build. ", 3)),
	}
	path := writeTranscript(t, first...)
	end := readSession(t, path).End
	more := append(first,
		userLine("no, that's not it, the snapshot finished at 01:10"),
		textLine("Found it: the filter compares the local date with UTC."),
	)
	if err := os.WriteFile(path, []byte(strings.Join(more, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSession(path, end)
	if err != nil {
		t.Fatal(err)
	}
	want := "[captured before; context only]\n" +
		"L1 user: the nightly export is empty since monday\n" +
		"L2 assistant [overturned by L4: the developer rejected it]: The export is empty because the cron job starts before the snapshot finishes.\n" +
		"L3 assistant: " + strings.TrimSpace(strings.Repeat("Unrelated chatter about the build. ", 3)) + "\n" +
		"[new since the last capture]\n" +
		"L4 user [overturns L2]: no, that's not it, the snapshot finished at 01:10\n" +
		"L5 assistant: Found it: the filter compares the local date with UTC."
	if got := s.Digest(0); got != want {
		t.Errorf("digest:\n got %q\nwant %q", got, want)
	}
	// A transcript shorter than the resume point is another file: all new.
	if s, _ := ReadSession(path, 1<<40); !s.New() || strings.Contains(s.Digest(0), "captured before") {
		t.Error("a shrunk transcript should be captured from the start")
	}
	// Nothing new: nothing to send.
	if s, _ := ReadSession(path, s.End); s.New() || s.Digest(0) != "" {
		t.Error("nothing new should give an empty digest")
	}
}
