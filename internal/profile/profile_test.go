package profile

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func day(s string) time.Time {
	d, err := time.Parse(DateLayout, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestRoundTrip(t *testing.T) {
	p := Profile{Lines: []Line{
		{Text: "Prefers short answers", Said: true, Importance: 7, Added: day("2026-11-29")},
		{Text: "## Work", Heading: true},
		{Text: "Uses fish shell", Importance: 4, Added: day("2026-11-30"), Extra: "from session abc"},
		{Text: "Never wants emoji", Said: true, Importance: 9},
	}}
	data := p.Format()
	got := Parse(data)
	if got.Title != DefaultTitle {
		t.Errorf("title %q, want %q", got.Title, DefaultTitle)
	}
	for i := range got.Lines {
		got.Lines[i].FileLine = 0
	}
	if !reflect.DeepEqual(got.Lines, p.Lines) {
		t.Errorf("round trip:\n got %+v\nwant %+v\nfile:\n%s", got.Lines, p.Lines, data)
	}
	if again := got.Format(); string(again) != string(data) {
		t.Errorf("format is not stable:\n%s\n---\n%s", data, again)
	}
	if !strings.Contains(string(data), "- Uses fish shell <!-- inferred, importance 4, 2026-11-30, from session abc -->\n") {
		t.Errorf("line format:\n%s", data)
	}
}

func TestParseTolerant(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []Line
	}{
		{"no metadata is said, default importance, unknown date", "- likes tabs\n",
			[]Line{{Text: "likes tabs", Said: true, Importance: DefaultImportance, FileLine: 1}}},
		{"other markers, no marker", "* a b\n+ c d\n3. e f\n12) g h\nplain words\n",
			[]Line{
				{Text: "a b", Said: true, Importance: 5, FileLine: 1},
				{Text: "c d", Said: true, Importance: 5, FileLine: 2},
				{Text: "e f", Said: true, Importance: 5, FileLine: 3},
				{Text: "g h", Said: true, Importance: 5, FileLine: 4},
				{Text: "plain words", Said: true, Importance: 5, FileLine: 5},
			}},
		{"loose metadata", "- x <!--inferred;importance: 12 ;2026-01-02-->\n- y <!-- user said, imp 3 -->\n",
			[]Line{
				{Text: "x", Importance: 10, Added: day("2026-01-02"), FileLine: 1},
				{Text: "y", Said: true, Importance: 3, FileLine: 2},
			}},
		{"partial metadata keeps defaults", "- z <!-- 2025-12-31 -->\n",
			[]Line{{Text: "z", Said: true, Importance: 5, Added: day("2025-12-31"), FileLine: 1}}},
		{"unknown metadata kept", "- z <!-- inferred, seen twice -->\n",
			[]Line{{Text: "z", Importance: 5, Extra: "seen twice", FileLine: 1}}},
		{"title, comments, blanks, fences, CRLF", "\uFEFF# Me\r\n\r\n<!-- a\r\ncomment -->\r\n<!-- one -->\r\n```\r\n- code\r\n```\r\n-   spaced    out   \r\n",
			[]Line{{Text: "spaced out", Said: true, Importance: 5, FileLine: 9}}},
		{"headings kept, a comment inside a line dropped", "## Work\n- a <!-- x --> b <!-- said -->\n",
			[]Line{
				{Text: "## Work", Heading: true, FileLine: 1},
				{Text: "a b", Said: true, Importance: 5, FileLine: 2},
			}},
		{"empty items skipped", "-\n- \n- <!-- said -->\n", nil},
		{"tilde fences, thematic breaks, agent, importance below 1", "~~~\n- code\n~~~\n***\n- w <!-- agent, importance 0 -->\n",
			[]Line{{Text: "w", Importance: 1, FileLine: 5}}},
		// A fence closes only at a run as long as the one that opened it:
		// a profile that quotes markdown holds no lines in the quote.
		{"a three-backtick line inside a four-backtick fence", "````md\n```\n- quoted, not a line\n```\n````\n- real\n",
			[]Line{{Text: "real", Said: true, Importance: 5, FileLine: 6}}},
		// A frontmatter is not a list of lines.
		{"frontmatter", "---\nname: profile\n---\n- real\n",
			[]Line{{Text: "real", Said: true, Importance: 5, FileLine: 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse([]byte(tc.in)).Lines
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse(%q):\n got %+v\nwant %+v", tc.in, got, tc.want)
			}
		})
	}
	if p := Parse([]byte("# Me\n- a\n")); p.Title != "Me" {
		t.Errorf("title %q", p.Title)
	}
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		lines []Line
		want  int
	}{
		{nil, 0},
		{[]Line{{Text: "abc"}}, len("- abc\n")},
		{[]Line{{Text: "abc", Said: true, Importance: 9, Added: day("2026-01-01")}}, 6}, // metadata is free
		{[]Line{{Text: "## Work", Heading: true}, {Text: "é"}}, len("## Work\n") + len("- x\n")},
	} {
		p := Profile{Lines: tc.lines}
		if got := p.Size(); got != tc.want {
			t.Errorf("Size(%+v) = %d, want %d", tc.lines, got, tc.want)
		}
		if got := len([]rune(p.Text())); got != tc.want {
			t.Errorf("Text of %+v has %d characters, want %d", tc.lines, got, tc.want)
		}
	}
}

