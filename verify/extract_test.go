package verify

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mem-dev/mem/mdparse"
)

func mem(t testing.TB, body string) *mdparse.Memory {
	t.Helper()
	m, err := mdparse.Parse("x.md", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func args(cs []Claim, k Kind) []string {
	var out []string
	for _, c := range cs {
		if c.Kind == k {
			out = append(out, c.Arg)
		}
	}
	return out
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name string
		body string
		kind Kind
		want []string // nil: no claim of kind
	}{
		// paths
		{"path in code", "Limits are in `atlas-api/internal/billing/plans.go`.", PathExists, []string{"atlas-api/internal/billing/plans.go"}},
		{"path in prose with line", "See shop/checkout/tax.py:42 for the rounding.", PathExists, []string{"shop/checkout/tax.py"}},
		{"dot slash trimmed", "Run `./scripts/seed.sh` first.", PathExists, []string{"scripts/seed.sh"}},
		{"dot dot left out", "The sibling repo has `../atlas-web/src/app.ts`.", PathExists, nil},
		{"directory with slash", "Everything under infra/scripts/ is bash.", PathExists, []string{"infra/scripts/"}},
		{"source dir in code span", "Regenerate `internal/store` with sqlc; the tool is `atlas-api/cmd/import`.", PathExists, []string{"internal/store", "atlas-api/cmd/import"}},
		{"description too", "---\nname: t\ndescription: tokens land in src/styles/tokens.css\n---\nbody\n", PathExists, []string{"src/styles/tokens.css"}},
		{"home path", "Put the password in `~/.pgpass` and `~/.config/x.yaml`.", PathExists, nil},
		{"absolute path", "Logs go to `/var/log/atlas/api.log`.", PathExists, nil},
		{"api route", "`POST /v1/studios/{id}/members` and `/webhooks/stripe` and /api/v2/x.json", PathExists, nil},
		{"secret names", "Secrets: `/lark/prod/ledger/STRIPE_SECRET_KEY`, `rds-proxy/atlas_app`, `prod/ledger/stripe`.", PathExists, nil},
		{"not paths", "Build for `linux/arm64` with `docker/build-push-action`; use `next/image`, and/or `Australia/Sydney`.", PathExists, nil},
		{"symbol", "Inject `internal/clock.Clock`.", PathExists, nil},
		{"url is not a path", "See https://github.com/mem-dev/mem/blob/main/go.mod.", PathExists, nil},
		{"fenced block paths count", "```sh\ncat infra/envs/prod/dns.tf\n```", PathExists, []string{"infra/envs/prod/dns.tf"}},

		// branches
		{"branch then name", "The fix lives on branch `hotfix-2` and on branch release/2026-10.", BranchExists, []string{"hotfix-2", "release/2026-10"}},
		{"the name branch", "It is on the release/2026-10 branch, and in the `develop` branch.", BranchExists, []string{"release/2026-10", "develop"}},
		{"branch foo/bar", "Work continues in branch foo/bar.", BranchExists, []string{"foo/bar"}},
		{"action target", "The sync pushes tokens.json to the branch `tokens/update` and opens a PR.", BranchExists, nil},
		{"generic branches", "Cherry-pick onto a hotfix branch; use a feature branch; the branch protection rule; your branch `x/y`.", BranchExists, nil},
		{"placeholder", "Branch names look like the branch `<initials>/lrk-<id>`.", BranchExists, nil},
		{"plain word not a name", "Rebase on the main branch.", BranchExists, nil},
		{"refs heads", "It is on branch `refs/heads/topic/a`.", BranchExists, []string{"topic/a"}},

		// pull requests
		{"pr merged", "PR #231 was merged on Monday.", PRMerged, []string{"231"}},
		{"hash merged", "#231 merged, so the flag is gone.", PRMerged, []string{"231"}},
		{"merged in", "The fix was merged in #88 and merged via PR 90.", PRMerged, []string{"88", "90"}},
		{"merged parenthesis", "Rounding fix: PR #12 (merged 2026-10-02).", PRMerged, []string{"12"}},
		{"pr has been merged", "Pull request #7 has been merged.", PRMerged, []string{"7"}},
		{"pull url", "https://github.com/mem-dev/shop/pull/231 was merged.", PRMerged, []string{"github.com/mem-dev/shop#231"}},
		{"pull link", "[PR #231](https://github.com/mem-dev/shop/pull/231) merged last week.", PRMerged, []string{"github.com/mem-dev/shop#231"}},
		{"open pr", "Open PR #12 adds the index; PR #13 is open.", PRMerged, nil},
		{"closed pr", "PR #14 was closed without merging.", PRMerged, nil},
		{"not merged", "PR #15 is not merged yet; PR #16 was never merged.", PRMerged, nil},
		{"future", "Once PR #17 is merged, drop the flag. PR #18 will be merged Friday. Wait until #19 merged.", PRMerged, nil},
		{"other repo", "Cause: infra#203, merged the week before.", PRMerged, nil},
		{"mood only", "Fixed — PR #431 is up, CI green.", PRMerged, nil},
		{"html entity", "Merged &#231; stuff", PRMerged, nil},

		// URLs
		{"links", "Dashboards: [red](https://larkspur.grafana.net/d/atl-red) and https://status.larkspur.io.", URLResponds, []string{"https://larkspur.grafana.net/d/atl-red", "https://status.larkspur.io"}},
		{"code span url", "Monitor `https://api.larkspur.io/readyz`.", URLResponds, []string{"https://api.larkspur.io/readyz"}},
		{"local urls", "Mailpit on http://localhost:8025, API on http://127.0.0.1:8000/docs, db.local at http://db.local/x, http://example.com/a.", URLResponds, nil},
		{"template url", "Open `https://app.larkspur.io/s/{slug}`.", URLResponds, nil},
		{"not http", "Use ftp://files.larkspur.io/x and mailto:ops@larkspur.io.", URLResponds, nil},

		// commits
		{"code span sha", "Reverted in `a1b2c3d4`.", CommitExists, []string{"a1b2c3d4"}},
		{"after commit", "Introduced by commit 9fceb02d0ae598e95dc970b74767f19372d61af8.", CommitExists, []string{"9fceb02d0ae598e95dc970b74767f19372d61af8"}},
		{"after commit backticks upper", "See commit `ABCDEF1`.", CommitExists, []string{"abcdef1"}},
		{"numbers are not shas", "Port `5433`, migration `20260301120000`, color `deadbeef`.", CommitExists, nil},
		{"short hex", "Commit abc12 is too short.", CommitExists, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := args(Extract(mem(t, tt.body)), tt.kind)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Extract %s = %q, want %q", tt.kind, got, tt.want)
			}
		})
	}
}

