package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeanImports guards the prompt path's start-up time: linking a package
// runs its init on every prompt, used or not, and go-git, goldmark, YAML and
// kong together cost several milliseconds before main runs.
func TestLeanImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{
		"github.com/go-git/", "github.com/yuin/goldmark", "gopkg.in/yaml", "github.com/adrg/frontmatter",
		"github.com/alecthomas/kong", "github.com/modelcontextprotocol/",
		"github.com/mem-dev/mem/mdparse", "github.com/mem-dev/mem/gitstore", "github.com/mem-dev/mem/internal/install",
		"regexp", "net/http",
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("mem-hook depends on %s: keep the prompt path lean", dep)
			}
		}
	}
}
