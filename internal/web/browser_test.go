package web

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mem-dev/mem/internal/skills"
)

// chromium finds a headless-capable Chromium, or says why there is none.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("skipping: no Chromium on PATH (apt-get install chromium; .ci/run installs it)")
	return ""
}

// browse serves f's store on a real loopback port and opens a headless
// Chromium on it, logged in through the printed URL.
func browse(t *testing.T, f *fixture) (context.Context, *Server) {
	t.Helper()
	exe := chromium(t)
	l, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sk, err := skills.Open(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Repo: f.repo, Skills: sk, Addr: l.Addr().String(), Doctor: f.srv.o.Doctor})
	if err != nil {
		t.Fatal(err)
	}
	f.srv, f.host = srv, l.Addr().String()
	_, port, _ := net.SplitHostPort(f.host)
	f.cookie.Name, f.cookie.Value = "mem_session_"+port, srv.Token()
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, l) }()
	t.Cleanup(func() { stop(); <-served })

	// As root, on a closed network: no sandbox, nothing phoning home.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("#results"))); err != nil {
		t.Fatalf("open %s: %v", srv.URL(), err)
	}
	return ctx, srv
}

// shoot saves a screenshot of the whole page as NAME.png in MEM_SCREENS,
// when it is set:
//
//	MEM_SCREENS=/work/notes/screens go test ./internal/web -run TestBrowser
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("MEM_SCREENS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowser walks the page as a person would: search, open a memory,
// accept a review item and see its commit, undo it, mark an injection.
func TestBrowser(t *testing.T) {
	f := newFixture(t)
	ctx, srv := browse(t, f)
	base := "http://" + srv.o.Addr
	var text string

	// The URL's token is gone from the address bar once the cookie is set.
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || strings.Contains(loc, "token") {
		t.Errorf("location after login: %q %v", loc, err)
	}
	shoot(t, ctx, "memories")

	// Search as the prompt hook would.
	err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`input[name=q]`), "why are spanish orders one cent off?"),
		chromedp.Click(chromedp.CSS(`form.search button.primary`)),
		// The list has a #summary too: wait for the search's own (it shows
		// the query), or the text may be read from the page being left.
		chromedp.WaitVisible(chromedp.CSS(`#summary code`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#results`)))
	}
	if err != nil || !strings.Contains(text, "Spanish VAT rounds per line") {
		t.Fatalf("search: %v\n%s", err, text)
	}
	shoot(t, ctx, "search")

	// Open the memory.
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#results a.name`)),
		chromedp.WaitVisible(chromedp.CSS(`#name`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`main`)))
	}
	if err != nil || !strings.Contains(text, "one cent off") || !strings.Contains(text, "learned from use") || !strings.Contains(text, "History") {
		t.Fatalf("memory page: %v\n%s", err, text)
	}
	shoot(t, ctx, "memory")

	// A memory holding a script runs nothing.
	var title string
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/memory?slug=script-in-a-memory"),
		chromedp.WaitVisible(chromedp.CSS(`#body`)),
		chromedp.Sleep(200*time.Millisecond),
	)
	if err == nil {
		title, err = chromedp.Run(ctx, chromedp.Title())
	}
	if err != nil || title == "pwned" {
		t.Fatalf("the hostile memory: title %q, %v", title, err)
	}

	// Accept a review item, keeping the other memory, and see the commit.
	before := f.head()
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/review"),
		chromedp.WaitVisible(chromedp.CSS(`#item-a1b2c3d4`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "review")
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#item-a1b2c3d4 select[name=keep]`), "vat-rounding-on-totals"),
		chromedp.Click(chromedp.CSS(`#item-a1b2c3d4 button[value=accept]`)),
		chromedp.WaitVisible(chromedp.CSS(`.flash, #error`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.flash, #error`)))
	}
	accepted := f.head()
	if err != nil || accepted == before || !strings.Contains(text, "Accepted in commit "+accepted[:12]) {
		t.Fatalf("accept: %v, flash %q, head %s", err, text, accepted)
	}
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "mem: supersede spanish-vat-rounds-per-line by vat-rounding-on-totals")

	// The audit trail shows it; undo it, confirming first.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/log"),
		chromedp.WaitVisible(chromedp.CSS(`#log`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[id="c-`+accepted+`"]`)))
	}
	if err != nil || !strings.Contains(text, "supersede") || !strings.Contains(text, "Mem-Review: a1b2c3d4") {
		t.Fatalf("audit trail: %v\n%s", err, text)
	}
	shoot(t, ctx, "log")
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[id="c-`+accepted+`"] a.btn`)),
		chromedp.WaitVisible(chromedp.CSS(`#confirm`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	if f.head() != accepted {
		t.Fatal("the undo button reverted before it was confirmed")
	}
	shoot(t, ctx, "undo-confirm")
	err = chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#confirm-undo`)),
		chromedp.WaitVisible(chromedp.CSS(`.flash`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.flash`)))
	}
	undone := f.head()
	if err != nil || undone == accepted || !strings.Contains(text, "Reverted in commit "+undone[:12]) {
		t.Fatalf("undo: %v, flash %q", err, text)
	}
	wantIn(t, git(t, f.dir, "log", "-1", "--format=%B"), "Mem-Undo: "+accepted)
	data, _ := os.ReadFile(filepath.Join(f.repo.Place.Store, "spanish-vat-rounds-per-line.md"))
	wantNotIn(t, string(data), "superseded_by")

	// Mark an injection wrong, naming the memory that was wanted.
	err = chromedp.Do(ctx,
		chromedp.Navigate(base+"/injections"),
		chromedp.WaitVisible(chromedp.CSS(`.card`)),
	)
	if err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "injections")
	id := decisionID(mustDecision(t, f, "how do we deploy to production?"))
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#`+id+` input[name=want]`), "deploys-go-through-the-release-branch"),
		chromedp.Click(chromedp.CSS(`#`+id+` button[value=wrong]`)),
		chromedp.WaitVisible(chromedp.CSS(`.flash`)),
	)
	if err == nil {
		text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#`+id)))
	}
	if err != nil || !strings.Contains(text, "Marked wrong") {
		t.Fatalf("mark: %v\n%s", err, text)
	}
	marks, err := f.repo.Marks(t.Context())
	if err != nil || len(marks) != 1 || marks[0].Prompt != "how do we deploy to production?" || strings.Join(marks[0].Expect, ",") != "deploys-go-through-the-release-branch" {
		t.Fatalf("marks = %+v, %v", marks, err)
	}

	for _, p := range []string{"budget", "health"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+p), chromedp.WaitVisible(chromedp.CSS(`h1`))); err != nil {
			t.Fatal(err)
		}
		shoot(t, ctx, p)
	}
	// A phone's width.
	if os.Getenv("MEM_SCREENS") != "" {
		err = chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/?q=vat+rounding+spanish+orders&below=1"), chromedp.WaitVisible(chromedp.CSS(`#results`)))
		if err != nil {
			t.Fatal(err)
		}
		shoot(t, ctx, "phone-search")
		err = chromedp.Do(ctx, chromedp.Navigate(base+"/review"), chromedp.WaitVisible(chromedp.CSS(`h1`)))
		if err != nil {
			t.Fatal(err)
		}
		shoot(t, ctx, "phone-review")
		// The README's picture: one screen of a search, small.
		err = chromedp.Do(ctx, chromedp.EmulateViewport(960, 560), chromedp.Navigate(base+"/?q=why+are+spanish+orders+a+cent+off+on+vat+rounding&below=1"), chromedp.WaitVisible(chromedp.CSS(`#results`)))
		if err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(os.Getenv("MEM_SCREENS"), "readme.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mustDecision(t *testing.T, f *fixture, prompt string) (d decisionLine) {
	t.Helper()
	all, err := decisionsOf(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range all {
		if x.Prompt == prompt {
			return x
		}
	}
	t.Fatalf("no decision for %q", prompt)
	return
}
