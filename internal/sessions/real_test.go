package sessions

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// TestRealTranscripts indexes every real transcript and checks the counts
// against a count made without the transcript package: grep-like scans of
// the raw lines.
func TestRealTranscripts(t *testing.T) {
	realTranscripts := shareddata.Need(t, "external", "transcripts")
	x := Open(filepath.Join(t.TempDir(), "transcripts"))
	rep, err := x.Update([]string{realTranscripts})
	if err != nil {
		t.Fatal(err)
	}
	s, err := x.Load()
	if err != nil {
		t.Fatal(err)
	}

	// The independent count.
	sessionID := regexp.MustCompile(`"sessionId":"([^"]+)"`)
	var files, lines, toolUses, errorsSeen int
	ids := map[string]bool{}
	filepath.WalkDir(realTranscripts, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		files++
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			l := sc.Text()
			if strings.TrimSpace(l) == "" {
				continue
			}
			lines++
			for _, m := range sessionID.FindAllStringSubmatch(l, -1) {
				ids[m[1]] = true
			}
			if strings.Contains(l, `"type":"progress"`) {
				continue // progress lines quote other messages
			}
			toolUses += strings.Count(l, `"type":"tool_use"`)
			errorsSeen += strings.Count(l, `"is_error":true`)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return nil
	})
	apiErrors := 0
	for _, e := range s.Errors {
		if e.Kind == KindAPI {
			apiErrors++
		}
	}
	st := s.Stats()
	t.Logf("%d files, %d lines, %d sessions, %d prompts, %d calls, %d commands, %d errors (%d api)",
		st.Files, st.Lines, st.Sessions, st.Prompts, st.Calls, st.Commands, st.Errors, apiErrors)
	check := func(what string, got, want int) {
		if got != want {
			t.Errorf("%s: indexed %d, counted %d", what, got, want)
		}
	}
	check("files", rep.Files, files)
	check("files in the index", st.Files, files)
	check("lines", st.Lines, lines)
	check("malformed lines", rep.Malformed, 0)
	check("sessions (distinct sessionId)", st.Sessions, len(ids))
	check("tool calls", st.Calls, toolUses)
	check("tool errors", st.Errors-apiErrors, errorsSeen)
	if st.Prompts == 0 || st.Commands == 0 {
		t.Errorf("no prompts (%d) or commands (%d)", st.Prompts, st.Commands)
	}
	for _, ss := range s.Sessions {
		if ss.First.IsZero() || ss.Last.Before(ss.First) {
			t.Errorf("session %s: time span %v .. %v", ss.ID, ss.First, ss.Last)
		}
	}

	// A second run reads nothing.
	rep, err = x.Update([]string{realTranscripts})
	if err != nil || rep.Read != 0 || rep.Bytes != 0 {
		t.Errorf("second update read %+v (%v)", rep, err)
	}
}
