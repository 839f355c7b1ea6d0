package lazyregexp

import (
	"slices"
	"testing"
)

func TestRegexp(t *testing.T) {
	r := New(`(\w+)@(\w+)`)
	if r.re != nil {
		t.Fatal("New compiled the expression")
	}
	if got := r.FindStringSubmatch("mail ada@example now"); !slices.Equal(got, []string{"ada@example", "ada", "example"}) {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	if r.re == nil || r.String() != `(\w+)@(\w+)` || !r.Match([]byte("a@b")) || r.MatchString("ab") {
		t.Error("the compiled expression does not behave as regexp's")
	}
}

func TestCompileAllPanicsOnABadExpression(t *testing.T) {
	bad := New(`(`)
	defer func() {
		mu.Lock()
		all = slices.DeleteFunc(all, func(r *Regexp) bool { return r == bad })
		mu.Unlock()
		if recover() == nil {
			t.Error("CompileAll did not panic on an expression that does not compile")
		}
	}()
	CompileAll()
}
