package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/internal/gittest"
	"github.com/mem-dev/mem/internal/injections"
	"github.com/mem-dev/mem/internal/profile"
	"github.com/mem-dev/mem/internal/skills"
	"github.com/mem-dev/mem/mdparse"
)

func TestMain(m *testing.M) {
	gittest.Main(m, "[user]\n\tname = Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n")
}

// fixture is a repository with a store that exercises every page: memories
// of several classes, one superseded and one unverified, one forgotten, a
// review queue with a pair and a rule, a skill draft, a MEMORY.md over the
// cliff, a profile, decisions in the prompt hook's log and a file that does
// not parse.
type fixture struct {
	t      testing.TB
	dir    string // the work tree
	repo   *mem.Repo
	srv    *Server
	host   string
	cookie *http.Cookie
}

const testAddr = "127.0.0.1:48123"

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	repo, _, err := mem.Init(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	store := repo.Place.Store
	notes := []mem.Note{
		{Name: "Spanish VAT rounds per line", Description: "VAT is rounded per order line, never on the order total", Class: "gotcha", Importance: 7, Tags: []string{"checkout", "vat"},
			Body: "Rounding the total is off by one cent on multi-item orders. See `shop/checkout/tax.py` and `README.md`."},
		{Name: "VAT rounding on totals", Description: "VAT is rounded on the order total", Class: "gotcha", Tags: []string{"checkout", "vat"},
			Body: "Older note: VAT rounding happens on the total."},
		{Name: "Deploys go through the release branch", Class: "procedure", Tags: []string{"deploy"},
			Body: "Cut `release/*` from main, then run the deploy job."},
		{Name: "Prefer table tests", Class: "preference", Tags: []string{"go", "tests"},
			Body: "Write table-driven tests in Go."},
		{Name: "Script in a memory", Class: "fact", Tags: []string{"security"},
			Body: "<script>document.title='pwned'</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n\nEnd of the hostile memory."},
		{Name: "Old staging host", Class: "fact", Body: "Staging used to live on a retired host."},
	}
	for _, n := range notes {
		if _, err := repo.Store(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := repo.Forget(ctx, "old-staging-host"); err != nil {
		t.Fatal(err)
	}
	// The model's aliases, as `mem enrich` commits them.
	vat := filepath.Join(store, "spanish-vat-rounds-per-line.md")
	data, _ := os.ReadFile(vat)
	pm, err := mdparse.Parse(vat, data)
	if err != nil {
		t.Fatal(err)
	}
	write(t, vat, strings.Replace(string(data), "tags:", "aliases: [one cent off, rounding error on spanish orders]\naliases_learned: [one cent off]\naliases_for: "+enrich.Fingerprint(pm)+"\ntags:", 1))
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "mem: enrich spanish-vat-rounds-per-line\n\nMem-Action: enrich\nMem-Slug: spanish-vat-rounds-per-line")
	// A label the verifier wrote.
	dep := filepath.Join(store, "deploys-go-through-the-release-branch.md")
	data, _ = os.ReadFile(dep)
	write(t, dep, strings.Replace(string(data), "tags:", "unverified: [\"branch release/x does not exist (2026-11-21)\"]\ntags:", 1))
	// The queue the curator left: a pair of memories and a rule's tension.
	queue := `{"id":"a1b2c3d4","a":"spanish-vat-rounds-per-line","b":"vat-rounding-on-totals","reason":"coverage is partial","would":"supersede vat-rounding-on-totals by spanish-vat-rounds-per-line as they stand","loses":"vat-rounding-on-totals's name VAT","verdict":{"relation":"supersedes","keep":"spanish-vat-rounds-per-line","retire":"vat-rounding-on-totals","confidence":0.7,"coverage":"partial","reason":"the newer note is more precise"},"status":"pending","queued":"2026-11-20T10:00:00Z"}
{"id":"e5f6a7b8","a":"CLAUDE.md:3","b":"prefer-table-tests","rule":"Never write table tests","reason":"the rule and the memory disagree","status":"pending","queued":"2026-11-20T10:00:00Z"}
`
	write(t, filepath.Join(store, curator.ReviewFile), queue)
	// A MEMORY.md past the 200-line cliff.
	var idx strings.Builder
	idx.WriteString("# Memory index\n\n")
	for i := 1; i <= 230; i++ {
		fmt.Fprintf(&idx, "- [Entry %d](entry-%d.md)\n", i, i)
	}
	idx.WriteString("\n## Lost section\n- [The newest entry](newest.md)\n\n## Local facts\n- The staging database listens on port 5433\n")
	write(t, filepath.Join(store, "MEMORY.md"), idx.String())
	write(t, filepath.Join(store, profile.FileName), "# Profile\n\n- Prefers short answers <!-- said, importance 7, 2026-11-01 -->\n")
	// A skill draft.
	write(t, filepath.Join(dir, ".claude", "skill-drafts", "run-migrations", "SKILL.md"),
		"---\nname: run-migrations\ndescription: Run the database migrations before tests\nmetadata:\n  drafted-by: mem skills scan\n  procedure: alembic upgrade head\n---\n# Run migrations\n\n1. `alembic upgrade head`\n")
	write(t, filepath.Join(dir, "shop", "checkout", "tax.py"), "# tax\n")
	write(t, filepath.Join(dir, "README.md"), "# shop\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "fixture: queue, index, profile, draft")
	// A memory that does not parse (not committed: a person's half edit).
	write(t, filepath.Join(store, "broken.md"), "---\nname: [unclosed\nclass: fact\n---\nbody\n")
	// The prompt hook's decisions.
	cache := repo.Place.StateDir()
	write(t, filepath.Join(cache, "injections.jsonl"),
		`{"time":"2026-11-30T10:00:00Z","session":"sess-1","prompt":"why are spanish orders a cent off?","query":"spanish orders cent","injected":true,"results":[{"slug":"spanish-vat-rounds-per-line","score":0.61}]}
{"time":"2026-11-30T10:05:00Z","session":"sess-1","prompt":"how do we deploy to production?","query":"deploy production","injected":false}
{"time":"2026-11-29T09:00:00Z","session":"old","query":"old decision","injected":false}
`)
	repo, err = mem.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureServer(t, dir, repo)
}

func newFixtureServer(t testing.TB, dir string, repo *mem.Repo) *fixture {
	sk, err := skills.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Repo: repo, Skills: sk, Addr: testAddr, Token: "test-token",
		Doctor: func(context.Context) []Finding {
			return []Finding{{Check: "hooks", Message: "the prompt hook is not installed", Fix: "run `mem install`"}}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, dir: dir, repo: repo, srv: srv, host: testAddr,
		cookie: &http.Cookie{Name: "mem_session_48123", Value: "test-token"}}
}

// do sends a request as the browser would after opening the printed URL.
func (f *fixture) do(method, target string, form url.Values) *httptest.ResponseRecorder {
	f.t.Helper()
	var body io.Reader
	if form != nil {
		if _, ok := form["csrf"]; !ok {
			form.Set("csrf", f.srv.csrf)
		}
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, target, body)
	req.Host = f.host
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://"+f.host)
	}
	if f.cookie != nil {
		req.AddCookie(f.cookie)
	}
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, req)
	return w
}

// get fetches a page and fails unless it is 200.
func (f *fixture) get(target string) string {
	f.t.Helper()
	w := f.do("GET", target, nil)
	if w.Code != http.StatusOK {
		f.t.Fatalf("GET %s: %d\n%s", target, w.Code, w.Body.String())
	}
	return w.Body.String()
}

// post submits a form and fails unless it redirects (POST, then GET).
func (f *fixture) post(target string, form url.Values) string {
	f.t.Helper()
	w := f.do("POST", target, form)
	if w.Code != http.StatusSeeOther {
		f.t.Fatalf("POST %s %v: %d\n%s", target, form, w.Code, w.Body.String())
	}
	return w.Header().Get("Location")
}

func (f *fixture) head() string { return git(f.t, f.dir, "rev-parse", "HEAD") }

func wantIn(t *testing.T, page string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

func wantNotIn(t *testing.T, page string, bad ...string) {
	t.Helper()
	for _, b := range bad {
		if strings.Contains(page, b) {
			t.Errorf("page holds %q", b)
		}
	}
}

type decisionLine = injections.Decision

func decisionsOf(f *fixture) ([]injections.Decision, error) {
	return injections.Read(f.repo.Place.StateDir())
}
