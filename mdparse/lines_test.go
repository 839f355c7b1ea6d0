package mdparse

import (
	"bytes"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	kinds := func(ls []Line) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteByte("TBMCFKHRL"[l.Kind])
		}
		return b.String()
	}
	for _, tt := range []struct {
		name, in string
		want     string // one letter a line: Text Blank frontMatter Comment Fence codeK Heading bReak List
		texts    []string
	}{
		{"kinds", "# Title\n\n- item\n1. two\nplain\n---\n", "HBLLTR", []string{"Title", "", "item", "two", "plain", "---"}},
		{"frontmatter closed", "---\nname: x\n---\n- a\n", "MMML", nil},
		{"frontmatter open is not one", "---\nname: x\n", "RT", nil},
		{"four backticks hold three", "````\n```\n- inside\n```\n````\n- out\n", "FKKKFL", nil},
		{"tilde fence closes on a longer run", "~~~\n- in\n~~~~~\n- out\n", "FKFL", nil},
		{"backtick in the info string is no fence", "```a`b\n- x\n", "TL", nil},
		{"unclosed fence runs to the end", "```\n# no\n", "FK", nil},
		{"comment over lines", "<!-- a\n- b\n-->\n- c\n", "CCCL", nil},
		{"comment on one line", "<!-- a -->\n# h\n", "CH", nil},
		{"comment in a fence is code", "```\n<!--\n```\n- x\n", "FKFL", nil},
		{"indented four is no comment", "    <!-- x\n- y\n", "TL", nil},
		{"hash without blank is text", "#tag\n####### seven\n", "TT", nil},
		{"closing hashes", "## Setup ##\n", "H", []string{"Setup"}},
		{"tab after marker", "-\tTabbed item\n+ plus\n10) ten\n", "LLL", []string{"Tabbed item", "plus", "ten"}},
		{"empty item", "-\n", "L", []string{""}},
		{"break beats item", "- - -\n* * *\n", "RR", nil},
		{"not an item", "-x\n1.x\n1234567890. ten digits\n", "TTT", nil},
		{"CRLF", "# A\r\n- b\r\n", "HL", []string{"A", "b"}},
		{"BOM", "\uFEFF# A\n", "H", []string{"A"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ls := Lines([]byte(tt.in))
			if got := kinds(ls); got != tt.want {
				t.Errorf("kinds %s, want %s", got, tt.want)
			}
			for i, want := range tt.texts {
				if i < len(ls) && ls[i].Text != want {
					t.Errorf("line %d text %q, want %q", i+1, ls[i].Text, want)
				}
			}
		})
	}
}

func TestBodyLinesHasNoFrontmatter(t *testing.T) {
	ls := BodyLines([]byte("---\n- a\n---\n"))
	if len(ls) != 3 || ls[0].Kind != LineBreak || ls[1].Kind != LineListItem {
		t.Errorf("BodyLines read a frontmatter: %+v", ls)
	}
}

// FuzzLines: any input is classified without panicking, the lines are the
// file (less a BOM) in order, numbered from 1, and a frontmatter comes
// first or not at all.
func FuzzLines(f *testing.F) {
	for _, s := range []string{"# a\n- b\n", "---\nx: y\n---\nz", "````\n```\n````", "<!--\n", "\uFEFF- x\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ls := Lines(data)
		var all []byte
		front := true
		for i, l := range ls {
			if l.Num != i+1 {
				t.Fatalf("line %d numbered %d", i+1, l.Num)
			}
			if l.Kind > LineListItem {
				t.Fatalf("line %d: kind %d", l.Num, l.Kind)
			}
			if l.Kind == LineFrontmatter && !front {
				t.Fatalf("line %d: frontmatter after the body began", l.Num)
			}
			front = l.Kind == LineFrontmatter
			all = append(all, l.Raw...)
		}
		if want := bytes.TrimPrefix(data, bom); !bytes.Equal(all, want) {
			t.Fatalf("lines join to %q, want %q", all, want)
		}
	})
}
