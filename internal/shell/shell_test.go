package shell

import (
	"reflect"
	"strings"
	"testing"
)

// texts renders commands as "a b | c d" for comparison.
func texts(cmds [][]Word) string {
	var parts []string
	for _, c := range cmds {
		var ws []string
		for _, w := range c {
			ws = append(ws, w.Text)
		}
		parts = append(parts, strings.Join(ws, " "))
	}
	return strings.Join(parts, " | ")
}

func TestSplit(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"go test ./... && git commit -m 'a b'", "go test ./... | git commit -m a b"},
		{"a; b & c || d |& e\nf", "a | b | c | d | e | f"},
		{`echo "x; y" 'p|q' z\ w`, "echo x; y p|q z w"},
		{"(cd dir && make)", "cd dir | make"},
		{"make 2>&1 > out.log < in.txt", "make"},
		{"cat <<'EOF' > notes\nmem store body\nEOF\nls", "cat | ls"},
		{"cat <<-END\n\tignored\n\tEND\nnext", "cat | next"},
		{"grep x <<< 'mem store'", "grep x"},
		{"echo hi # mem store later\nls", "echo hi | ls"},
		{"echo a#b", "echo a#b"},
		{"x=$(git rev-parse HEAD) go run .", "x=$(git rev-parse HEAD) go run ."},
		{"echo `date`", "echo `date`"},
		{"long \\\n line", "long line"},
		{"", ""},
	} {
		if got := texts(Split(tt.in)); got != tt.want {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWordFlags(t *testing.T) {
	ws := Split(`run "q" $(a) $B plain`)[0]
	got := [][3]bool{}
	for _, w := range ws {
		got = append(got, [3]bool{w.Quoted, w.Subst, w.Var})
	}
	want := [][3]bool{{}, {true, false, false}, {false, true, false}, {false, false, true}, {}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flags %v, want %v", got, want)
	}
	if !reflect.DeepEqual(ws[2].Subs, []string{"a"}) {
		t.Errorf("Subs %q", ws[2].Subs)
	}
}

func TestAll(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"x=$(mem search deploy)", "x=$(mem search deploy) | mem search deploy"},
		{"echo `mem store a` done", "echo `mem store a` done | mem store a"},
		{`echo "$(mem store b)"`, "echo $(mem store b) | mem store b"},
		{"a $(b $(c d))", "a $(b $(c d)) | b $(c d) | c d"},
		{"echo '$(not run)'", "echo $(not run)"},
		{"unclosed $(mem store", "unclosed $(mem store | mem store"},
	} {
		if got := texts(All(tt.in)); got != tt.want {
			t.Errorf("All(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSplit: any line is read without panicking, and All holds every
// command Split finds.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a && b", "x=$(y `z`)", "cat <<E\nq\nE", `"unterminated`, "'", "$(", "a\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		top := Split(s)
		all := All(s)
		if len(all) < len(top) {
			t.Fatalf("All found %d commands, Split %d", len(all), len(top))
		}
	})
}
