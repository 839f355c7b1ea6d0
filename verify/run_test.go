package verify

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
	"github.com/mem-dev/mem/mdparse"
)

type pathLabel struct {
	Memory string `json:"memory"`
	Path   string `json:"path"`
}

func storeLabels(t *testing.T) (dead, live []pathLabel) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(needShared(t), "store-labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Dead []pathLabel `json:"dead_paths"`
		Live []pathLabel `json:"live_paths"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Dead) == 0 || len(l.Live) == 0 {
		t.Fatal("store-labels.json has no dead_paths or live_paths")
	}
	return l.Dead, l.Live
}

// TestRunFixture is the verifier on the evaluation store placed in a git
// repository made from the evaluation codebase: every labelled dead path is
// flagged, no labelled live path is, and nothing else fails.
func TestRunFixture(t *testing.T) {
	dead, live := storeLabels(t)
	dir, mems := fixture(t)
	var calls, last int
	r := Run(context.Background(), &Prober{Repo: dir}, nil, mems, func(done, total int) {
		calls++
		if done != last+1 || total != len(mems) {
			t.Errorf("progress(%d, %d) after %d", done, total, last)
		}
		last = done
	})
	if calls != len(mems) {
		t.Errorf("progress called %d times for %d memories", calls, len(mems))
	}
	failed := map[pathLabel]bool{}
	for _, f := range r.Failed {
		if f.Kind != PathExists {
			t.Errorf("unexpected failure %+v", f)
			continue
		}
		failed[pathLabel{f.Memory, f.Arg}] = true
	}
	for _, d := range dead {
		if !failed[d] {
			t.Errorf("dead path not flagged: %s in %s", d.Path, d.Memory)
		}
		delete(failed, d)
	}
	for f := range failed {
		t.Errorf("flagged a path that is not labelled dead: %s in %s", f.Path, f.Memory)
	}
	passed := map[pathLabel]bool{}
	for _, f := range r.PassedClaims {
		passed[pathLabel{f.Memory, f.Arg}] = true
	}
	for _, l := range live {
		if !passed[l] {
			t.Errorf("live path not passed: %s in %s", l.Path, l.Memory)
		}
	}
	if r.Memories != len(mems) || r.Claims != r.Passed+r.Unknown+len(r.Failed) || len(r.Rejected) != 0 {
		t.Errorf("report counts: memories %d claims %d passed %d unknown %d failed %d rejected %d",
			r.Memories, r.Claims, r.Passed, r.Unknown, len(r.Failed), len(r.Rejected))
	}
	t.Logf("fixture: %d memories, %d claims: %d passed, %d failed, %d unknown, %d rejected",
		r.Memories, r.Claims, r.Passed, len(r.Failed), r.Unknown, len(r.Rejected))
}

func TestReportJSON(t *testing.T) {
	r := Run(context.Background(), &Prober{Repo: t.TempDir()}, nil, map[string]*mdparse.Memory{}, nil)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"memories":0,"claims":0,"passed":0,"unknown":0,"failed":[],"rejected":[],"passed_claims":[],"unknown_claims":[]}`
	if string(b) != want {
		t.Errorf("empty report = %s, want %s", b, want)
	}

	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shop", "cart.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mems := map[string]*mdparse.Memory{
		"vat": mdparse.New(mdparse.Fields{Name: "VAT"}, "Rounding is in `shop/tax.py`, the cart in shop/cart.py."),
	}
	r = Run(context.Background(), &Prober{Repo: dir}, nil, mems, nil)
	b, _ = json.Marshal(r)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	f := got["failed"].([]any)[0].(map[string]any)
	if f["memory"] != "vat" || f["kind"] != "path_exists" || f["arg"] != "shop/tax.py" || !strings.HasPrefix(f["reason"].(string), "path shop/tax.py does not exist") {
		t.Errorf("failed[0] = %v", f)
	}
	if p := got["passed_claims"].([]any); len(p) != 1 || p[0].(map[string]any)["arg"] != "shop/cart.py" {
		t.Errorf("passed_claims = %v", p)
	}
}

