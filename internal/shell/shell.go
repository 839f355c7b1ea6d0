// Package shell reads shell command lines as mem needs them read: split
// into simple commands of words, quotes removed. It is a reading aid, not a
// shell: nothing is expanded or run. The gate reads an agent's Bash calls
// with it (did it run `mem store`?), and the session history counts the
// commands a project runs (package sessions); it links only the standard
// library, since the gate runs on the hook path.
//
// # Rule
//
// A line is split into simple commands at the control operators ; & && ||
// | |& and newlines, and at subshell parentheses. Words split at blanks.
// Single quotes keep everything literally; double quotes keep blanks and
// operators, and a backslash escapes the next character (a backslash at the
// end of a line continues it). A command substitution, $(...) or `...`,
// stays inside its word (Word.Subst), its text in Word.Subs; a variable
// reference ($X, ${X}) too (Word.Var). A # that starts a word starts a
// comment, to the end of the line. Redirections (> f, >> f, 2>&1, < f,
// <<< s) are dropped with their targets, and a heredoc's body (<<EOF ...
// EOF, <<-EOF, quoted delimiters) is skipped.
//
// # Why not mvdan.cc/sh
//
// mvdan.cc/sh/v3/syntax is the maintained shell parser, and
// TestAllAgainstSyntax compares All with it on every Bash call of the
// shared transcripts: on 389 lines the runs of mem the two find agree on
// every line, and 360 lines split alike word for word (the rest differ where
// a reading aid need not be a shell: keywords, assignments, arithmetic).
// This lexer stays because the parser costs more where it runs, on the
// gate's hook path (2026-12-07; BenchmarkAll over those lines, 5 runs,
// median): 2.2 µs, 15 allocations and 0.9 KB a line against the parser's
// 7.7 µs, 33 and 4.1 KB, and mem-hook grows by 678 KB (4.32 → 5.00 MB, 16%)
// with it, where its start does not move (the prompt hook on 500 memories
// through sh -c, 100 interleaved rounds: 4.56 against 4.83 ms, within the
// noise). The parser also refuses a line it cannot parse (none of the 389
// here), where an agent's half-written command still has to be read.
package shell

import "strings"

// Word is one shell word after quote removal.
type Word struct {
	Text   string
	Quoted bool     // all or part of it was quoted
	Subst  bool     // it holds a command substitution
	Var    bool     // it holds a variable reference
	Subs   []string // the command lines inside its substitutions, in order
}

// All splits a command line as Split does, and the command lines inside
// its command substitutions too, at any depth: each simple command that
// would run, the outer one before those it substitutes.
func All(s string) [][]Word {
	var out [][]Word
	for _, cmd := range Split(s) {
		out = append(out, cmd)
		for _, w := range cmd {
			for _, sub := range w.Subs {
				out = append(out, All(sub)...)
			}
		}
	}
	return out
}

// inner is the text of a $(...) that starts at from (past "$(") and ends
// just before end, which is past its ')' unless the line ended first.
func inner(s string, from, end int) string {
	if end > len(s) {
		end = len(s)
	}
	if end > from && s[end-1] == ')' {
		end--
	}
	if from > end {
		return ""
	}
	return s[from:end]
}

