package capture

import (
	"strings"
	"testing"
)

func TestRelated(t *testing.T) {
	s := &Session{Lines: session(
		"user: the export to the warehouse is empty",
		"tool: Bash psql -h localhost -p 15433 -c 'select 1'",
		"assistant: Found it: the filter compares the local date with UTC.",
		"out: 1",
	)}
	s.Lines[0].Seen = true // captured before: not searched
	var asked []string
	find := func(q string, limit int) []Hit {
		asked = append(asked, q)
		switch {
		case strings.Contains(q, "\n"): // the whole new text
			return []Hit{{"timezones", 0.1}, {"db-tunnel", 0.08}, {"deploys", 0.05}}
		case strings.Contains(q, "15433"):
			return []Hit{{"db-tunnel", 0.6}, {"psql-tips", 0.2}}
		case strings.Contains(q, "UTC"):
			return []Hit{{"timezones", 0.35}}
		}
		return nil
	}
	got := Related(s, find, []string{"earlier-one"}, 3)
	if want := "earlier-one,db-tunnel,timezones"; strings.Join(got, ",") != want {
		t.Errorf("Related = %v, want %s", got, want)
	}
	for _, q := range asked {
		if strings.Contains(q, "warehouse") || strings.HasPrefix(q, "Bash") || q == "1" {
			t.Errorf("asked %q: seen lines, tool names and outputs are no queries", q)
		}
	}
	if got := Related(&Session{}, find, nil, 0); got != nil {
		t.Errorf("an empty session: %v", got)
	}
}
