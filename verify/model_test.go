package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/mdparse"
)

// hostile is what a compromised or confused model might answer; sentinel is
// the path a successful injection would create.
func hostile(sentinel string) []string {
	return []string{
		`{"kind":"path_exists","path":"../../etc/passwd"}`,
		`{"kind":"path_exists","path":"/etc/passwd"}`,
		`{"kind":"path_exists","path":"$(touch ` + sentinel + `)"}`,
		`{"kind":"path_exists","path":"` + "`touch " + sentinel + "`" + `"}`,
		`{"kind":"path_exists","path":"escape/passwd"}`,
		`{"kind":"path_exists","path":"ok.go\u0000; touch ` + sentinel + `"}`,
		`{"kind":"path_exists","path":"ok.go","command":"touch ` + sentinel + `"}`,
		`{"kind":"path_exists","path":42}`,
		`{"kind":"branch_exists","branch":"main; touch ` + sentinel + `"}`,
		`{"kind":"branch_exists","branch":"$(touch ` + sentinel + `)"}`,
		`{"kind":"branch_exists","branch":"` + "`touch " + sentinel + "`" + `"}`,
		`{"kind":"branch_exists","branch":"--upload-pack=touch ` + sentinel + `"}`,
		`{"kind":"branch_exists","branch":"-D"}`,
		`{"kind":"url_responds","url":"file:///etc/passwd"}`,
		`{"kind":"url_responds","url":"javascript:alert(1)"}`,
		`{"kind":"url_responds","url":"https://user:pw@host/"}`,
		`{"kind":"url_responds","url":"gopher://host/x"}`,
		// The extractor refuses local addresses; so does a model's claim.
		`{"kind":"url_responds","url":"http://127.0.0.1:9/admin"}`,
		`{"kind":"url_responds","url":"http://[::1]/"}`,
		`{"kind":"url_responds","url":"http://10.0.0.5/metrics"}`,
		`{"kind":"url_responds","url":"http://localhost:8080/"}`,
		`{"kind":"url_responds","url":"http://169.254.169.254/latest/meta-data/"}`,
		`{"kind":"shell","command":"touch ` + sentinel + `"}`,
		`{"kind":"exec","path":"touch ` + sentinel + `"}`,
		`{"kind":"pr_merged","number":"12; rm -rf /"}`,
		`{"kind":"pr_merged","number":-1}`,
		`{"kind":"pr_merged","number":0}`,
		`{"kind":"pr_merged","number":1.5}`,
		`{"kind":"pr_merged","number":"$(touch ` + sentinel + `)"}`,
		`{"kind":"commit_exists","sha":"HEAD; touch ` + sentinel + `"}`,
		`{"kind":"commit_exists","sha":"--all"}`,
		`"touch ` + sentinel + `"`,
		`{"kind":"path_exists"}`,
	}
}

func TestModelClaimsHostile(t *testing.T) {
	dir := t.TempDir()
	sentinel := filepath.Join(t.TempDir(), "x")
	if err := os.Symlink("/etc", filepath.Join(dir, "escape")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	gitInit(t, dir)
	bad := hostile(sentinel)
	good := []string{`{"kind":"path_exists","path":"ok.go"}`, `{"kind":"pr_merged","number":"7"}`}
	a := &modeltest.Asker{Answer: `{"claims":[` + strings.Join(append(bad, good...), ",") + `]}`}
	m := mdparse.New(mdparse.Fields{Name: "n"}, "A note with nothing checkable.")

	// ModelClaims checks the shape of each claim.
	claims, rejected, err := ModelClaims(context.Background(), a, m)
	if err != nil {
		t.Fatal(err)
	}
	want := []Claim{{PathExists, "escape/passwd", SourceModel}, {PathExists, "ok.go", SourceModel}, {PRMerged, "7", SourceModel}}
	if fmt.Sprint(claims) != fmt.Sprint(want) {
		t.Errorf("claims = %v, want %v (escape/passwd is refused by Run, which knows the repository)", claims, want)
	}
	if len(rejected) != len(bad)-1 {
		t.Errorf("rejected %d, want %d", len(rejected), len(bad)-1)
	}

	// Run validates against the repository too, and reports every refusal.
	r := Run(context.Background(), &Prober{Repo: dir}, a, map[string]*mdparse.Memory{"n": m}, nil)
	got := map[string]string{}
	for _, rj := range r.Rejected {
		if rj.Memory != "n" || rj.Reason == "" {
			t.Errorf("rejection without memory or reason: %+v", rj)
		}
		got[rj.Claim] = rj.Reason
	}
	for _, b := range bad {
		key := compact(json.RawMessage(b))
		if b == `{"kind":"path_exists","path":"escape/passwd"}` {
			key = "path_exists escape/passwd"
		}
		if _, ok := got[key]; !ok {
			t.Errorf("not rejected: %s", b)
		}
	}
	for _, f := range append(append(r.PassedClaims, r.UnknownClaims...), r.Failed...) {
		if f.Arg != "ok.go" && f.Arg != "7" {
			t.Errorf("probed a hostile claim: %+v", f)
		}
	}
	if r.Claims != 2 || r.Passed != 1 || r.Unknown != 1 {
		t.Errorf("claims %d passed %d unknown %d, want 2, 1 (ok.go), 1 (#7: no PR history)", r.Claims, r.Passed, r.Unknown)
	}
	if _, err := os.Stat(sentinel); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("sentinel %s exists: something was executed", sentinel)
	}
	for _, rj := range r.Rejected {
		t.Logf("rejected %s: %s", rj.Claim, rj.Reason)
	}
}

func TestModelClaimsPrompt(t *testing.T) {
	a := &modeltest.Asker{Answer: `{"claims":[]}`}
	m := mdparse.New(mdparse.Fields{Name: "VAT rounding", Description: "rounded per line"}, "See shop/tax.py.")
	claims, rejected, err := ModelClaims(context.Background(), a, m)
	if err != nil || len(claims) != 0 || len(rejected) != 0 {
		t.Fatalf("ModelClaims = %v, %v, %v", claims, rejected, err)
	}
	p := a.Prompt()
	for _, s := range []string{`"claims"`, `"kind":"pr_merged","number":231`, "IS MERGED", "Title: VAT rounding", "Summary: rounded per line", "See shop/tax.py."} {
		if !strings.Contains(p, s) {
			t.Errorf("prompt lacks %q", s)
		}
	}
	if c, r, err := ModelClaims(context.Background(), nil, m); c != nil || r != nil || err != nil {
		t.Error("a nil modelcmd.Asker must add nothing")
	}
}

func TestModelClaimsErrors(t *testing.T) {
	m := mdparse.New(mdparse.Fields{Name: "n"}, "PR #3 merged.")
	for _, a := range []*modeltest.Asker{{Err: errors.New("model timed out")}, {Answer: `{"claims":"rm -rf /"}`}, {Answer: `not json`}, {Answer: `{}`}, {Answer: `{"claims":null}`}} {
		if _, _, err := ModelClaims(context.Background(), a, m); err == nil {
			t.Errorf("answer %q, error %v: ModelClaims gave no error", a.Answer, a.Err)
		}
		// Run still probes the text's claims and reports the model's failure.
		r := Run(context.Background(), &Prober{Repo: t.TempDir()}, a, map[string]*mdparse.Memory{"n": m}, nil)
		if r.Claims != 1 || len(r.ModelErrors) != 1 || r.ModelErrors[0].Memory != "n" {
			t.Errorf("Run with a failing model: %+v", r)
		}
	}
}
