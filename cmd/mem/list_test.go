package main

import (
	"bufio"
	"bytes"
	"testing"
)

// TestWriteColumns: the listing's columns are byte for byte what
// text/tabwriter writes, whatever the cells hold.
func TestWriteColumns(t *testing.T) {
	tests := []struct {
		name string
		rows [][3]string
	}{
		{"none", nil},
		{"one", [][3]string{{"vat", "gotcha", "Spanish VAT rounds per line"}}},
		{"widths differ", [][3]string{{"a", "fact", "A"}, {"a-much-longer-slug", "procedure", "B (superseded by c)"}, {"mid-slug", "rule", ""}}},
		{"empty cells", [][3]string{{"", "", ""}, {"x", "", "y"}}},
		{"wide runes", [][3]string{{"café-déjà-vu", "fact", "naïve"}, {"日本語", "fact", "名前"}, {"plain", "fact", "z"}}},
		{"a tab in a name", [][3]string{{"a", "fact", "one\ttwo"}, {"bb", "rule", "x"}}},
		{"a line break in a slug", [][3]string{{"a\nb", "fact", "n"}, {"c", "fact", "m"}}},
		{"vertical tab and form feed", [][3]string{{"a\vb", "fact", "n\fo"}, {"c", "fact", "m"}}},
		{"tabwriter's escape byte", [][3]string{{"a\xffb\xff", "fact", "n"}, {"c", "fact", "m\xff"}}},
		{"invalid UTF-8", [][3]string{{"a\xc3", "fact", "n\x80"}, {"cc", "fact", "m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := writeColumns(&got, tt.rows); err != nil {
				t.Fatal(err)
			}
			if err := tabwrite(bufio.NewWriter(&want), tt.rows); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("got\n%q\nwant (tabwriter)\n%q", got.String(), want.String())
			}
		})
	}
}

func FuzzWriteColumns(f *testing.F) {
	f.Add("vat", "gotcha", "Spanish VAT", "a-longer-slug", "", "naïve 日本")
	f.Add("a\tb", "x", "y", "", "\xff", "\n")
	f.Fuzz(func(t *testing.T, a, b, c, d, e, g string) {
		rows := [][3]string{{a, b, c}, {d, e, g}}
		var got, want bytes.Buffer
		if err := writeColumns(&got, rows); err != nil {
			t.Fatal(err)
		}
		if err := tabwrite(bufio.NewWriter(&want), rows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("got %q, tabwriter %q", got.String(), want.String())
		}
	})
}
