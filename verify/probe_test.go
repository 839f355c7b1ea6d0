package verify

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// commitFile writes name and commits it with msg and the given parents (the
// first parent is HEAD when parents is nil).
func commitFile(t testing.TB, r *git.Repository, dir, name, msg string, parents ...plumbing.Hash) plumbing.Hash {
	t.Helper()
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add(name); err != nil {
		t.Fatal(err)
	}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Parents: parents})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// gitRepo is a repository with a branch, a merge commit "Merge pull request
// #12", a squash commit "(#34)", a remote and a remote-tracking branch.
type gitRepo struct {
	dir              string
	root, side, head plumbing.Hash
}

func newGitRepo(t testing.TB) gitRepo {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, root := gitInit(t, dir)
	side := commitFile(t, r, dir, "side.txt", "feat: side work", root)
	if err := r.Storer.SetReference(plumbing.NewHashReference("refs/heads/feature/side", side)); err != nil {
		t.Fatal(err)
	}
	merge := commitFile(t, r, dir, "m.txt", "Merge pull request #12 from mem-dev/feature/side\n\nSide work", root, side)
	head := commitFile(t, r, dir, "tax.py", "fix: round VAT per line (#34)")
	if _, err := r.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{"git@github.com:mem-dev/shop.git"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference("refs/remotes/origin/release/2026-10", merge)); err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewSymbolicReference("refs/remotes/origin/HEAD", "refs/remotes/origin/main")); err != nil {
		t.Fatal(err)
	}
	return gitRepo{dir: dir, root: root, side: side, head: head}
}

func TestProbeGit(t *testing.T) {
	g := newGitRepo(t)
	p := &Prober{Repo: g.dir}
	tests := []struct {
		kind Kind
		arg  string
		want Outcome
		why  string
	}{
		{BranchExists, "feature/side", Passed, "refs/heads/feature/side"},
		{BranchExists, "master", Passed, "refs/heads/master"},
		{BranchExists, "release/2026-10", Passed, "refs/remotes/origin/release/2026-10"},
		{BranchExists, "origin/release/2026-10", Passed, "refs/remotes/origin/release/2026-10"},
		{BranchExists, "release/2026-09", Failed, "does not exist"},
		{BranchExists, "HEAD", Unknown, "not checked"},

		{PRMerged, "12", Passed, "Merge pull request #12"},
		{PRMerged, "34", Passed, "(#34)"},
		{PRMerged, "56", Failed, "not merged"},
		{PRMerged, "1", Failed, "not merged"},
		{PRMerged, "github.com/mem-dev/shop#12", Passed, "#12"},
		{PRMerged, "github.com/MEM-DEV/shop#34", Passed, "#34"},
		{PRMerged, "github.com/mem-dev/shop#56", Failed, "not merged"},
		{PRMerged, "github.com/someone/else#12", Unknown, "another repository"},

		{CommitExists, g.side.String(), Passed, "exists"},
		{CommitExists, g.head.String()[:7], Passed, "exists"},
		{CommitExists, strings.ToUpper(g.root.String()[:12]), Passed, "exists"},
		{CommitExists, "0000000000000000000000000000000000000001", Failed, "does not exist"},
		{CommitExists, "abcdef1", Failed, "does not exist"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+" "+tt.arg, func(t *testing.T) {
			got, why := p.Probe(context.Background(), Claim{Kind: tt.kind, Arg: tt.arg})
			if got != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("Probe = %s %q, want %s mentioning %q", got, why, tt.want, tt.why)
			}
		})
	}
}

// TestProbeGitUndecided: without the evidence to prove a negative, the
// answer is unknown.
func TestProbeGitUndecided(t *testing.T) {
	ctx := context.Background()
	t.Run("no repository", func(t *testing.T) {
		p := &Prober{Repo: t.TempDir()}
		for _, c := range []Claim{{BranchExists, "main", ""}, {PRMerged, "1", ""}, {CommitExists, "abcdef1", ""}} {
			if got, why := p.Probe(ctx, c); got != Unknown || !strings.Contains(why, "no git repository") {
				t.Errorf("%v: %s %q, want unknown", c, got, why)
			}
		}
	})
	t.Run("history names no PRs", func(t *testing.T) {
		dir := t.TempDir()
		r, _ := gitInit(t, dir)
		commitFile(t, r, dir, "a.txt", "plain commit")
		p := &Prober{Repo: dir}
		if got, why := p.Probe(ctx, Claim{Kind: PRMerged, Arg: "7"}); got != Unknown || !strings.Contains(why, "no commit in this history names a pull request") {
			t.Errorf("PR in a history without PRs: %s %q, want unknown", got, why)
		}
	})
	t.Run("remote never fetched", func(t *testing.T) {
		dir := t.TempDir()
		r, _ := gitInit(t, dir)
		if _, err := r.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{"https://github.com/o/r"}}); err != nil {
			t.Fatal(err)
		}
		p := &Prober{Repo: dir}
		if got, why := p.Probe(ctx, Claim{Kind: BranchExists, Arg: "topic/x"}); got != Unknown || !strings.Contains(why, "no remote has been fetched") {
			t.Errorf("branch with unfetched remote: %s %q, want unknown", got, why)
		}
	})
	t.Run("shallow", func(t *testing.T) {
		dir := t.TempDir()
		r, h := gitInit(t, dir)
		commitFile(t, r, dir, "a.txt", "feat: a (#1)")
		if err := r.Storer.SetShallow([]plumbing.Hash{h}); err != nil {
			t.Fatal(err)
		}
		p := &Prober{Repo: dir}
		for _, c := range []Claim{{PRMerged, "9", ""}, {CommitExists, "abcdef1", ""}} {
			if got, why := p.Probe(ctx, c); got != Unknown || !strings.Contains(why, "shallow") {
				t.Errorf("%v in a shallow clone: %s %q, want unknown", c, got, why)
			}
		}
	})
}

