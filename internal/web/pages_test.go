package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/eval"
)

func TestMemoriesPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cases := []struct {
		target    string
		want, not []string
	}{
		{"/", []string{"Spanish VAT rounds per line", "Deploys go through the release branch", "Prefer table tests", "7 of 7 memories", "a section of MEMORY.md"}, []string{"Old staging host"}},
		{"/?class=procedure", []string{"Deploys go through"}, []string{"Prefer table tests"}},
		{"/?store=project", []string{"Spanish VAT"}, nil},
		{"/?store=personal", []string{"No memories match"}, []string{"Spanish VAT"}},
		{"/?label=unverified", []string{"Deploys go through", "unverified: branch release/x does not exist"}, []string{"Prefer table tests"}},
		{"/?label=forgotten", []string{"Old staging host", "forgotten"}, []string{"Spanish VAT"}},
		{"/?label=none", []string{"Prefer table tests"}, []string{"Deploys go through"}},
		{"/?tag=vat", []string{"Spanish VAT rounds", "VAT rounding on totals", "tag: vat"}, []string{"Deploys go through"}},
		{"/?age=7d", []string{"Spanish VAT"}, nil},
		{"/?age=-365d", []string{"No memories match"}, nil},
		// Search: the hook's query, scores, and what falls under the threshold.
		{"/?q=why+are+spanish+orders+one+cent+off", []string{"Query as the hook builds it", "Spanish VAT rounds per line", `class="score"`, "the hook would inject"}, []string{"Deploys go through"}},
		{"/?q=ok+go+ahead", []string{"no topic: the hook stays silent", "the prompt hook would stay silent"}, nil},
		{"/?q=vat+rounding&class=preference", []string{"Nothing clears the threshold"}, nil},
	}
	for _, c := range cases {
		page := f.get(c.target)
		t.Run(c.target, func(t *testing.T) {
			wantIn(t, page, c.want...)
			wantNotIn(t, page, c.not...)
		})
	}
	// The toggle shows what the hook would have passed over, marked so.
	quiet := f.get("/?q=vat+rounding+spanish+orders")
	all := f.get("/?q=vat+rounding+spanish+orders&below=1")
	if strings.Count(all, "<li") <= strings.Count(quiet, "<li") {
		t.Errorf("the threshold toggle shows nothing more:\n%s", all)
	}
	wantIn(t, all, `class="score below"`, "under the threshold")
}

func TestMemoriesPagePages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 230 {
		write(t, filepath.Join(f.repo.Place.Store, "bulk", fmt.Sprintf("note-%03d.md", i)), fmt.Sprintf("---\nname: Bulk note %d\nclass: fact\n---\nbody\n", i))
	}
	page := f.get("/")
	wantIn(t, page, "237 of 237 memories, page 1 of 3", "older →") // 236 files (a broken one listed as far as it reads) and a section of MEMORY.md
	page = f.get("/?page=3")
	wantIn(t, page, "page 3 of 3", "← newer")
	if n := strings.Count(page, `<li class="">`); n != 37 {
		t.Errorf("page 3 shows %d memories, want 37", n)
	}
}

func TestMemoryPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/memory?slug=spanish-vat-rounds-per-line")
	wantIn(t, page,
		"Spanish VAT rounds per line", "VAT is rounded per order line",
		"<code>shop/checkout/tax.py</code>", // goldmark rendered the body
		"importance: 7",                     // the frontmatter as written
		"one cent off", "learned from use",  // an alias learned from use
		"rounding error on spanish orders", "model (mem enrich)",
		"path shop/checkout/tax.py", "passed", // a claim probed now
		"<b>enrich</b>", "<b>store</b>", "Mem-Action", // the history, with trailers
		`class="add"`, "&#43;aliases: [one cent off",
	)
	page = f.get("/memory?slug=deploys-go-through-the-release-branch")
	wantIn(t, page, "branch release/x does not exist (2026-11-21)")
	page = f.get("/memory?slug=old-staging-host")
	wantIn(t, page, "forgotten", "<b>forget</b>")
	// A section of MEMORY.md is shown from the index, without history.
	ix, err := f.repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var section string
	for _, d := range ix.Docs() {
		if d.Line > 0 {
			section = d.Slug
		}
	}
	ix.Close()
	if section == "" {
		t.Fatal("the fixture's MEMORY.md section is not indexed")
	}
	wantIn(t, f.get("/memory?slug="+url.QueryEscape(section)), "Local facts", "port 5433", "does not write")
	if w := f.do("GET", "/memory?slug=no-such-memory", nil); w.Code != http.StatusNotFound {
		t.Errorf("a missing memory: %d", w.Code)
	}
}

func TestReviewPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/review")
	wantIn(t, page, "coverage is partial", "the newer note is more precise", "confidence 0.70",
		"Rounding the total is off by one cent", "Older note: VAT rounding happens on the total.", // both sides
		"Never write table tests", "Acknowledge", // the rule's tension
		// what accepting does, what it loses, and the command that does it
		"Accepting would</b> supersede vat-rounding-on-totals by spanish-vat-rounds-per-line as they stand",
		"vat-rounding-on-totals&#39;s name VAT", "mem review accept a1b2c3d4</code>",
		"run-migrations", "alembic upgrade head", "Promote to a skill")
}

// version is the fingerprint the review page drew for item id.
func (f *fixture) version(page, id string) string {
	i := strings.Index(page, `value="`+id+`"`)
	if i < 0 {
		f.t.Fatalf("no form for %s", id)
	}
	rest := page[i:]
	j := strings.Index(rest, `name="v" value="`)
	rest = rest[j+len(`name="v" value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}

func TestReviewAccept(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.version(f.get("/review"), "a1b2c3d4")
	before := f.head()
	// Accept needs a choice of which to keep.
	if w := f.do("POST", "/review", url.Values{"id": {"a1b2c3d4"}, "action": {"accept"}, "v": {v}}); w.Code != http.StatusBadRequest {
		t.Errorf("accept without keep: %d", w.Code)
	}
	loc := f.post("/review", url.Values{"id": {"a1b2c3d4"}, "action": {"accept"}, "keep": {"vat-rounding-on-totals"}, "v": {v}})
	if !strings.HasPrefix(loc, "/review?") || !strings.Contains(loc, "did=accepted") {
		t.Errorf("redirect to %s", loc)
	}
	if git(t, f.dir, "rev-list", "--count", before+"..HEAD") != "1" {
		t.Fatal("accept did not make exactly one commit")
	}
	msg := git(t, f.dir, "log", "-1", "--format=%B")
	wantIn(t, msg, "mem: supersede spanish-vat-rounds-per-line by vat-rounding-on-totals", "Mem-Review: a1b2c3d4")
	data, _ := os.ReadFile(filepath.Join(f.repo.Place.Store, "spanish-vat-rounds-per-line.md"))
	wantIn(t, string(data), "superseded_by: vat-rounding-on-totals")
	wantIn(t, f.get(loc), "Accepted in commit "+f.head()[:12])
	// Decided once: the same form again is refused.
	if w := f.do("POST", "/review", url.Values{"id": {"a1b2c3d4"}, "action": {"reject"}, "v": {v}}); w.Code < 400 {
		t.Errorf("a decided item decided again: %d", w.Code)
	}
}

func TestReviewRejectAcknowledge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/review")
	f.post("/review", url.Values{"id": {"a1b2c3d4"}, "action": {"reject"}, "v": {f.version(page, "a1b2c3d4")}})
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "mem: reject review a1b2c3d4", "Mem-Action: review-reject")
	page = f.get("/review")
	if w := f.do("POST", "/review", url.Values{"id": {"e5f6a7b8"}, "action": {"acknowledge"}, "v": {f.version(page, "e5f6a7b8")}}); w.Code != http.StatusSeeOther {
		t.Fatalf("acknowledge: %d %s", w.Code, w.Body)
	}
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "mem: acknowledge review e5f6a7b8")
	page = f.get("/review?all=1")
	wantIn(t, page, "Nothing waits for review", "rejected", "accepted")
}

// TestStaleForm: a form drawn before another writer changed its files is
// refused, under the lock, and nothing is written.
func TestStaleForm(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.version(f.get("/review"), "a1b2c3d4")
	other := filepath.Join(f.repo.Place.Store, "vat-rounding-on-totals.md")
	data, _ := os.ReadFile(other)
	write(t, other, string(data)+"\nAn edit made after the page was drawn.\n")
	queue, _ := os.ReadFile(filepath.Join(f.repo.Place.Store, "review.jsonl"))
	before := f.head()
	w := f.do("POST", "/review", url.Values{"id": {"a1b2c3d4"}, "action": {"accept"}, "keep": {"spanish-vat-rounds-per-line"}, "v": {v}})
	if w.Code != http.StatusConflict {
		t.Fatalf("stale accept: %d\n%s", w.Code, w.Body)
	}
	wantIn(t, w.Body.String(), "reload it")
	if f.head() != before {
		t.Error("a stale form committed")
	}
	if now, _ := os.ReadFile(filepath.Join(f.repo.Place.Store, "review.jsonl")); !bytes.Equal(now, queue) {
		t.Error("a stale form rewrote the queue")
	}
	// Drawn again, the same decision goes through.
	f.post("/review", url.Values{"id": {"a1b2c3d4"}, "action": {"accept"}, "keep": {"spanish-vat-rounds-per-line"}, "v": {f.version(f.get("/review"), "a1b2c3d4")}})
	// A skill draft edited since its page was drawn is not promoted.
	page := f.get("/review")
	dv := f.version(page, "run-migrations")
	draft := filepath.Join(f.dir, ".claude", "skill-drafts", "run-migrations", "SKILL.md")
	data, _ = os.ReadFile(draft)
	write(t, draft, string(data)+"2. then test\n")
	if w := f.do("POST", "/skills", url.Values{"name": {"run-migrations"}, "action": {"promote"}, "v": {dv}}); w.Code != http.StatusConflict {
		t.Errorf("stale promote: %d", w.Code)
	}
}

func TestSkills(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/review")
	f.post("/skills", url.Values{"name": {"run-migrations"}, "action": {"promote"}, "v": {f.version(page, "run-migrations")}})
	if _, err := os.Stat(filepath.Join(f.dir, ".claude", "skills", "run-migrations", "SKILL.md")); err != nil {
		t.Fatalf("promoted skill: %v", err)
	}
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "run-migrations")
	wantIn(t, f.get("/review"), "No skill drafts")

	g := newFixture(t)
	page = g.get("/review")
	g.post("/skills", url.Values{"name": {"run-migrations"}, "action": {"reject"}, "reason": {"we use make"}, "v": {g.version(page, "run-migrations")}})
	wantIn(t, g.get("/review"), "1 rejected drafts", "we use make")
}

func TestAuditUndo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/log")
	wantIn(t, page, "<b>forget</b>", "old-staging-host", "<b>store</b>", "Undo…")
	forget := git(t, f.dir, "log", "-1", "--format=%H", "--grep=mem: forget old-staging-host")
	// The undo button asks first.
	confirm := f.get("/log?undo=" + forget)
	wantIn(t, confirm, "Revert forget old-staging-host?", "Yes, revert it", `value="`+forget+`"`)
	if w := f.do("GET", "/log?undo=0123456789abcdef0123456789abcdef01234567", nil); w.Code != http.StatusNotFound {
		t.Errorf("confirm of an unknown commit: %d", w.Code)
	}
	loc := f.post("/undo", url.Values{"ref": {forget}})
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "Mem-Action: undo", "Mem-Undo: "+forget)
	wantIn(t, f.get(loc), "Reverted in commit "+f.head()[:12])
	wantIn(t, f.get("/"), "Old staging host")
	// The same undo again finds the file changed since: refused.
	before := f.head()
	if w := f.do("POST", "/undo", url.Values{"ref": {forget}}); w.Code < 400 {
		t.Errorf("a second undo: %d", w.Code)
	}
	if f.head() != before {
		t.Error("a refused undo committed")
	}
	// Only mem's own commits are offered.
	fixture := git(t, f.dir, "log", "-1", "--format=%H", "--grep=fixture:")
	if w := f.do("POST", "/undo", url.Values{"ref": {fixture}}); w.Code != http.StatusNotFound {
		t.Errorf("undo of a commit mem did not make: %d", w.Code)
	}
}

func TestBudgetPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/budget")
	wantIn(t, page, ".claude/agent-memory/MEMORY.md", "over the cliff", "loading stops at line 201",
		"Claude Code stops loading here", "Lost section", "The newest entry", // what lies below
		"PROFILE.md", "characters: 24 of 1375", "tokens always on")
}

func TestInjectionsAndMarks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/injections")
	wantIn(t, page, "why are spanish orders a cent off?", "spanish-vat-rounds-per-line", "0.61",
		"how do we deploy to production?", "silent", "not logged", "3 decisions, 1 injected")
	id := func(prompt string) string {
		i := strings.Index(page, prompt)
		j := strings.LastIndex(page[:i], `<div class="card" id="`)
		rest := page[j+len(`<div class="card" id="`):]
		return rest[:strings.IndexByte(rest, '"')]
	}
	right, silent := id("why are spanish orders"), id("how do we deploy")
	f.post("/injections", url.Values{"id": {right}, "verdict": {"right"}})
	// Wrong silence must name the memory that was wanted, one the store has.
	if w := f.do("POST", "/injections", url.Values{"id": {silent}, "verdict": {"wrong"}}); w.Code != http.StatusBadRequest {
		t.Errorf("wrong without a wanted memory: %d", w.Code)
	}
	if w := f.do("POST", "/injections", url.Values{"id": {silent}, "verdict": {"wrong"}, "want": {"no-such-memory"}}); w.Code != http.StatusBadRequest {
		t.Errorf("wrong with an unknown memory: %d", w.Code)
	}
	f.post("/injections", url.Values{"id": {silent}, "verdict": {"wrong"}, "want": {"prefer-table-tests"}})
	// Changing one's mind replaces the mark.
	f.post("/injections", url.Values{"id": {silent}, "verdict": {"wrong"}, "want": {"deploys-go-through-the-release-branch"}})
	data, err := os.ReadFile(f.repo.MarksPath())
	if err != nil {
		t.Fatal(err)
	}
	cases, err := eval.ReadBattery(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the marks are not a battery: %v\n%s", err, data)
	}
	if len(cases) != 2 || cases[0].Prompt != "why are spanish orders a cent off?" || strings.Join(cases[0].Expect, ",") != "spanish-vat-rounds-per-line" ||
		cases[1].Prompt != "how do we deploy to production?" || strings.Join(cases[1].Expect, ",") != "deploys-go-through-the-release-branch" {
		t.Errorf("marks = %+v", cases)
	}
	if rel, _ := filepath.Rel(f.repo.Place.CommonDir, f.repo.MarksPath()); strings.HasPrefix(rel, "..") {
		t.Errorf("marks written outside the git dir: %s", f.repo.MarksPath())
	}
	if out := git(t, f.dir, "status", "--porcelain", "--ignored"); strings.Contains(out, "marks") {
		t.Errorf("git sees the marks: %s", out)
	}
	page = f.get("/injections")
	wantIn(t, page, "Marked right", "Marked wrong", "expects deploys-go-through-the-release-branch", "2 so far")
	// mem eval runs the file: the right one hits, the wrong silence misses.
	ix, err := f.repo.Index(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	rep := eval.Run(ix, cases, time.Now())
	if rep.Cases != 2 {
		t.Errorf("eval ran %d cases", rep.Cases)
	}
	// An old decision without its prompt cannot become a line.
	if w := f.do("POST", "/injections", url.Values{"id": {id("old decision")}, "verdict": {"right"}}); w.Code != http.StatusUnprocessableEntity {
		t.Errorf("a decision without a prompt: %d", w.Code)
	}
}

func TestHealthPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	page := f.get("/health")
	wantIn(t, page, "the prompt hook is not installed", "run `mem install`",
		".claude/agent-memory/broken.md:", // the file that does not parse, with its line
		"<b>6</b> memories", "<b>1</b> forgotten", "No sweep has run here")
	write(t, filepath.Join(f.repo.StateDir(), "sweep.json"), `{"store":"x","trigger":"manual","started":"2026-11-30T10:00:00Z","finished":"2026-11-30T10:01:00Z","ok":true}`)
	wantIn(t, f.get("/health"), "last run")
}