// TestExtractAsWritten holds that claims are the memory's characters as
// written, never text markdown would render as emphasis: a glob is no path
// claim, and "a_b_c", "**bold**" around a path and a lone "*" change
// nothing.
func TestExtractAsWritten(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Claim
	}{
		{"two globs", "run sqlc after changing db/queries/*.sql; output lands in internal/store/*.sql.go", nil},
		{"globs in code spans", "run sqlc after changing `db/queries/*.sql`; output lands in `internal/store/*.sql.go`", nil},
		{"glob then path", "changing *.sql, then internal/*.go and internal/store/db.go", []Claim{{PathExists, "internal/store/db.go", SourceText}}},
		{"one star", "run `*.go` once, then cmd/mem/main.go", []Claim{{PathExists, "cmd/mem/main.go", SourceText}}},
		{"underscores", "a_b_c lives in internal/a_b_c/x_y.go", []Claim{{PathExists, "internal/a_b_c/x_y.go", SourceText}}},
		{"dunder", "keep pkg/__init__.py empty", []Claim{{PathExists, "pkg/__init__.py", SourceText}}},
		{"bold path", "The marker is **pkg/__init__.py**; rates in **shop/tax.py**.", []Claim{{PathExists, "pkg/__init__.py", SourceText}, {PathExists, "shop/tax.py", SourceText}}},
		{"italic path", "see *shop/tax.py* and _shop/vat.py_", []Claim{{PathExists, "shop/tax.py", SourceText}, {PathExists, "shop/vat.py", SourceText}}},
		{"bold branch and pr", "It is on **branch** `hotfix-2`; **PR #231** was merged.", []Claim{{BranchExists, "hotfix-2", SourceText}, {PRMerged, "231", SourceText}}},
		{"markup inside a name", "on branch rel**ease/x, `#2`31 merged, commit abc**def1234", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Extract(mem(t, tt.body)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Extract = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExtractOnce(t *testing.T) {
	cs := Extract(mem(t, "`a/b.go` and a/b.go, again `a/b.go`.\n\nPR #3 merged. #3 merged."))
	want := []Claim{{PathExists, "a/b.go", SourceText}, {PRMerged, "3", SourceText}}
	if !reflect.DeepEqual(cs, want) {
		t.Errorf("Extract = %v, want %v", cs, want)
	}
	if Extract(nil) != nil {
		t.Error("Extract(nil) != nil")
	}
}

// TestExtractStore runs the extractor over the whole evaluation store: every
// claim it makes is valid, and none of the strings the README warns about
// (secret names, API routes, home paths) becomes a path.
func TestExtractStore(t *testing.T) {
	eval := needShared(t)
	files, err := filepath.Glob(filepath.Join(eval, "store", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no store files: %v", err)
	}
	var paths []string
	for _, f := range files {
		for _, c := range Extract(readMemory(t, f)) {
			if err := Validate(c, ""); err != nil {
				t.Errorf("%s: extracted an invalid claim %v: %v", filepath.Base(f), c, err)
			}
			if c.Kind == PathExists {
				paths = append(paths, c.Arg)
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no path extracted from the whole store: the checks below would hold vacuously")
	}
	for _, p := range paths {
		if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.Contains(p, "://") {
			t.Errorf("extracted %q as a path", p)
		}
	}
	for _, not := range []string{
		"/lark/prod/ledger/STRIPE_SECRET_KEY", "lark/prod/ledger/STRIPE_SECRET_KEY", "rds-proxy/atlas_app",
		"~/.pgpass", ".pgpass", "/webhooks/stripe", "webhooks/stripe", "/v1/studios/{id}/", "/healthz",
		"linux/arm64", "next/image", "tokens/update", "Australia/Sydney", "refs/heads/main",
	} {
		for _, p := range paths {
			if p == not {
				t.Errorf("extracted %q as a path", not)
			}
		}
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"PR #231 was merged; see `a/b.go` on branch `x/y` and https://a.io/x commit abcdef1",
		"```\nfoo/bar.go\n```\n- on the release/1 branch\n- merged in #4",
		"[PR](https://github.com/o/r/pull/9) merged",
		"on the branch `fix/caf\xc3` and on branch feat/\xff\xfe",
		"[](http://.0#\ufffd) and http://127.0.0.1:8080/admin and http://10.0.0.5/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		m, err := mdparse.Parse("f.md", []byte(body))
		if err != nil {
			return
		}
		for _, c := range Extract(m) {
			if err := Validate(c, ""); err != nil {
				b, _ := json.Marshal(body)
				t.Fatalf("Extract made invalid claim %v: %v\nbody: %s", c, err, b)
			}
		}
	})
}

// FuzzClaimsFromSource holds that Extract probes only what a memory spells:
// every claim's target is a substring of its description or body as
// written. What a probe adds is not the memory's: a commit id is compared
// without case, a pull request by its number and its repository's
// host/owner/repo, and a "www." autolink is probed as "http://www...." (GFM).
func FuzzClaimsFromSource(f *testing.F) {
	for _, s := range []string{
		"run sqlc after changing db/queries/*.sql; output lands in internal/store/*.sql.go",
		"changing *.sql, then internal/*.go; keep pkg/__init__.py empty; see **db/x.go**",
		"a_b_c in internal/a_b_c/x.go, `*.go` once, ***src/x.go***, 2*3*4",
		"db/`x`.go and a/b<!-- c -->c.go and a/[b](https://x.io)c.go",
		"on branch rel**ease/x, `#2`31 merged, commit abc**def1234",
		"---\ndescription: tokens land in src/*styles*/tokens.css\n---\nPR #3 merged; www.larkspur.io/x",
		"[PR](https://GitHub.com/o/r.git/pull/9) merged, commit `ABCDEF1`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		m, err := mdparse.Parse("f.md", []byte(file))
		if err != nil {
			return
		}
		spelt := func(s string, fold bool) bool {
			for _, src := range []string{m.Description, string(m.Body)} {
				if fold {
					s, src = strings.ToLower(s), strings.ToLower(src)
				}
				if strings.Contains(src, s) {
					return true
				}
			}
			return false
		}
		for _, c := range Extract(m) {
			ok := spelt(c.Arg, false)
			switch c.Kind {
			case CommitExists:
				ok = spelt(c.Arg, true)
			case URLResponds:
				ok = ok || strings.HasPrefix(c.Arg, "http://www.") && spelt(strings.TrimPrefix(c.Arg, "http://"), false)
			case PRMerged:
				repo, n, err := parsePR(c.Arg)
				ok = err == nil && spelt(strconv.Itoa(n), false) && spelt(repo, true)
			}
			if !ok {
				b, _ := json.Marshal(file)
				t.Fatalf("Extract probes %v, which the memory does not spell\nfile: %s", c, b)
			}
		}
	})
}