func TestWeakestOrder(t *testing.T) {
	old, young := day("2026-01-01"), day("2026-06-01")
	for _, tc := range []struct {
		name  string
		lines []Line
		want  int
	}{
		{"inferred before said, whatever the importance", []Line{
			{Text: "a", Said: true, Importance: 1, Added: old},
			{Text: "b", Said: false, Importance: 10, Added: young},
		}, 1},
		{"then lower importance", []Line{
			{Text: "a", Importance: 6, Added: old},
			{Text: "b", Importance: 4, Added: young},
		}, 1},
		{"then older", []Line{
			{Text: "a", Importance: 5, Added: young},
			{Text: "b", Importance: 5, Added: old},
		}, 1},
		{"unknown date is oldest", []Line{
			{Text: "a", Importance: 5, Added: old},
			{Text: "b", Importance: 5},
		}, 1},
		{"then nearer the top", []Line{
			{Text: "a", Importance: 5, Added: old},
			{Text: "b", Importance: 5, Added: old},
		}, 0},
		{"headings never", []Line{
			{Text: "# x", Heading: true},
			{Text: "a", Said: true, Importance: 9, Added: young},
		}, 1},
		{"nothing", []Line{{Text: "# x", Heading: true}}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Profile{Lines: tc.lines}).Weakest(); got != tc.want {
				t.Errorf("Weakest = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestAddDemotes(t *testing.T) {
	line := func(text string, said bool, imp int, d string) Line {
		return Line{Text: text, Said: said, Importance: imp, Added: day(d)}
	}
	p := Profile{Lines: []Line{
		line("said and important", true, 9, "2026-01-01"),  // 21
		line("inferred but vital", false, 9, "2026-01-01"), // 21
		line("said, minor", true, 2, "2026-01-01"),         // 14
		line("inferred, old", false, 5, "2026-01-01"),      // 16
	}}
	if p.Size() != 72 {
		t.Fatalf("size %d", p.Size())
	}
	// Room for 72: adding a 16-character said line pushes out the weakest
	// inferred line, and only it.
	got := p.Add(line("said, new one", true, 5, "2026-02-01"), 72)
	if len(got) != 1 || got[0].Text != "inferred, old" {
		t.Fatalf("demoted %+v", got)
	}
	if p.Size() > 72 {
		t.Errorf("size %d over cap", p.Size())
	}
	// A weak inferred line that does not fit is itself the one to go.
	got = p.Add(line("inferred trivia", false, 1, "2026-03-01"), 72)
	if len(got) != 1 || got[0].Text != "inferred trivia" {
		t.Fatalf("demoted %+v", got)
	}
	// A long said line makes room by taking the inferred line first, then
	// the least important said one.
	got = p.Add(line("said and rather long line", true, 8, "2026-03-01"), 72)
	var texts []string
	for _, l := range got {
		texts = append(texts, l.Text)
	}
	if want := []string{"inferred but vital", "said, minor"}; !reflect.DeepEqual(texts, want) {
		t.Errorf("demoted %q, want %q", texts, want)
	}
	if p.Size() > 72 {
		t.Errorf("size %d over cap", p.Size())
	}
	// Adding a line already there merges: said wins, importance rises.
	n := len(p.Lines)
	if got := p.Add(line("SAID,  new one", false, 7, "2026-04-01"), 72); len(got) != 0 {
		t.Errorf("merge demoted %+v", got)
	}
	if i := p.Find("said, new one"); len(p.Lines) != n || i < 0 || !p.Lines[i].Said || p.Lines[i].Importance != 7 || !p.Lines[i].Added.Equal(day("2026-02-01")) {
		t.Errorf("merge: %+v", p.Lines)
	}
}

func TestSelect(t *testing.T) {
	p := Parse([]byte("# P\n## Head\n- tabs over spaces\n- short answers\n- short commit messages\n"))
	for _, tc := range []struct {
		which string
		want  int // index into Lines, -1 for an error
	}{
		{"1", 1}, {"3", 3}, {"0", -1}, {"4", -1},
		{"Short Answers", 2}, {"tabs", 1}, {"short", -1}, {"nothing like it", -1}, {"  ", -1},
	} {
		got, err := p.Select(tc.which)
		if tc.want < 0 && err == nil || tc.want >= 0 && got != tc.want {
			t.Errorf("Select(%q) = %d, %v; want %d", tc.which, got, err, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for in, ok := range map[string]bool{
		"likes tabs": true, "  ": false, "- ": false, "a <!-- b": false, "b --> c": false, "# heading": false,
	} {
		if err := Check(in); (err == nil) != ok {
			t.Errorf("Check(%q) = %v", in, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("# Profile\n\n- a <!-- said, importance 7, 2026-11-29 -->\n## h\n* b\n"))
	f.Add([]byte("<!-- x\n- y <!-- inferred -->"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := Parse(data)
		again := Parse(p.Format())
		if len(again.Lines) != len(p.Lines) {
			t.Fatalf("%d lines, %d after a round trip:\n%s", len(p.Lines), len(again.Lines), p.Format())
		}
		for i := range p.Lines {
			a, b := p.Lines[i], again.Lines[i]
			if a.Text != b.Text || a.Said != b.Said || a.Importance != b.Importance || !a.Added.Equal(b.Added) || a.Heading != b.Heading {
				t.Fatalf("line %d: %+v became %+v", i, a, b)
			}
		}
	})
}