// Split splits a command line into its simple commands, each a list of
// words (see the package doc for the rule).
func Split(s string) [][]Word {
	var (
		segs     [][]Word
		cur      []Word
		subs     []string
		w        strings.Builder
		inWord   bool
		quoted   bool
		subst    bool
		vref     bool
		skipNext bool     // the next word is a redirection target
		heredocs []string // delimiters waiting for the next newline
	)
	endWord := func() {
		if !inWord {
			return
		}
		if skipNext {
			skipNext = false
		} else {
			cur = append(cur, Word{Text: w.String(), Quoted: quoted, Subst: subst, Var: vref, Subs: subs})
		}
		w.Reset()
		inWord, quoted, subst, vref, subs = false, false, false, false, nil
	}
	endSeg := func() {
		endWord()
		if len(cur) > 0 {
			segs = append(segs, cur)
		}
		cur = nil
	}
	n := len(s)
	for i := 0; i < n; {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			endWord()
			i++
		case c == '\\':
			if i+1 < n && s[i+1] == '\n' {
				i += 2 // line continuation
				continue
			}
			if i+1 < n {
				w.WriteByte(s[i+1])
			}
			inWord = true
			i += 2
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				end = n - i - 1
			}
			w.WriteString(s[i+1 : i+1+end])
			inWord, quoted = true, true
			i += end + 2
		case c == '"':
			j := i + 1
			for j < n && s[j] != '"' {
				if s[j] == '\\' {
					j++
				} else if s[j] == '$' && j+1 < n && s[j+1] == '(' {
					start := j
					j = matchParen(s, j+1)
					subs = append(subs, inner(s, start+2, j))
					subst = true
					continue
				}
				j++
			}
			w.WriteString(s[i+1 : min(j, n)])
			inWord, quoted = true, true
			i = j + 1
		case c == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				end = n - i - 1
			}
			w.WriteString(s[i:min(i+2+end, n)])
			subs = append(subs, s[i+1:i+1+end])
			inWord, subst = true, true
			i += end + 2
		case c == '$':
			if i+1 < n && s[i+1] == '(' {
				j := matchParen(s, i+1)
				w.WriteString(s[i:min(j, n)])
				subs = append(subs, inner(s, i+2, j))
				inWord, subst = true, true
				i = j
				continue
			}
			w.WriteByte(c)
			inWord, vref = true, true
			i++
		case c == '#' && !inWord:
			for i < n && s[i] != '\n' {
				i++
			}
		case c == '\n':
			endSeg()
			i++
			for _, delim := range heredocs {
				i = skipHeredoc(s, i, delim)
			}
			heredocs = nil
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			endSeg()
			i++
		case c == '<':
			if w.Len() > 0 && isDigits(w.String()) {
				w.Reset()
				inWord = false
			}
			endWord()
			switch {
			case strings.HasPrefix(s[i:], "<<<"):
				i += 3
				skipNext = true
			case strings.HasPrefix(s[i:], "<<"):
				i += 2
				if i < n && s[i] == '-' {
					i++
				}
				for i < n && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				j := i
				for j < n && !strings.ContainsRune(" \t\n;&|<>()", rune(s[j])) {
					j++
				}
				if delim := strings.Trim(s[i:j], `'"\`); delim != "" {
					heredocs = append(heredocs, delim)
				}
				i = j
			default:
				i++
				skipNext = true
			}
		case c == '>':
			if w.Len() > 0 && isDigits(w.String()) {
				w.Reset()
				inWord = false
			}
			endWord()
			i++
			if i < n && (s[i] == '>' || s[i] == '|') {
				i++
			}
			if i < n && s[i] == '&' {
				i++
				j := i
				for j < n && (s[j] >= '0' && s[j] <= '9' || s[j] == '-') {
					j++
				}
				if j > i {
					i = j
					continue
				}
			}
			skipNext = true
		default:
			w.WriteByte(c)
			inWord = true
			i++
		}
	}
	endSeg()
	return segs
}

// matchParen returns the index just past the ')' matching the '(' at open.
func matchParen(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\'':
			if k := strings.IndexByte(s[j+1:], '\''); k >= 0 {
				j += k + 1
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// skipHeredoc skips the heredoc body starting at i, through the line that
// holds only delim.
func skipHeredoc(s string, i int, delim string) int {
	for i < len(s) {
		end := strings.IndexByte(s[i:], '\n')
		line := s[i:]
		if end >= 0 {
			line = s[i : i+end]
		}
		if end < 0 {
			return len(s)
		}
		i += end + 1
		if strings.TrimSpace(line) == delim {
			return i
		}
	}
	return i
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
