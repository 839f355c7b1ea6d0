package shell

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/mem-dev/mem/internal/shareddata"
)

// syntaxAll is All through mvdan.cc/sh/v3/syntax, the maintained shell
// parser, for comparison: each simple command's words (assignments first,
// as All keeps them), quotes removed; ok is false for a line it refuses.
func syntaxAll(p *syntax.Parser, line string) (cmds [][]string, ok bool) {
	f, err := p.Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, isCall := n.(*syntax.CallExpr)
		if !isCall {
			return true
		}
		var ws []string
		for _, a := range ce.Assigns {
			var b strings.Builder
			b.WriteString(a.Name.Value + "=")
			if a.Value != nil {
				unquote(&b, line, a.Value.Parts)
			}
			ws = append(ws, b.String())
		}
		for _, w := range ce.Args {
			var b strings.Builder
			unquote(&b, line, w.Parts)
			ws = append(ws, b.String())
		}
		if len(ws) > 0 {
			cmds = append(cmds, ws)
		}
		return true
	})
	return cmds, true
}

// unquote writes parts with quotes removed, and substitutions and
// expansions as they are written in line.
func unquote(b *strings.Builder, line string, parts []syntax.WordPart) {
	for _, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			for i := 0; i < len(x.Value); i++ {
				if x.Value[i] == '\\' && i+1 < len(x.Value) {
					i++
				}
				b.WriteByte(x.Value[i])
			}
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			unquote(b, line, x.Parts)
		default:
			b.WriteString(line[part.Pos().Offset():part.End().Offset()])
		}
	}
}

// bashLines is every Bash tool call's command in the shared transcripts.
func bashLines(tb testing.TB) []string {
	var lines []string
	for _, path := range shareddata.Transcripts(tb) {
		f, err := os.Open(path)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if !strings.Contains(sc.Text(), `"Bash"`) {
				continue
			}
			var rec struct {
				Message struct {
					Content json.RawMessage
				}
			}
			var calls []struct {
				Type, Name string
				Input      struct{ Command string }
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || json.Unmarshal(rec.Message.Content, &calls) != nil {
				continue
			}
			for _, c := range calls {
				if c.Type == "tool_use" && c.Name == "Bash" && c.Input.Command != "" {
					lines = append(lines, c.Input.Command)
				}
			}
		}
		f.Close()
	}
	return lines
}

// TestAllAgainstSyntax compares All with mvdan.cc/sh/v3/syntax on every
// Bash command of the shared transcripts: the runs of mem they find (what
// the gate asks) must agree on every line both read, and the share of lines
// whose simple commands agree word for word is logged (the package doc
// has the figures).
func TestAllAgainstSyntax(t *testing.T) {
	lines := bashLines(t)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	same, refused := 0, 0
	for _, line := range lines {
		theirs, ok := syntaxAll(p, line)
		if !ok {
			refused++
			continue
		}
		var ours [][]string
		for _, cmd := range All(line) {
			var ws []string
			for _, w := range cmd {
				ws = append(ws, w.Text)
			}
			ours = append(ours, ws)
		}
		if join(ours) == join(theirs) {
			same++
		}
		if o, th := memRuns(ours), memRuns(theirs); o != th {
			t.Errorf("mem runs in %q:\n all    %q\n syntax %q", line, o, th)
		}
	}
	t.Logf("%d Bash lines: %d read alike word for word, %d refused by syntax", len(lines), same, refused)
}

func join(cmds [][]string) string {
	var parts []string
	for _, c := range cmds {
		parts = append(parts, strings.Join(c, "\x00"))
	}
	return strings.Join(parts, "\n")
}

// memRuns is the commands whose first word is mem, joined.
func memRuns(cmds [][]string) string {
	var runs []string
	for _, c := range cmds {
		if c[0] == "mem" {
			runs = append(runs, strings.Join(c, " "))
		}
	}
	return strings.Join(runs, "\n")
}

// BenchmarkAll reads the Bash commands of the shared transcripts with All
// and with mvdan.cc/sh/v3/syntax, as the gate reads an agent's calls.
func BenchmarkAll(b *testing.B) {
	lines := bashLines(b)
	b.Run("mem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range lines {
				All(l)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/line")
	})
	b.Run("syntax", func(b *testing.B) {
		b.ReportAllocs()
		p := syntax.NewParser(syntax.Variant(syntax.LangBash))
		for b.Loop() {
			for _, l := range lines {
				syntaxAll(p, l)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/line")
	})
}
