package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// ArcLabel is one labelled arc of a session: what a reader found became of
// the statement on a line of the transcript (its JSONL line, 1-based, not a
// digest line). Kind is Overturned, Unconfirmed, Confirmed or "stated" (a
// decision or rule the developer stated, or the assistant's restatement of
// one); By is the first line that overturned or confirmed it (for a
// restatement, the developer's line it restates); Who is "developer" or
// "assistant", who made the statement.
type arcLabel struct {
	Line int    `json:"line"`
	Kind string `json:"kind"`
	By   int    `json:"by"`
	Who  string `json:"who"`
	Says string `json:"says"`
}

const stated = "stated"

// markCount is how FindArcs' marks of one kind compare with the labels.
type markCount struct {
	marks, right   int // marks made, and those a labelled arc of the kind is at
	labels, found  int // labelled arcs, and those a mark of the kind is at
	onStated       int // marks on a line labelled stated: a decision taken for a guess
	wrong, missing []string
}

// add counts o's marks and labels in c as well.
func (c *markCount) add(o *markCount) {
	c.marks += o.marks
	c.right += o.right
	c.labels += o.labels
	c.found += o.found
	c.onStated += o.onStated
	c.wrong = append(c.wrong, o.wrong...)
	c.missing = append(c.missing, o.missing...)
}

