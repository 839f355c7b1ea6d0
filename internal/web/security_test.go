package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListenLoopbackOnly: the page is never offered to the network.
func TestListenLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.10:0", "[::]:0", "example.com:0", "10.0.0.1:8080", "nonsense"} {
		if l, err := Listen(addr); err == nil {
			l.Close()
			t.Errorf("Listen(%q) bound %s", addr, l.Addr())
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		l, err := Listen(addr)
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		if !strings.HasPrefix(l.Addr().String(), "127.0.0.1:") {
			t.Errorf("Listen(%q) bound %s", addr, l.Addr())
		}
		l.Close()
	}
	if _, err := New(Options{Repo: newFixture(t).repo, Addr: "0.0.0.0:80"}); err == nil {
		t.Error("New accepted a non-loopback address")
	}
}

// TestGuards: token, cookie, Host, method, CSRF and Origin.
func TestGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	form := func() url.Values { return url.Values{"id": {"a1b2c3d4"}, "action": {"reject"}} }
	cases := []struct {
		name   string
		method string
		target string
		host   string
		cookie *http.Cookie
		form   url.Values
		origin string
		want   int
	}{
		{name: "no session", method: "GET", target: "/", cookie: nil, want: http.StatusUnauthorized},
		{name: "wrong cookie", method: "GET", target: "/", cookie: &http.Cookie{Name: "mem_session_48123", Value: "guess"}, want: http.StatusUnauthorized},
		{name: "cookie of another port", method: "GET", target: "/", cookie: &http.Cookie{Name: "mem_session_1", Value: "test-token"}, want: http.StatusUnauthorized},
		{name: "wrong token", method: "GET", target: "/?token=guess", cookie: nil, want: http.StatusForbidden},
		{name: "token opens the session", method: "GET", target: "/?token=test-token", cookie: nil, want: http.StatusSeeOther},
		{name: "session", method: "GET", target: "/", want: http.StatusOK},
		{name: "static needs the session too", method: "GET", target: "/static/style.css", cookie: nil, want: http.StatusUnauthorized},
		{name: "rebinding host", method: "GET", target: "/", host: "evil.example:48123", want: http.StatusMisdirectedRequest},
		{name: "other port", method: "GET", target: "/", host: "127.0.0.1:9999", want: http.StatusMisdirectedRequest},
		{name: "no port", method: "GET", target: "/", host: "127.0.0.1", want: http.StatusMisdirectedRequest},
		{name: "rebinding host with the token", method: "GET", target: "/?token=test-token", host: "evil.example:48123", cookie: nil, want: http.StatusMisdirectedRequest},
		{name: "localhost", method: "GET", target: "/", host: "localhost:48123", want: http.StatusOK},
		{name: "put", method: "PUT", target: "/review", want: http.StatusMethodNotAllowed},
		{name: "post without csrf", method: "POST", target: "/review", form: url.Values{"csrf": {""}, "id": {"a1b2c3d4"}, "action": {"reject"}}, want: http.StatusForbidden},
		{name: "post with a wrong csrf", method: "POST", target: "/review", form: url.Values{"csrf": {"0123"}, "id": {"a1b2c3d4"}, "action": {"reject"}}, want: http.StatusForbidden},
		{name: "post from another origin", method: "POST", target: "/review", form: form(), origin: "http://evil.example", want: http.StatusForbidden},
		{name: "post from a null origin", method: "POST", target: "/review", form: form(), origin: "null", want: http.StatusForbidden},
		{name: "get cannot change state", method: "GET", target: "/undo?ref=HEAD", want: http.StatusMethodNotAllowed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.head()
			var req *http.Request
			if c.form != nil {
				if _, ok := c.form["csrf"]; !ok {
					c.form.Set("csrf", f.srv.csrf)
				}
				req = httptest.NewRequest(c.method, c.target, strings.NewReader(c.form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			} else {
				req = httptest.NewRequest(c.method, c.target, nil)
			}
			req.Host = testAddr
			if c.host != "" {
				req.Host = c.host
			}
			if c.origin != "" {
				req.Header.Set("Origin", c.origin)
			}
			cookie := f.cookie
			if c.cookie != nil || strings.Contains(c.name, "session") && c.name != "session" || strings.Contains(c.name, "token") {
				cookie = c.cookie
			}
			if cookie != nil {
				req.AddCookie(cookie)
			}
			w := httptest.NewRecorder()
			f.srv.Handler().ServeHTTP(w, req)
			if w.Code != c.want {
				t.Fatalf("%s %s: %d, want %d\n%s", c.method, c.target, w.Code, c.want, w.Body.String())
			}
			if after := f.head(); after != before {
				t.Errorf("a refused request committed %s", after)
			}
			if c.want == http.StatusSeeOther {
				set := w.Result().Cookies()
				if len(set) != 1 || set[0].Value != "test-token" || !set[0].HttpOnly || set[0].SameSite != http.SameSiteStrictMode {
					t.Errorf("cookie = %+v", set)
				}
				if loc := w.Header().Get("Location"); strings.Contains(loc, "token") {
					t.Errorf("the redirect keeps the token in the URL: %s", loc)
				}
			}
		})
	}
}

