package search

import (
	"slices"
	"testing"
)

// TestHighlighterSkipsNoTerm: the shortcut that spares stemming a word which
// cannot be a wanted term misses none of the terms the tokenizer finds, in
// any of the fixture store's text.
func TestHighlighterSkipsNoTerm(t *testing.T) {
	texts := []string{"HTTPServer retries a dying worker; six minutes", "naïve ÜBER-café tax.py shop/checkout/tax.py LARK-412 fooBar_baz"}
	for _, d := range fixtureDocs(t) {
		texts = append(texts, d.Name, d.Description, d.Body)
	}
	for _, text := range texts {
		checkMeetsAll(t, text)
	}
}

// checkMeetsAll: a highlighter wanting any one term of text finds it there.
func checkMeetsAll(t *testing.T, text string) {
	t.Helper()
	var terms []string
	tokenize(text, func(tk token) {
		if !slices.Contains(terms, tk.term) {
			terms = append(terms, tk.term)
		}
	})
	for _, term := range terms {
		met := false
		h := newHighlighter([]termStat{{qterm: qterm{term: term, weight: 1}, idf: 1}})
		h.meet(text, func(string, float64) { met = true })
		if !met && !irregular(term) {
			t.Errorf("%.60q: term %q not met", text, term)
		}
	}
}

func FuzzHighlighter(f *testing.F) {
	for _, s := range []string{"HTTPServer retries", "PRs (e.g. LARK-412)", "naïve café", "shop/checkout/tax.py", "$4,212.80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			return
		}
		checkMeetsAll(t, text)
	})
}

// irregular terms come from words that do not start as they do: number
// words ("six" → "6") and Porter2's exceptions ("dying" → "die").
func irregular(term string) bool {
	return len(term) == 1 || term == "die" || term == "lie" || term == "tie" || term == "sky"
}
