package search

import (
	"iter"
	"slices"
	"strings"
)

// What a prompt asks for, read from how it opens. Most prompts ask about
// the project, and whatever the team learned may bear on them. Two kinds
// seldom need it, and were where mem spoke out of turn on stores of other
// domains (search/TUNING.md, 2026-12-07):
//
//   - a question of general knowledge about a tool the team uses ("explain
//     how kafka consumer group rebalancing works", "what's the difference
//     between helm install and helm upgrade --install"), or a request for a
//     snippet anyone who knows the tool could write ("jq one-liner to ...",
//     "a regex for ..."): its words are the tool's, which the team's
//     memories of that tool hold too;
//   - an edit of form, not behaviour ("rename `apptCount` to
//     `appointmentCount` in day-summary.component.ts", "fix the typo in
//     messages.properties"): it names a file or an identifier of the
//     project, whose words memories about that part of the project hold.
//
// Such a prompt needs asksBar times the threshold: a memory must match it
// clearly better than one that only shares the tool's or the file's words.
// A prompt that says "we", "our" or "us" asks about the team's own way, and
// is read as any other.
type asks uint8

const (
	asksProject asks = iota // the default: what the team knows may bear on it
	asksGeneral             // a question of general knowledge
	asksForm                // an edit of form: a rename, a typo, formatting
)

// asksBar is how many times the threshold a prompt of general knowledge or
// of form must reach: twice, set by hand. Only fernhill's prompts move with
// it (its silence climbs with the bar up to 2 and is flat to 3); the other
// tuning stores do not move for any bar from 1 to 3 (TUNING.md).
const asksBar = 2.0

// asksOf reads what prompt asks for from its first words. A question with
// a paste ("what does this mean" over a log) asks about what was pasted,
// which may be the project's own failure; an edit of a paste ("reformat
// this sql") is still one of form.
func asksOf(prompt string, pasted bool) asks {
	words := make([]string, 0, maxAskWords)
	for word := range askWords(prompt) {
		if len(words) == maxAskWords {
			break
		}
		words = append(words, word)
	}
	words = dropLead(words)
	kind := asksProject
	switch {
	case len(words) == 0:
	case (generalQuestion(words) || snippetRequest(words)) && !pasted && !strings.Contains(prompt, "```"):
		kind = asksGeneral
	case formEdit(words):
		kind = asksForm
	}
	if kind != asksProject {
		for chunk := range strings.FieldsSeq(prompt) { // as proseWords, but as written
			if teamWord(strings.TrimFunc(chunk, notLetter)) {
				return asksProject
			}
		}
	}
	return kind
}

// askWords yields prompt's words (proseWords), their apostrophes straight,
// and no empty ones.
func askWords(prompt string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for word := range proseWords(prompt) {
			if word != "" && !yield(straight(word)) {
				return
			}
		}
	}
}

// straight writes a curly apostrophe straight: "what’s" is "what's".
func straight(word string) string { return strings.ReplaceAll(word, "’", "'") }

// maxAskWords is how many of a prompt's first words are read for its kind.
const maxAskWords = 12

// teamWord reports whether the word w, as written, speaks for the team:
// "US" in capitals is the country ("a US zip code").
func teamWord(w string) bool {
	if w == "US" {
		return false
	}
	switch straight(strings.ToLower(w)) {
	case "we", "our", "ours", "us", "we're", "we've", "we'd", "we'll", "ourselves":
		return true
	}
	return false
}

// dropLead drops the words a request may open with that say nothing of
// what it asks ("please", "can you", "quick question:").
func dropLead(words []string) []string {
	for len(words) > 0 {
		switch words[0] {
		case "please", "pls", "plz", "hey", "hi", "ok", "okay", "so", "quick", "q", "question",
			"can", "could", "would", "you", "u", "just":
			words = words[1:]
		default:
			return words
		}
	}
	return words
}

// generalQuestion reports whether words open a question of general
// knowledge: "explain how|what|the difference ...", "explain X vs Y",
// "what's the difference between ...", "what does X do|mean", "does X
// support Y", "how does X work".
func generalQuestion(words []string) bool {
	rest := words[1:]
	has := func(ws ...string) bool {
		return slices.ContainsFunc(rest, func(w string) bool { return slices.Contains(ws, w) })
	}
	at := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	switch words[0] {
	case "explain", "eli5":
		switch at(1) {
		case "how", "what", "difference":
			return true
		case "the":
			return at(2) == "difference"
		}
		return has("vs", "versus")
	case "what's", "whats":
		return has("difference", "differences")
	case "what":
		return has("difference", "differences") || (at(1) == "does" || at(1) == "do") && has("do", "mean")
	case "difference", "differences":
		return at(1) == "between"
	case "does", "do":
		return has("support", "supports")
	case "how":
		return (at(1) == "does" || at(1) == "do") && at(2) != "i" && has("work", "works")
	}
	return false
}

// snippetRequest reports whether words ask for a snippet anyone who knows
// the tool could write: a one-liner ("jq one-liner to pull every id out of
// a json file"), a regular expression ("write a regex that matches a hex
// string", "regex for a UK postcode"). What is asked for comes with no
// article or "a": one the project already has comes with "the", "this" or
// "our" ("fix the regex that rejects +44 numbers", "the one-liner in
// deploy.sh"), and a regex that is part of an edit names it ("add a regex
// check to the signup form").
func snippetRequest(words []string) bool {
	for i, w := range words {
		next, prev := "", ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		if i > 0 {
			prev = words[i-1]
		}
		switch prev {
		case "the", "this", "that", "these", "those", "our", "my", "your", "its", "their":
			continue
		}
		switch w {
		case "one-liner", "oneliner", "one-liners":
			return true
		case "one":
			if next == "liner" {
				return true
			}
		case "regex", "regexp", "regexes":
			switch next {
			case "", "for", "that", "to", "matching", "which":
				return true
			}
		}
	}
	return false
}

// formEdit reports whether words open an edit of form: "rename ...",
// "fix the typo|grammar|spelling|indentation|lint warning ...",
// "reformat ...", "format this ...", "sort the imports", "add alt text|a
// comment|docstrings|type hints", "remove the leftover|unused ...".
func formEdit(words []string) bool {
	var object string // the first word after the verb that is no article
	for _, w := range words[1:] {
		switch w {
		case "the", "a", "an", "this", "that", "these", "those", "all", "some", "my":
			continue
		}
		object = w
		break
	}
	switch words[0] {
	case "rename", "reformat", "prettify", "lowercase", "uppercase", "capitalize":
		return true
	case "format":
		return len(words) > 1 && (words[1] == "this" || words[1] == "the")
	case "fix":
		switch object {
		case "typo", "typos", "grammar", "spelling", "wording", "indentation", "indent", "formatting",
			"whitespace", "lint", "linter", "eslint", "comment", "comments":
			return true
		}
	case "sort":
		return object == "imports"
	case "add":
		switch object {
		case "alt", "comment", "comments", "docstring", "docstrings", "jsdoc":
			return true
		case "type":
			return slices.Contains(words, "hints")
		}
	case "remove":
		switch object {
		case "leftover", "unused", "trailing", "commented", "debug":
			return true
		}
	}
	return false
}