func TestLabels(t *testing.T) {
	day := time.Date(2026, 11, 21, 23, 0, 0, 0, time.UTC)
	failed := []Finding{
		{Memory: "vat", Kind: PathExists, Arg: "shop/tax.py", Reason: "path shop/tax.py does not exist (not at the root...)"},
		{Memory: "vat", Kind: BranchExists, Arg: "release/1", Reason: "branch release/1 does not exist (no local or remote-tracking branch)"},
		{Memory: "vat", Kind: PathExists, Arg: "shop/tax.py", Reason: "path shop/tax.py does not exist"},
		{Memory: "deploy", Kind: PRMerged, Arg: "231", Reason: "PR #231 is not merged: ..."},
		{Memory: "deploy", Kind: CommitExists, Arg: "abcdef1", Reason: "commit abcdef1 does not exist in this repository"},
	}
	got := Labels(failed, day)
	want := map[string][]string{
		"vat":    {"branch release/1 does not exist (2026-11-21)", "path shop/tax.py does not exist (2026-11-21)"},
		"deploy": {"PR #231 is not merged (2026-11-21)", "commit abcdef1 does not exist (2026-11-21)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Labels = %q, want %q", got, want)
	}
	if l := Labels(nil, day); len(l) != 0 {
		t.Errorf("Labels(nil) = %v", l)
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name                 string
		current, fresh, want []string
	}{
		{"new", nil, []string{"path a/b.go does not exist (2026-11-21)"}, []string{"path a/b.go does not exist (2026-11-21)"}},
		{"persists keeps first date", []string{"path a/b.go does not exist (2026-10-01)"}, []string{"path a/b.go does not exist (2026-11-21)"}, []string{"path a/b.go does not exist (2026-10-01)"}},
		{"passes again clears", []string{"path a/b.go does not exist (2026-10-01)"}, nil, []string{}},
		{"mixed", []string{"path a/b.go does not exist (2026-10-01)", "branch x/y does not exist (2026-10-02)"},
			[]string{"path c.go does not exist (2026-11-21)", "branch x/y does not exist (2026-11-21)"},
			[]string{"branch x/y does not exist (2026-10-02)", "path c.go does not exist (2026-11-21)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Merge(tt.current, tt.fresh); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Merge = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRunDedupesModelClaims: a claim found in the text and again by the model
// is probed once, as the text's.
func TestRunDedupesModelClaims(t *testing.T) {
	dir := t.TempDir()
	a := &modeltest.Asker{Answer: `{"claims":[{"kind":"path_exists","path":"shop/tax.py"},{"kind":"path_exists","path":"./shop/cart.py"}]}`}
	mems := map[string]*mdparse.Memory{"vat": mdparse.New(mdparse.Fields{Name: "VAT"}, "See `shop/tax.py`.")}
	r := Run(context.Background(), &Prober{Repo: dir}, a, mems, nil)
	if r.Claims != 2 {
		t.Errorf("claims = %d, want 2 (shop/tax.py once, shop/cart.py from the model)", r.Claims)
	}
}

// unavailable is a model runner that cannot run, like a nil *modelcmd.Runner.
type unavailable struct{ modeltest.Asker }

func (*unavailable) Available() error { return errors.New("no model available") }

func TestRunUnavailableModel(t *testing.T) {
	a := &unavailable{}
	mems := map[string]*mdparse.Memory{"n": mdparse.New(mdparse.Fields{Name: "n"}, "See `a/b.go`.")}
	r := Run(context.Background(), &Prober{Repo: t.TempDir()}, a, mems, nil)
	if a.Calls() != 0 || len(r.ModelErrors) != 0 || r.Claims != 1 {
		t.Errorf("unavailable model: asked %d times, report %+v", a.Calls(), r)
	}
}

func TestProberExists(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "atlas-api", "internal", "auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Prober{Repo: dir}
	for _, tt := range []struct {
		path          string
		exists, known bool
	}{
		{"internal/auth/", true, true},
		{"atlas-api/internal/billing/plans.go", false, true},
		{"staging/terraform.tfstate", false, false},
		{"../../etc/passwd", false, false},
	} {
		if e, k := p.Exists(tt.path); e != tt.exists || k != tt.known {
			t.Errorf("Exists(%q) = %v, %v; want %v, %v", tt.path, e, k, tt.exists, tt.known)
		}
	}
}