// TestHeaders: every answer, refused or not, forbids inline script and
// framing.
func TestHeaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, target := range []string{"/", "/memory?slug=nope"} {
		w := f.do("GET", target, nil)
		csp := w.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", target, csp)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", target)
		}
	}
}

// TestEscapes: no path parameter reaches outside the store, whatever it
// holds.
func TestEscapes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	secret := "TOP-SECRET-OUTSIDE-THE-STORE"
	outside := filepath.Join(t.TempDir(), "secret.md")
	write(t, outside, "---\nname: "+secret+"\n---\n"+secret+"\n")
	// A link in the store that leads out of it.
	if err := os.Symlink(outside, filepath.Join(f.repo.Place.Store, "leak.md")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.dir, "not-in-store.md"), "---\nname: "+secret+"\n---\n"+secret+"\n")
	rel, _ := filepath.Rel(f.repo.Place.Store, outside)
	attempts := []string{
		"../../../etc/passwd", "..%2f..%2fetc%2fpasswd", "/etc/passwd", outside, rel, "leak", "leak.md",
		"../not-in-store", "../../not-in-store", ".git/config", "..", ".", "%00", "spanish-vat-rounds-per-line/../../../not-in-store",
		"\\..\\..\\etc\\passwd", "C:\\Windows\\win.ini", "MEMORY.md", "../MEMORY.md",
	}
	before := f.head()
	for _, a := range attempts {
		q := url.QueryEscape(a)
		for _, target := range []string{"/memory?slug=" + q, "/log?undo=" + q, "/?tag=" + q + "&q=" + q} {
			w := f.do("GET", target, nil)
			if strings.Contains(w.Body.String(), secret) {
				t.Errorf("GET %s served a file outside the store", target)
			}
			if strings.HasPrefix(target, "/memory") && w.Code == http.StatusOK && a != "MEMORY.md" {
				t.Errorf("GET %s: 200", target)
			}
		}
		for _, post := range []struct {
			target string
			form   url.Values
		}{
			{"/undo", url.Values{"ref": {a}}},
			{"/review", url.Values{"id": {a}, "action": {"accept"}, "keep": {a}}},
			{"/skills", url.Values{"name": {a}, "action": {"promote"}}},
			{"/injections", url.Values{"id": {a}, "verdict": {"wrong"}, "want": {a}}},
		} {
			w := f.do("POST", post.target, post.form)
			if w.Code < 400 {
				t.Errorf("POST %s %v: %d", post.target, post.form, w.Code)
			}
			if strings.Contains(w.Body.String(), secret) {
				t.Errorf("POST %s served a file outside the store", post.target)
			}
		}
	}
	for _, target := range []string{"/static/../fixture_test.go", "/static/..%2fserver.go", "/static/%2e%2e/doc.go", "/../go.mod"} {
		w := f.do("GET", target, nil)
		if w.Code == http.StatusOK && strings.Contains(w.Body.String(), "package web") {
			t.Errorf("GET %s served source", target)
		}
	}
	if f.head() != before {
		t.Error("an escape attempt committed")
	}
	if _, err := os.Stat(f.repo.MarksPath()); err == nil {
		t.Error("an escape attempt wrote a mark")
	}
}

// TestContentEscaped: a memory holding markup is drawn as text, everywhere
// it appears.
func TestContentEscaped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, target := range []string{"/memory?slug=script-in-a-memory", "/?q=hostile+memory+script&below=1", "/?tag=security", "/log"} {
		page := f.get(target)
		wantNotIn(t, page, "<script>document", "<img src=x", `href="javascript:`)
	}
	page := f.get("/memory?slug=script-in-a-memory")
	wantIn(t, page, "&lt;script&gt;document.title", "End of the hostile memory")
}
