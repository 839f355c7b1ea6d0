package main

import (
	"testing"

	"github.com/mem-dev/mem/internal/lazyregexp"
)

// The packages' regular expressions compile on first use
// (internal/lazyregexp); mem links every package, so this compiles them
// all, and a bad expression fails here rather than in a user's run.
func TestRegexpsCompile(t *testing.T) {
	lazyregexp.CompileAll()
}
