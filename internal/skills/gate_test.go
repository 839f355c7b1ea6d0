package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGate: six adversarial drafts are each rejected by the gate they
// break, and only that one; a valid draft is admitted.
func TestGate(t *testing.T) {
	wt := t.TempDir()
	os.MkdirAll(filepath.Join(wt, "parse"), 0o755)
	os.WriteFile(filepath.Join(wt, "parse", "parse_test.go"), []byte("package parse\n"), 0o644)
	os.WriteFile(filepath.Join(wt, "Makefile"), []byte("test:\n"), 0o644)
	if err := os.Symlink(t.TempDir(), filepath.Join(wt, "out")); err != nil {
		t.Fatal(err)
	}

	seen3 := Evidence{
		Seen: []string{"s1", "s2", "s3"},
		Errors: map[string][]string{
			"s2": {"Exit code 1\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: unexpected EOF", "go test <path>"},
		},
	}
	valid := Draft{
		Name:             "test-before-commit",
		Description:      "Run the parser tests before committing a change to parse/.",
		FailurePrevented: "A commit that breaks parsing: `--- FAIL: TestParse (0.00s) parse_test.go:12: unexpected EOF`.",
		EvidenceSessions: []string{"s2", "s3"},
		Paths:            []string{"parse/parse_test.go"},
		Body:             "1. Run `go test ./parse/...`.\n2. Read `parse/parse_test.go` when TestParse fails.\n3. Commit only when it passes; see `Makefile`.",
		Justification:    "Without it a change to the parser is committed while TestParse fails, and the next session starts from a broken build.",
	}
	with := func(f func(*Draft)) Draft {
		d := valid
		f(&d)
		return d
	}
	tests := []struct {
		name  string
		draft Draft
		ev    Evidence
		gate  string // the one gate expected to fail; "" = admitted
	}{
		{"valid", valid, seen3, ""},
		{"shadows a built-in", with(func(d *Draft) { d.Name = "compact" }), seen3, GateShadow},
		{"saves time", with(func(d *Draft) {
			d.Justification = "Saves time: the workflow is faster and more efficient, with less typing."
		}), seen3, GateJustification},
		{"seen once", with(func(d *Draft) { d.EvidenceSessions = []string{"s2"} }),
			Evidence{Seen: []string{"s2"}, Errors: seen3.Errors}, GateSessions},
		{"invented paths", with(func(d *Draft) { d.Paths = []string{"internal/parser/lexer.go"} }), seen3, GatePaths},
		{"oversized body", with(func(d *Draft) { d.Body = strings.Repeat("Run the tests again, carefully.\n", 61) }), seen3, GatePage},
		{"no failure named", with(func(d *Draft) { d.FailurePrevented = "" }), seen3, GateFailure},
		// More of the same gates, from other angles.
		{"failure not in the transcripts", with(func(d *Draft) { d.FailurePrevented = "the tests might break one day" }), seen3, GateFailure},
		{"failure quoted from an uncited session", with(func(d *Draft) { d.EvidenceSessions = []string{"s1", "s3"} }), seen3, GateFailure},
		{"cites a session not seen", with(func(d *Draft) { d.EvidenceSessions = append(d.EvidenceSessions, "s9") }), seen3, GateSessions},
		{"path in the body", with(func(d *Draft) { d.Body += "\n4. Then run `scripts/check.sh`." }), seen3, GatePaths},
		{"path outside the work tree", with(func(d *Draft) { d.Paths = []string{"../elsewhere"} }), seen3, GatePaths},
		{"absolute path", with(func(d *Draft) { d.Paths = []string{"/etc/passwd"} }), seen3, GatePaths},
		{"existing skill", with(func(d *Draft) { d.Name = "deploy" }), seen3, GateShadow},
		{"bad name", with(func(d *Draft) { d.Name = "Test Before Commit" }), seen3, GateName},
		{"body too many bytes", with(func(d *Draft) { d.Body = strings.Repeat("x", MaxBodyBytes+1) }), seen3, GatePage},
	}
	g := &Gate{WorkTree: wt, Taken: map[string]bool{"deploy": true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := g.Check(tt.draft, tt.ev)
			if tt.gate == "" {
				if len(fs) > 0 {
					t.Fatalf("valid draft rejected: %v", fs)
				}
				return
			}
			if len(fs) == 0 {
				t.Fatalf("admitted; want rejected by %s", tt.gate)
			}
			for _, f := range fs {
				if f.Gate != tt.gate {
					t.Errorf("failed %v; want only %s", f, tt.gate)
				}
			}
		})
	}

	// A symlink out of the work tree is refused for where it leads, not for
	// being missing.
	if fs := g.Check(with(func(d *Draft) { d.Paths = []string{"out"} }), seen3); len(fs) != 1 || fs[0].Gate != GatePaths || !strings.Contains(fs[0].Reason, "leads outside") {
		t.Errorf("symlink out of the work tree: %v", fs)
	}

	// All six adversarial drafts at once: every gate is reported.
	bad := Draft{Name: "help", Justification: "saves time", Paths: []string{"nope/x.go"},
		Body: strings.Repeat("line\n", 70), EvidenceSessions: []string{"s1"}}
	got := map[string]bool{}
	for _, f := range g.Check(bad, Evidence{Seen: []string{"s1"}}) {
		got[f.Gate] = true
	}
	for _, want := range []string{GateShadow, GateJustification, GateSessions, GatePaths, GatePage, GateFailure} {
		if !got[want] {
			t.Errorf("combined bad draft: gate %s not reported (got %v)", want, got)
		}
	}
}
