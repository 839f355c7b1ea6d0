package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mem-dev/mem"

// TestLeanImports guards the prompt path's start-up time: linking a package
// runs its init on every prompt, used or not, and go-git, goldmark, YAML and
// kong together cost several milliseconds before main runs. The lean set is
// the one docs/architecture.md lists ("What mem-hook may link"): the test
// fails when mem-hook links a package of mem's the map does not name, no
// longer links one it names, links any other module, or links a package of
// the standard library the map says it never links.
func TestLeanImports(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	lean, never := leanSet(t, filepath.Join("..", "..", "docs", "architecture.md"))
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{if .Standard}}std {{end}}{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	linked := map[string]bool{}
	for _, line := range strings.Fields(strings.ReplaceAll(string(out), "std ", "std:")) {
		p, std := strings.CutPrefix(line, "std:")
		rel, ours := strings.CutPrefix(p, module+"/")
		switch {
		case std:
			if slices.Contains(never, p) {
				t.Errorf("mem-hook links %s, which docs/architecture.md says it never links", p)
			}
		case ours:
			linked[rel] = true
			if !slices.Contains(lean, rel) {
				t.Errorf("mem-hook links %s, which docs/architecture.md does not list: keep the prompt path lean, or list it there", rel)
			}
		default:
			t.Errorf("mem-hook links %s, a module outside the standard library (or mem's root package)", p)
		}
	}
	for _, p := range lean {
		if !linked[p] {
			t.Errorf("docs/architecture.md lists %s, which mem-hook no longer links: take it off the list", p)
		}
	}
}

// leanSet reads the two lists of the map's section on mem-hook: the
// packages of mem's it links, and the standard library's it never links,
// each a list of "- `path` …" lines.
func leanSet(t *testing.T, path string) (lean, never []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, list := false, &lean
	for line := range strings.Lines(string(b)) {
		switch {
		case strings.HasPrefix(line, "## "):
			in = strings.HasPrefix(line, "## What mem-hook may link")
		case !in:
		case strings.HasPrefix(line, "It never links"):
			list = &never
		case strings.HasPrefix(line, "- `"):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "- `"), "`")
			*list = append(*list, name)
		}
	}
	if len(lean) == 0 || len(never) == 0 {
		t.Fatalf("%s: no lists under \"## What mem-hook may link\"", path)
	}
	return lean, never
}