func TestProbePath(t *testing.T) {
	root := escapeRoot(t)
	for _, f := range []string{"atlas-web/src/styles/tokens.css", "infra/envs/prod/dns.tf", "go.work"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &Prober{Repo: root}
	tests := []struct {
		arg  string
		want Outcome
		why  string
	}{
		{"go.work", Passed, "exists"},
		{"atlas-api/internal/auth/session.go", Passed, "path atlas-api/internal/auth/session.go exists"},
		{"internal/auth/session.go", Passed, "exists as atlas-api/internal/auth/session.go"},
		{"src/styles/tokens.css", Passed, "exists as atlas-web/src/styles/tokens.css"},
		{"auth/session.go", Passed, "exists as atlas-api/internal/auth/session.go"},
		{"./internal/auth/", Passed, "exists as atlas-api/internal/auth"},
		{"inside/auth/session.go", Passed, "exists"},
		{"atlas-api/internal/auth/session.go/", Failed, "does not exist"},
		{"atlas-api/internal/billing/plans.go", Failed, "does not exist (not at the root, under any top-level directory, or anywhere in the work tree)"},
		{"internal/billing/plans.go", Failed, "does not exist"},
		{"envs/prod/main.tf", Failed, "does not exist"},
		{"staging/terraform.tfstate", Unknown, "no staging/ directory"},
		{"nothing.go", Failed, "does not exist"},
		{"out/secret.txt", Unknown, "symlink"},
		{"docs/up/etc/passwd", Unknown, "symlink"},
		{"../../etc/passwd", Unknown, "not checked"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, why := p.Probe(context.Background(), Claim{Kind: PathExists, Arg: tt.arg})
			if got != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("Probe = %s %q, want %s mentioning %q", got, why, tt.want, tt.why)
			}
		})
	}
}

func TestProbeURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/elsewhere", http.StatusFound) })
	mux.HandleFunc("/get-only", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// A port that refuses: listen, note the address, close.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/"
	l.Close()

	// Only public URLs are probed, so the claims name a public host and the
	// client dials the test server whatever the host (a resolver of its
	// own); the refused port gets its own client.
	const public = "http://status.mem-dev.io"
	dialTo := func(addr string) *http.Client {
		return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}}}
	}
	p := &Prober{Repo: t.TempDir(), HTTP: dialTo(srv.Listener.Addr().String()), Timeout: 200 * time.Millisecond}
	refusing := &Prober{Repo: t.TempDir(), HTTP: dialTo(strings.TrimPrefix(strings.TrimSuffix(refused, "/"), "http://")), Timeout: 200 * time.Millisecond}
	tests := []struct {
		p    *Prober
		url  string
		want Outcome
		why  string
	}{
		{p, public + "/ok", Passed, "HEAD 200"},
		{p, public + "/moved", Passed, "HEAD 302"},
		{p, public + "/get-only", Passed, "GET 200"},
		{p, public + "/missing", Unknown, "GET 404"},
		{p, public + "/broken", Unknown, "GET 500"},
		{p, public + "/slow", Unknown, "timed out"},
		{refusing, public + "/", Unknown, "did not respond"},
		{p, srv.URL + "/ok", Unknown, "not checked: URL host 127.0.0.1 is local"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			got, why := tt.p.Probe(context.Background(), Claim{Kind: URLResponds, Arg: tt.url})
			if got != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("Probe = %s %q, want %s mentioning %q", got, why, tt.want, tt.why)
			}
		})
	}
	t.Run("NewHTTPClient", func(t *testing.T) {
		// A public name may resolve to a local address: the dial refuses.
		for _, addr := range []string{"169.254.169.254:80", "127.0.0.1:80", "[::1]:443", "10.1.2.3:80", "192.168.0.1:80", "172.16.0.1:80"} {
			if err := refuseSpecial("tcp", addr, nil); err == nil {
				t.Errorf("NewHTTPClient would dial %s", addr)
			}
		}
		if err := refuseSpecial("tcp", "140.82.112.3:443", nil); err != nil {
			t.Errorf("NewHTTPClient refuses a public address: %v", err)
		}
		if _, err := NewHTTPClient().Get(srv.URL); err == nil || !strings.Contains(err.Error(), "refusing a loopback") {
			t.Errorf("NewHTTPClient dialled the loopback test server: %v", err)
		}
	})
	t.Run("no network", func(t *testing.T) {
		p := &Prober{Repo: t.TempDir()}
		if got, why := p.Probe(context.Background(), Claim{Kind: URLResponds, Arg: public + "/ok"}); got != Unknown || !strings.Contains(why, "network probes are off") {
			t.Errorf("nil client: %s %q, want unknown", got, why)
		}
	})
}

// TestProbeValidatesFirst: a claim that fails validation is never probed,
// whoever calls Probe.
func TestProbeValidatesFirst(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://user:pw@", 1)
	p := &Prober{Repo: t.TempDir(), HTTP: srv.Client()}
	if got, why := p.Probe(context.Background(), Claim{Kind: URLResponds, Arg: u}); got != Unknown || !strings.Contains(why, "not checked") {
		t.Errorf("Probe = %s %q, want unknown, not checked", got, why)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server was hit %d times", n)
	}
}
