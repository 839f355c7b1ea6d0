package search

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/mem-dev/mem/internal/shareddata"
)

// stemWords is every distinct word of the .md files under the stores that
// Stem is asked to stem (lowercase ASCII letters, no stopword), sorted.
func stemWords(tb testing.TB) []string {
	tb.Helper()
	roots := []string{filepath.Join("..", "internal", "eval", "testdata")}
	if dev := shareddata.Path("eval", "store"); isDir(dev) {
		roots = append(roots, dev)
	} else {
		tb.Logf("%s not found: comparing on the test stores only", dev)
	}
	seen := map[string]bool{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, w := range strings.FieldsFunc(strings.ToLower(string(data)), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
				if k, stem := kept(w); stem && asciiLetters(k) {
					seen[k] = true
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	words := make([]string, 0, len(seen))
	for w := range seen {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func asciiLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 'a' || s[i] > 'z') && s[i] != '\'' {
			return false
		}
	}
	return s != ""
}

// TestStemIsSnowball holds Stem to the Snowball English stemmer of
// github.com/kljensen/snowball on every word of the stores (see stem.go for
// why mem keeps its own).
func TestStemIsSnowball(t *testing.T) {
	words := stemWords(t)
	if len(words) < 1000 {
		t.Fatalf("only %d words to compare", len(words))
	}
	var differ []string
	for _, w := range words {
		if ours, theirs := Stem(w), english.Stem(w, true); ours != theirs {
			differ = append(differ, w+": "+ours+" against "+theirs)
		}
	}
	if len(differ) > 0 {
		t.Errorf("%d of %d words stem differently:\n%s", len(differ), len(words), strings.Join(differ, "\n"))
	}
	t.Logf("%d words compared", len(words))
}

// BenchmarkStem stems the words of the dev battery's prompts, as a prompt
// does (the index is built once; a prompt stems its own words), with Stem
// and with the library.
func BenchmarkStem(b *testing.B) {
	f, err := os.Open(shareddata.Path("eval", "battery-dev.jsonl"))
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct{ Prompt string }
		if json.Unmarshal(sc.Bytes(), &p) != nil {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(p.Prompt), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
			if k, stem := kept(w); stem && asciiLetters(k) {
				words = append(words, k)
			}
		}
	}
	b.Logf("%d words", len(words))
	for _, c := range []struct {
		name string
		stem func(string) string
	}{
		{"mem", Stem},
		{"snowball", func(w string) string { return english.Stem(w, true) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, w := range words {
					c.stem(w)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
		})
	}
}
