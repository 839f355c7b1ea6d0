package mdparse

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Extract is the searchable content of a markdown body.
type Extract struct {
	// Text is the body as a reader sees it: no markup, no HTML, one block per
	// line; the text of links, and the content of code spans and code blocks,
	// are included. Asterisks and underscores inside a word or a path are
	// characters, not emphasis ("db/queries/*.sql", "pkg/__init__.py").
	Text string
	// Headings are the heading texts in order.
	Headings []string
	// Links are link, autolink (bare URLs too) and image destinations, once
	// each, in order.
	Links []string
	// Code holds each code span and code block (without fences), in order.
	Code []string
	// Paths are path-like tokens from the text, the code and relative link
	// destinations, once each, in order, each as the body spells it. See
	// pathToken for the rule.
	Paths []string
}

var (
	mdOnce   sync.Once
	mdParser parser.Parser
)

func markdown() parser.Parser {
	mdOnce.Do(func() {
		mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	})
	return mdParser
}

// Searchable is the body as the search index reads it: the text, then its
// paths and code spans once more, so that those count twice.
func (x Extract) Searchable() string {
	if extra := strings.Join(append(x.Paths, x.Code...), " "); extra != "" {
		return x.Text + "\n" + extra
	}
	return x.Text
}

// ExtractBody walks the markdown AST of body and returns its searchable parts.
//
// What it returns is taken from the source bytes the AST's nodes point at,
// not from how markdown would render them: emphasis whose delimiter sits
// inside a word or path (literalEmphasis) keeps the characters it was
// written with, so "db/queries/*.sql" and "pkg/__init__.py" are not read as
// "db/queries/" + emphasis + ".sql". Paths are read only from runs of
// contiguous source, so markup between two pieces ("db/`x`.go") never
// joins them into a path the body does not spell.
func ExtractBody(body []byte) Extract {
	doc := markdown().Parse(text.NewReader(body))
	var x Extract
	w := inlineWriter{src: body, stop: -1}
	links := map[string]bool{}
	addLink := func(dest string) {
		if dest != "" && !links[dest] {
			links[dest] = true
			x.Links = append(x.Links, dest)
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeBlock && n.Kind() != ast.KindDocument {
			if n.Kind() == east.KindTableCell {
				w.sep(' ')
			} else {
				w.sep('\n')
			}
		}
		if e, ok := n.(*ast.Emphasis); ok {
			w.emphasis(e, entering)
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			x.Headings = append(x.Headings, inlineText(n, body))
		case *ast.Text:
			w.text(n)
		case *ast.String:
			w.write(n.Value, -1)
		case *ast.CodeSpan:
			c := inlineText(n, body)
			x.Code = append(x.Code, c)
			w.write([]byte(c), -1)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			c := blockText(n, body)
			x.Code = append(x.Code, c)
			w.write([]byte(c), -1)
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			addLink(string(n.Destination))
		case *ast.Image:
			addLink(string(n.Destination))
		case *ast.AutoLink:
			addLink(string(n.URL(body)))
			w.write(n.Label(body), -1)
		case *ast.HTMLBlock, *ast.RawHTML, *east.TaskCheckBox:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	x.Text = strings.TrimSpace(string(w.buf))
	seen := map[string]bool{}
	addPath := func(p string) {
		if !seen[p] {
			seen[p] = true
			x.Paths = append(x.Paths, p)
		}
	}
	scanPaths(string(w.runs), addPath)
	for _, l := range x.Links {
		if p, ok := pathToken(l); ok {
			addPath(p)
		}
	}
	return x
}

// inlineWriter collects a body's text as a reader sees it (buf) and, beside
// it, the same pieces with a line break wherever one piece does not follow
// the other in the source (runs), which is what paths are read from.
type inlineWriter struct {
	src       []byte
	buf, runs []byte
	stop      int // where the last piece ended in src; -1 when it was not src's
}

// write adds a piece; start is where it begins in src, -1 when it is not a
// span of src (a code span's content, a label, a string).
func (w *inlineWriter) write(b []byte, start int) {
	if start < 0 || start != w.stop {
		w.runs = append(w.runs, '\n')
	}
	w.buf = append(w.buf, b...)
	w.runs = append(w.runs, b...)
	w.stop = -1
	if start >= 0 {
		w.stop = start + len(b)
	}
}

// text adds a text node and the line break that ends it, if any.
func (w *inlineWriter) text(n *ast.Text) {
	w.write(n.Segment.Value(w.src), n.Segment.Start)
	if n.Segment.Padding > 0 {
		w.stop = -1 // the value is not the source's bytes
	}
	switch {
	case n.HardLineBreak():
		w.buf = append(w.buf, '\n')
	case n.SoftLineBreak():
		w.buf = append(w.buf, ' ')
	}
}

// emphasis writes e's delimiters as they are in the source when they are
// literal (see literalEmphasis): the opening one on entering, the closing
// one on leaving.
func (w *inlineWriter) emphasis(e *ast.Emphasis, entering bool) {
	open, close, ok := literalEmphasis(e, w.src)
	switch {
	case !ok:
	case entering:
		w.write(w.src[open:open+e.Level], open)
	default:
		w.write(w.src[close:close+e.Level], close)
	}
}

// sep ends a block (c is '\n') or a table cell (c is ' ') in the text, and
// a run of source in any case.
func (w *inlineWriter) sep(c byte) {
	w.stop = -1
	switch b := w.buf; {
	case len(b) == 0 || b[len(b)-1] == '\n':
	case b[len(b)-1] == ' ':
		b[len(b)-1] = c
	default:
		w.buf = append(w.buf, c)
	}
}

// literalEmphasis reports whether markdown took characters for emphasis
// that the writer meant as written, and where its opening and closing
// delimiters start in src. It is so when either delimiter sits inside a
// word or a path, with a word character on both sides of it ("queries/*.sql",
// "pkg/__init__.py", "2*3*4"); emphasis as people write it opens at the
// start of a word and closes at its end ("see **db/x.go** now", "(*sic*)").
// ok is false for emphasis whose delimiters cannot be found (it opens or
// closes with a code span or a link): that is taken as emphasis.
func literalEmphasis(e *ast.Emphasis, src []byte) (open, close int, ok bool) {
	start, stop := contentStart(e), contentStop(e)
	if start < 0 || stop < 0 {
		return 0, 0, false
	}
	open, close = start-e.Level, stop
	if open < 0 || close+e.Level > len(src) || !delimiters(src[open:start]) || !delimiters(src[close:close+e.Level]) {
		return 0, 0, false
	}
	glued := func(i, j int) bool { // the delimiter is src[i:j]
		return wordBefore(src[:i]) && wordAfter(src[j:])
	}
	return open, close, glued(open, start) || glued(close, close+e.Level)
}

// contentStart is where the content of e starts in the source: its first
// text, or its first emphasis's opening delimiter; -1 when it starts with
// anything else.
func contentStart(e *ast.Emphasis) int {
	switch c := e.FirstChild().(type) {
	case *ast.Text:
		return c.Segment.Start
	case *ast.Emphasis:
		if s := contentStart(c); s >= 0 {
			return s - c.Level
		}
	}
	return -1
}

// contentStop is where the content of e stops in the source (see
// contentStart).
func contentStop(e *ast.Emphasis) int {
	switch c := e.LastChild().(type) {
	case *ast.Text:
		return c.Segment.Stop
	case *ast.Emphasis:
		if s := contentStop(c); s >= 0 {
			return s + c.Level
		}
	}
	return -1
}

// delimiters reports whether b is a run of one emphasis character.
func delimiters(b []byte) bool {
	return len(b) > 0 && (b[0] == '*' || b[0] == '_') && len(bytes.Trim(b, string(b[:1]))) == 0
}

// wordBefore reports whether b ends in a word character: a letter, a digit,
// '/', '_', '-', or a '.' after one of those.
func wordBefore(b []byte) bool {
	r, n := utf8.DecodeLastRune(b)
	if r == '.' {
		r, _ = utf8.DecodeLastRune(b[:len(b)-n])
	}
	return wordRune(r)
}

// wordAfter reports whether b starts with a word character: a letter, a
// digit, '/', '_', '-', or a '.' before one of those (an extension, not a
// full stop).
func wordAfter(b []byte) bool {
	r, n := utf8.DecodeRune(b)
	if r == '.' {
		r, _ = utf8.DecodeRune(b[n:])
	}
	return wordRune(r)
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' || r == '_' || r == '-'
}

// inlineText is the plain text under an inline container, with literal
// emphasis as written (see literalEmphasis).
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if e, ok := c.(*ast.Emphasis); ok {
			if open, close, ok := literalEmphasis(e, src); ok {
				at := close
				if entering {
					at = open
				}
				b.Write(src[at : at+e.Level])
			}
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// blockText is the content of a code block, without its last newline.
func blockText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	return strings.TrimRight(b.String(), "\n")
}

// scanPaths calls add for each path-like token of s.
func scanPaths(s string, add func(string)) {
	for len(s) > 0 {
		i := strings.IndexFunc(s, isTokenChar)
		if i < 0 {
			return
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !isTokenChar(r) })
		if j < 0 {
			j = len(s)
		}
		tok := s[:j]
		s = s[j:]
		if strings.IndexByte(tok, '/') < 0 {
			continue
		}
		if p, ok := pathToken(tok); ok {
			add(p)
		}
	}
}

// isTokenChar reports whether r can be part of a token that may be a path.
// Tokens are split at spaces, quotes, backticks, commas, semicolons, pipes
// and equals signs.
func isTokenChar(r rune) bool {
	if unicode.IsSpace(r) {
		return false
	}
	switch r {
	case '`', '"', '\'', ',', ';', '|', '=', '\u2018', '\u2019', '\u201c', '\u201d':
		return false
	}
	return true
}

// pathToken trims punctuation around tok and a ":line[:col]" suffix, and
// reports whether what is left is a path in a repository.
//
// A path has a '/' between two names and is relative: URLs ("://", "www."),
// home paths ("~/..."), absolute paths and API routes ("/v1/checkout"), and
// anything with a shell or template character ("*", "<", "?", "$", "{", "#",
// ":") are not paths. To keep "and/or", "linux/arm64", "next/image",
// branch names and secret names out, a path must also either start with
// "./" or "../", or be a directory of two names or more ending in "/"
// ("infra/scripts/", not "agent/"), or end in a file name with a lower-case
// extension or a dotfile ("tax.py", "login.cy.ts", ".nvmrc").
// A first segment that looks like a host ("github.com/...") is not a path.
// So "internal/store" is missed and "internal/store/" is found, on purpose.
func pathToken(tok string) (string, bool) {
	tok = strings.TrimLeft(tok, "([{<")
	for tok != "" {
		last, size := utf8.DecodeLastRuneInString(tok)
		trim := strings.ContainsRune(".,:;!?]}>\u2026", last) ||
			(last == ')' && strings.Count(tok, "(") < strings.Count(tok, ")"))
		if !trim {
			break
		}
		tok = tok[:len(tok)-size]
	}
	tok = trimLineSuffix(tok)
	if len(tok) < 3 || strings.Contains(tok, "//") || strings.HasPrefix(tok, "www.") {
		return "", false
	}
	switch tok[0] {
	case '/', '~', '-', '@', '+':
		return "", false
	}
	for _, r := range tok {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("./_-+@()[]", r)) {
			return "", false
		}
	}
	segs := strings.Split(tok, "/")
	if len(segs) < 2 {
		return "", false
	}
	for _, s := range segs[:len(segs)-1] {
		if s == "" {
			return "", false
		}
	}
	if segs[0] != "." && segs[0] != ".." && strings.Trim(segs[0], ".") == "" {
		return "", false
	}
	if strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "../") {
		return tok, strings.Trim(tok, "./") != ""
	}
	if strings.IndexByte(segs[0], '.') > 0 {
		return "", false // a host name
	}
	name := segs[len(segs)-1]
	if name == "" {
		return tok, len(segs) > 2 // a directory: "infra/scripts/", not "agent/"
	}
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || dot == len(name)-1 {
		return "", false
	}
	ext := name[dot+1:]
	letter := false
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		default:
			return "", false
		}
	}
	return tok, letter && len(ext) <= 10
}

// trimLineSuffix removes ":12" or ":12:5" from the end of a path.
func trimLineSuffix(s string) string {
	for k := 0; k < 2; k++ {
		i := strings.LastIndexByte(s, ':')
		if i < 0 || i == len(s)-1 || strings.Trim(s[i+1:], "0123456789") != "" {
			break
		}
		s = s[:i]
	}
	return s
}
