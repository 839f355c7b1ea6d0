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
	// are included.
	Text string
	// Headings are the heading texts in order.
	Headings []string
	// Links are link, autolink (bare URLs too) and image destinations, once
	// each, in order.
	Links []string
	// Code holds each code span and code block (without fences), in order.
	Code []string
	// Paths are path-like tokens from the text, the code and relative link
	// destinations, once each, in order. See pathToken for the rule.
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
func ExtractBody(body []byte) Extract {
	doc := markdown().Parse(text.NewReader(body))
	var x Extract
	var buf []byte
	links := map[string]bool{}
	addLink := func(dest string) {
		if dest != "" && !links[dest] {
			links[dest] = true
			x.Links = append(x.Links, dest)
		}
	}
	sep := func(c byte) {
		switch {
		case len(buf) == 0 || buf[len(buf)-1] == '\n':
		case buf[len(buf)-1] == ' ':
			buf[len(buf)-1] = c
		default:
			buf = append(buf, c)
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeBlock && n.Kind() != ast.KindDocument {
			if n.Kind() == east.KindTableCell {
				sep(' ')
			} else {
				sep('\n')
			}
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			x.Headings = append(x.Headings, inlineText(n, body))
		case *ast.Text:
			buf = append(buf, n.Value(body)...)
			switch {
			case n.HardLineBreak():
				buf = append(buf, '\n')
			case n.SoftLineBreak():
				buf = append(buf, ' ')
			}
		case *ast.String:
			buf = append(buf, n.Value...)
		case *ast.CodeSpan:
			c := inlineText(n, body)
			x.Code = append(x.Code, c)
			buf = append(buf, c...)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			c := blockText(n, body)
			x.Code = append(x.Code, c)
			buf = append(buf, c...)
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			addLink(string(n.Destination))
		case *ast.Image:
			addLink(string(n.Destination))
		case *ast.AutoLink:
			addLink(string(n.URL(body)))
			buf = append(buf, n.Label(body)...)
		case *ast.HTMLBlock, *ast.RawHTML, *east.TaskCheckBox:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	x.Text = strings.TrimSpace(string(buf))
	seen := map[string]bool{}
	addPath := func(p string) {
		if !seen[p] {
			seen[p] = true
			x.Paths = append(x.Paths, p)
		}
	}
	scanPaths(x.Text, addPath)
	for _, l := range x.Links {
		if p, ok := pathToken(l); ok {
			addPath(p)
		}
	}
	return x
}

// inlineText is the plain text under an inline container.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
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
