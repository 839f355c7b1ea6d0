package mdparse

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// index builds a MEMORY.md of n one-line entries, each exactly width bytes
// with its newline.
func index(n, width int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		line := fmt.Sprintf("- [Entry %d](entry-%d.md) — ", i, i)
		line += strings.Repeat("x", width-1-len(line))
		b.WriteString(line + "\n")
	}
	return b.String()
}

func TestMeasureCatalog(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   Budget
		hidden []string // nil: do not check; checked as a prefix
	}{
		{"empty", "", Budget{Fits: true}, nil},
		{"no final newline", "# Index\n- a", Budget{Lines: 2, Bytes: 11, Fits: true}, nil},
		{"200 lines fit", index(200, 100), Budget{Lines: 200, Bytes: 20000, Fits: true}, nil},
		{"201 lines", index(201, 100), Budget{Lines: 201, Bytes: 20100, CutLine: 201}, []string{"Entry 201"}},
		{"25000 bytes fit", index(100, 250), Budget{Lines: 100, Bytes: 25000, Fits: true}, nil},
		{"one byte over cuts the last line", index(100, 250) + "z", Budget{Lines: 101, Bytes: 25001, CutLine: 101}, nil},
		{"line cut mid-way by bytes", index(99, 250) + index(2, 200), Budget{Lines: 101, Bytes: 25150, CutLine: 101}, []string{"Entry 2"}},
		{"frontmatter and comments are not counted but lines are mapped",
			"---\nname: index\n---\n<!-- a comment\nover two lines -->\n" + index(201, 100),
			Budget{Lines: 201, Bytes: 20100, CutLine: 206}, []string{"Entry 201"}},
		{"comment inside a code fence is kept",
			"```\n<!-- kept -->\n```\n" + index(198, 40),
			Budget{Lines: 201, Bytes: 4 + 14 + 4 + 198*40, CutLine: 201}, []string{"Entry 198"}},
		{"indented four is not a block comment", "    <!-- code -->\n", Budget{Lines: 1, Bytes: 18, Fits: true}, nil},
		{"unclosed comment hides the rest", "a\n<!-- open\n" + index(300, 40), Budget{Lines: 1, Bytes: 2, Fits: true}, nil},
		{"unterminated frontmatter is content", "---\n" + index(200, 40), Budget{Lines: 201, Bytes: 8004, CutLine: 201}, []string{"Entry 200"}},
		{"hidden headings and free bullets",
			strings.Repeat("line\n", 200) + "## Later section ##\n- **Bold** first words of a long bullet that keeps going on\n1. numbered [link](x.md)\n```\n- not an entry\n```\nplain\n",
			Budget{Lines: 207, Bytes: 1000 + len("## Later section ##\n- **Bold** first words of a long bullet that keeps going on\n1. numbered [link](x.md)\n```\n- not an entry\n```\nplain\n"), CutLine: 201},
			[]string{"## Later section", "Bold first words of a long bullet that …", "numbered link"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MeasureCatalog("MEMORY.md", []byte(tt.in))
			tt.want.File = "MEMORY.md"
			hidden := got.Hidden
			got.Hidden = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if tt.want.Fits && hidden != nil {
				t.Errorf("hidden %q when it fits", hidden)
			}
			if tt.hidden != nil && (len(hidden) < len(tt.hidden) || !reflect.DeepEqual(hidden[:len(tt.hidden)], tt.hidden)) {
				t.Errorf("hidden %q, want prefix %q", hidden, tt.hidden)
			}
		})
	}
}

func TestBudgetJSON(t *testing.T) {
	b, err := json.Marshal(MeasureCatalog("MEMORY.md", []byte("- a\n")))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"file":"MEMORY.md","lines":1,"bytes":4,"fits":true,"cut_line":0}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

func TestMeasureClaudeMD(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Budget
		warn bool
	}{
		{"small", "# Rules\n<!-- note -->\n- be brief\n", Budget{Lines: 2, Bytes: 19, Fits: true}, false},
		{"long is loaded whole", index(300, 40), Budget{Lines: 300, Bytes: 12000, Fits: true}, true},
		{"over 4 MiB is skipped", "# H\n" + strings.Repeat("x", ClaudeMDMaxBytes), Budget{Lines: 2, Bytes: ClaudeMDMaxBytes + 4, CutLine: 1}, false},
	}
	for _, tt := range tests {
		got, warn := MeasureClaudeMD("CLAUDE.md", []byte(tt.in))
		tt.want.File = "CLAUDE.md"
		hidden := got.Hidden
		got.Hidden = nil
		if !reflect.DeepEqual(got, tt.want) || warn != tt.warn {
			t.Errorf("%s: got %+v warn %v, want %+v warn %v", tt.name, got, warn, tt.want, tt.warn)
		}
		if !tt.want.Fits && len(hidden) == 0 {
			t.Errorf("%s: nothing hidden", tt.name)
		}
	}
}
