package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestMemstartLinksWhatMemLinks: the floor built with -tags memstart links
// the packages mem's command does, no more and no fewer, or its start is
// not mem's start.
func TestMemstartLinksWhatMemLinks(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	deps := func(args ...string) []string {
		out, err := exec.Command("go", append([]string{"list", "-deps"}, args...)...).Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		var pkgs []string
		for _, p := range strings.Fields(string(out)) {
			if !strings.HasSuffix(p, "/cmd/mem") && !strings.HasSuffix(p, "/floorstore") {
				pkgs = append(pkgs, p)
			}
		}
		slices.Sort(pkgs)
		return pkgs
	}
	mem, floor := deps("../../../cmd/mem"), deps("-tags", "memstart", ".")
	if !slices.Equal(mem, floor) {
		for _, p := range mem {
			if !slices.Contains(floor, p) {
				t.Errorf("mem links %s and the floor does not: memstart.go imports what cmd/mem imports", p)
			}
		}
		for _, p := range floor {
			if !slices.Contains(mem, p) {
				t.Errorf("the floor links %s, which mem does not", p)
			}
		}
	}
}
