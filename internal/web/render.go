package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/text"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// pages are the templates, each drawn inside layout.html.
var pages = []string{"memories", "memory", "review", "log", "budget", "injections", "health", "error"}

// nav is the menu, in order.
var nav = []struct{ Path, Name string }{
	{"/", "Memories"}, {"/review", "Review"}, {"/log", "Audit trail"},
	{"/budget", "Budget"}, {"/injections", "Injections"}, {"/health", "Health"},
}

func parseTemplates() (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		"age":   age,
		"date":  func(t time.Time) string { return t.Local().Format("2006-01-02 15:04") },
		"short": func(s string) string { return s[:min(len(s), 12)] },
		"clip":  text.Clip,
		"score": func(f float64) string { return fmt.Sprintf("%.2f", f) },
		"join":  strings.Join,
		"query": func(kv ...string) template.URL { return template.URL(queryOf(kv...)) },
		"add":   func(a, b int) int { return a + b },
		// The commit vocabulary, as gitstore declares it.
		"undoAction":    func() string { return gitstore.ActionUndo },
		"actionTrailer": func() string { return gitstore.TrailerAction },
	}
	out := map[string]*template.Template{}
	for _, p := range pages {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+p+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", p, err)
		}
		out[p] = t
	}
	return out, nil
}

// queryOf builds "?k=v&..." from pairs, leaving out empty values.
func queryOf(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return "?"
	}
	return "?" + q.Encode()
}

// page is what every template gets.
type page struct {
	Title  string
	Path   string // the menu entry that is current
	Nav    any
	CSRF   string
	Store  string
	Flash  string
	Data   any
	Status int
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, name, title string, data any) {
	p := page{Title: title, Path: r.URL.Path, Nav: nav, CSRF: s.csrf, Data: data,
		Store: s.o.Repo.Place.Rel(s.o.Repo.Place.Store), Flash: flash(r)}
	var b bytes.Buffer
	if err := s.tmpl[name].Execute(&b, p); err != nil {
		s.logf("render %s: %v", name, err)
		http.Error(w, "mem serve: the page failed to render: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// fail draws the error page: one sentence, and the way back.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, err error) {
	s.logf("%s %s: %v", r.Method, r.URL.Path, err)
	back := r.Referer()
	if r.Method == http.MethodPost {
		back = r.URL.Path
	}
	w.WriteHeader(code)
	s.render(w, r, "error", http.StatusText(code), struct {
		Message, Back string
	}{err.Error(), back})
}

// done redirects after a write (POST, then GET) to path with a flash
// message chosen from a fixed list by key, and the commit, so that no
// link can put words of its own on the page.
func done(w http.ResponseWriter, r *http.Request, to, key, commit string) {
	q := url.Values{"did": {key}}
	if isHex(commit) {
		q.Set("commit", commit)
	}
	sep := "?"
	if strings.Contains(to, "?") {
		sep = "&"
	}
	http.Redirect(w, r, to+sep+q.Encode(), http.StatusSeeOther)
}

var flashes = map[string]string{
	"accepted":     "Accepted",
	"acknowledged": "Acknowledged",
	"rejected":     "Rejected",
	"promoted":     "Promoted the skill draft",
	"draft-reject": "Rejected the skill draft",
	"undone":       "Reverted",
	"marked":       "Marked; the battery line is in the marks file",
	"nocommit":     "Written, but not committed",
}

func flash(r *http.Request) string {
	msg, ok := flashes[r.URL.Query().Get("did")]
	if !ok {
		return ""
	}
	if c := r.URL.Query().Get("commit"); isHex(c) {
		msg += " in commit " + c[:min(12, len(c))]
	}
	return msg + "."
}

func isHex(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	_, err := hex.DecodeString(s + strings.Repeat("0", len(s)%2))
	return err == nil
}

// markdown renders memory bodies: CommonMark and GFM tables, no raw HTML
// (goldmark omits it unless told otherwise) and no javascript: links.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

func renderMarkdown(src []byte) template.HTML {
	var b bytes.Buffer
	if err := markdown.Convert(src, &b); err != nil {
		return template.HTML(template.HTMLEscapeString(string(src)))
	}
	return template.HTML(b.String()) // goldmark escapes text and drops raw HTML
}

func age(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	d := time.Since(t)
	switch {
	case d < 0:
		return "dated in the future"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	case d < 60*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d.Hours()/24))
	case d < 2*365*24*time.Hour:
		return fmt.Sprintf("%d months ago", int(d.Hours()/24/30))
	}
	return fmt.Sprintf("%d years ago", int(d.Hours()/24/365))
}

// fingerprint is the state of some files, by absolute path: a form carries
// it, and the write it asks for checks it under the store's lock.
func fingerprint(paths ...string) string {
	h := sha256.New()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s\x00%d\x00", path.Clean(p), len(data))
		if err != nil {
			h.Write([]byte("absent\x00"))
		}
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}
