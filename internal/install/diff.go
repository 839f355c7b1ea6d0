package install

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Diff renders a change for a dry run: a line saying why, then a unified
// diff of the file with three lines of context, or one line for a mode
// change or a directory removal.
func Diff(c Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", c.Why)
	switch {
	case c.Mode&fs.ModeDir != 0:
		fmt.Fprintf(&b, "rmdir %s\n", c.Path)
		return b.String()
	case c.Before == nil:
		fmt.Fprintf(&b, "--- /dev/null\n+++ %s (new, mode %04o)\n", c.Path, c.Mode.Perm())
	case c.After == nil:
		fmt.Fprintf(&b, "--- %s\n+++ /dev/null (removed)\n", c.Path)
	case bytes.Equal(c.Before, c.After):
		fmt.Fprintf(&b, "chmod %04o %s\n", c.Mode.Perm(), c.Path)
		return b.String()
	default:
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", c.Path, c.Path)
	}
	writeHunks(&b, splitLines(c.Before), splitLines(c.After), 3)
	return b.String()
}

// splitLines splits b into lines, each keeping its newline.
func splitLines(b []byte) []string { return slices.Collect(strings.Lines(string(b))) }

// op is one line of an edit script: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	line string
}

// editScript is a shortest edit script by longest common subsequence. The
// files install edits are small; past a few million cells it gives up on
// alignment and replaces everything, which is still a correct diff.
func editScript(a, b []string) []op {
	// Trim the common ends first: most edits touch one place.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m > 4_000_000 {
		for _, l := range ma {
			ops = append(ops, op{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, op{'+', l})
		}
	} else {
		// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i]})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i]})
				i++
			default:
				ops = append(ops, op{'+', mb[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops
}

// writeHunks writes the edit script as unified-diff hunks.
func writeHunks(b *strings.Builder, a, bl []string, context int) {
	ops := editScript(a, bl)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk runs from context lines before the first change to context
		// lines after the last change that is no further than 2*context
		// from the next.
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*context {
				break
			}
		}
		stop := min(end+context, len(ops))
		aLine, bLine := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				aLine++
			}
			if o.kind != '-' {
				bLine++
			}
		}
		aN, bN := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		if aN == 0 {
			aLine--
		}
		if bN == 0 {
			bLine--
		}
		fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", aLine, aN, bLine, bN)
		for _, o := range ops[start:stop] {
			b.WriteByte(o.kind)
			b.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
}