func (c markCount) precision() float64 { return ratio(c.right, c.marks) }
func (c markCount) recall() float64    { return ratio(c.found, c.labels) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// jsonlLines maps each digest line of s (by its N) to the transcript line
// its entry came from, as the labels number them.
func jsonlLines(raw []byte, s *Session) map[int]int {
	at := map[int]int{}
	for _, l := range s.Lines {
		at[l.N] = bytes.Count(raw[:l.Offset], []byte("\n")) + 1
	}
	return at
}

// measureMarks compares FindArcs' marks on every labelled session in dir
// with its labels, per kind. A mark is right when a labelled arc of its kind
// is at its statement's line and, for Overturned and Confirmed, has its By
// line; a label found likewise.
// Counts are by Kind, and by markKind under the key "by " + markKind.
func measureMarks(t *testing.T, dir string, labels map[string]struct{ Arcs []arcLabel }) map[string]*markCount {
	t.Helper()
	counts := map[string]*markCount{Overturned: {}, Unconfirmed: {}, Confirmed: {}}
	for _, how := range []string{howRejected, howRetracted, howRunFailed} {
		counts["by "+markKind(Arc{Kind: Overturned, How: how})] = &markCount{}
	}
	names := make([]string, 0, len(labels))
	for name := range labels {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadSession(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		at := jsonlLines(raw, s)
		shown := map[int]bool{}
		for _, j := range at {
			shown[j] = true
		}
		arcs := labels[name].Arcs
		for _, l := range arcs {
			if !shown[l.Line] || (l.By > 0 && !shown[l.By]) {
				t.Errorf("%s: the label at line %d (by %d) names a line the digest does not show", name, l.Line, l.By)
			}
		}
		// by reports whether a mark's By line is the label's: the same line,
		// or, where the label names the tool output that settled the
		// statement, the first line spoken after it, which says so.
		by := func(mark int, label int) bool {
			if at[mark] == label {
				return true
			}
			for i, l := range s.Lines {
				if at[l.N] != label || l.Role == RoleUser || l.Role == RoleAssistant {
					continue
				}
				for _, next := range s.Lines[i+1:] {
					if next.Role == RoleUser || next.Role == RoleAssistant {
						return next.N == mark
					}
				}
			}
			return false
		}
		matches := func(a Arc, l arcLabel) bool {
			return l.Kind == a.Kind && l.Line == at[a.Line] && (a.Kind == Unconfirmed || by(a.By, l.By))
		}
		for _, a := range s.Arcs {
			c := counts[a.Kind]
			c.marks++
			if h := counts["by "+markKind(a)]; h != nil {
				h.marks++
			}
			if slices.ContainsFunc(arcs, func(l arcLabel) bool { return matches(a, l) }) {
				c.right++
				if h := counts["by "+markKind(a)]; h != nil {
					h.right++
				}
				continue
			}
			c.wrong = append(c.wrong, fmt.Sprintf("%s line %d by %d", name, at[a.Line], at[a.By]))
			if a.Kind != Confirmed && slices.ContainsFunc(arcs, func(l arcLabel) bool { return l.Kind == stated && l.Line == at[a.Line] }) {
				c.onStated++
			}
		}
		for _, l := range arcs {
			c, ok := counts[l.Kind]
			if !ok {
				continue // stated: no mark of its own
			}
			c.labels++
			if slices.ContainsFunc(s.Arcs, func(a Arc) bool { return matches(a, l) }) {
				c.found++
			} else {
				c.missing = append(c.missing, fmt.Sprintf("%s line %d by %d (%s)", name, l.Line, l.By, l.Says))
			}
		}
	}
	return counts
}

func markTable(counts map[string]*markCount) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %-16s %-16s %s\n", "kind", "precision", "recall", "on a stated line")
	for _, k := range []string{Overturned, Unconfirmed, Confirmed} {
		c := counts[k]
		fmt.Fprintf(&b, "%-12s %-16s %-16s %d\n", k,
			fmt.Sprintf("%d/%d (%.2f)", c.right, c.marks, c.precision()),
			fmt.Sprintf("%d/%d (%.2f)", c.found, c.labels, c.recall()), c.onStated)
		for _, w := range c.wrong {
			fmt.Fprintf(&b, "  wrong mark: %s\n", w)
		}
		for _, m := range c.missing {
			fmt.Fprintf(&b, "  missed: %s\n", m)
		}
		if k == Overturned {
			for _, how := range []string{howRejected, howRetracted, howRunFailed} {
				h := counts["by "+markKind(Arc{Kind: k, How: how})]
				fmt.Fprintf(&b, "  %-26s %d/%d\n", how, h.right, h.marks)
			}
		}
	}
	return b.String()
}

func readArcLabels(t *testing.T, path string) map[string]struct{ Arcs []arcLabel } {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var labels map[string]struct{ Arcs []arcLabel }
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return labels
}

// TestMarksOnDevSessions measures FindArcs' marks against the arcs labelled
// in the dev sessions (testdata/dev-arcs.json, lines of
// ../shared/eval/capture/d0N.jsonl), per kind, and holds floors on them;
// go test -v logs the table.
func TestMarksOnDevSessions(t *testing.T) {
	counts := measureMarks(t, shareddata.Need(t, "eval", "capture"), readArcLabels(t, filepath.Join("testdata", "dev-arcs.json")))
	t.Logf("FindArcs on the dev sessions:\n%s", markTable(counts))
	floors := map[string]struct{ precision, recall float64 }{
		Overturned:  {1, 2.0 / 3},
		Unconfirmed: {1, 1},
		Confirmed:   {1, 0.5},
	}
	for k, f := range floors {
		c := counts[k]
		if c.precision() < f.precision || c.recall() < f.recall {
			t.Errorf("%s marks: precision %.2f, recall %.2f; floors %.2f and %.2f", k, c.precision(), c.recall(), f.precision, f.recall)
		}
		if c.onStated > 0 {
			t.Errorf("%s marks on %d lines that state a decision", k, c.onStated)
		}
	}
}

// longSets are the directories of long sessions (testdata/long*), each
// with its arcs labelled in labels.json.
func longSets(t *testing.T) []string {
	t.Helper()
	labels, err := filepath.Glob(filepath.Join("testdata", "long*", "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, l := range labels {
		dirs = append(dirs, filepath.Dir(l))
	}
	return dirs
}

// measureLongMarks measures the marks on every long set, counted together.
func measureLongMarks(t *testing.T) map[string]*markCount {
	t.Helper()
	var all map[string]*markCount
	for _, dir := range longSets(t) {
		counts := measureMarks(t, dir, readArcLabels(t, filepath.Join(dir, "labels.json")))
		if all == nil {
			all = counts
			continue
		}
		for k, c := range counts {
			all[k].add(c)
		}
	}
	return all
}

// TestMarksOnLongSessions measures the marks on the long sessions, for the
// record, with no floor: capture's prompt and guard were not tuned on
// them, and of FindArcs only settles was chosen on one of them (long/s2,
// where the assistant confirmed its own guess in the guess's words and no
// cue caught it).
func TestMarksOnLongSessions(t *testing.T) {
	counts := measureLongMarks(t)
	if counts == nil {
		t.Skip("skipping: no long sessions under testdata")
	}
	t.Logf("FindArcs on the long sessions:\n%s", markTable(counts))
}

// TestTrustedMarks holds that the guard drops a proposal on a kind of mark
// (trustedMarks) only where marks of that kind are measured precise, nine
// in ten right at least, on every labelled session: the dev sessions and
// every long set together.
func TestTrustedMarks(t *testing.T) {
	counts := measureMarks(t, shareddata.Need(t, "eval", "capture"), readArcLabels(t, filepath.Join("testdata", "dev-arcs.json")))
	for k, c := range measureLongMarks(t) {
		counts[k].add(c)
	}
	for _, k := range []string{markKind(Arc{Kind: Overturned, How: howRejected}), markKind(Arc{Kind: Overturned, How: howRetracted}),
		markKind(Arc{Kind: Overturned, How: howRunFailed}), Unconfirmed} {
		c := counts[k]
		if h := counts["by "+k]; h != nil {
			c = h
		}
		if precise := c.marks > 0 && 10*c.right >= 9*c.marks; precise != trustedMarks[k] {
			t.Errorf("the guard trusts %q marks: %v; measured %d right of %d", k, trustedMarks[k], c.right, c.marks)
		}
	}
}
