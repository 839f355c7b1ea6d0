// Package lazyregexp is a regular expression compiled on its first use
// rather than at package initialization. A package-level
// regexp.MustCompile runs in every process that links the package, used or
// not: the mem binary links some ninety of them (secrets, capture, verify,
// sessions, skills, ...), which cost every `mem mcp` and every hook run by
// the full binary about a sixth of its start-up work, though such a run
// uses none of them. Declare them with New instead; the methods are
// regexp.Regexp's. Every expression is still checked before it ships:
// cmd/mem's tests, which link every package, compile them all
// (CompileAll); and a first use panics as MustCompile would.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled when a method is first called.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns expr, to be compiled on first use; it panics then if expr
// does not compile, as regexp.MustCompile does.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// CompileAll compiles every expression declared so far (in a test: every
// one of the packages the test binary links) and panics on the first that
// does not compile.
func CompileAll() {
	mu.Lock()
	rs := append([]*Regexp(nil), all...)
	mu.Unlock()
	for _, r := range rs {
		r.Regexp()
	}
}

// Regexp is the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

func (r *Regexp) String() string                 { return r.expr }
func (r *Regexp) MatchString(s string) bool      { return r.Regexp().MatchString(s) }
func (r *Regexp) FindString(s string) string     { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Regexp().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Regexp().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int    { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) Match(b []byte) bool            { return r.Regexp().Match(b) }
func (r *Regexp) FindIndex(b []byte) []int       { return r.Regexp().FindIndex(b) }
