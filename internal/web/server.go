package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/skills"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Finding is one problem mem doctor reports.
type Finding struct{ Check, Message, Fix string }

// Options configure a Server.
type Options struct {
	Repo *mem.Repo
	// Skills are the work tree's skill drafts; nil hides them.
	Skills *skills.Repo
	// Doctor returns mem doctor's findings (the command owns its checks).
	Doctor func(ctx context.Context) []Finding
	// Addr is the host:port the listener is bound to: requests must name it
	// in their Host header.
	Addr string
	// Token is the session token; a random one when empty.
	Token string
	// Log receives one line per refused request and per failed action; nil
	// is silent.
	Log *log.Logger
}

// Server serves one store's page.
type Server struct {
	o      Options
	token  string
	csrf   string
	cookie string
	hosts  map[string]bool
	tmpl   map[string]*template.Template
	mux    *http.ServeMux
	cache  rowCache
}

// New makes a server for o.Repo, to be served on o.Addr.
func New(o Options) (*Server, error) {
	if o.Repo == nil {
		return nil, errors.New("web: no store")
	}
	host, port, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("web: address %q: %w", o.Addr, err)
	}
	if !loopback(host) {
		return nil, fmt.Errorf("web: %s is not a loopback address", host)
	}
	s := &Server{o: o, token: o.Token, cookie: "mem_session_" + port}
	if s.token == "" {
		s.token = randomHex(24)
	}
	mac := hmac.New(sha256.New, []byte(s.token))
	mac.Write([]byte("csrf"))
	s.csrf = hex.EncodeToString(mac.Sum(nil))[:32]
	s.hosts = map[string]bool{net.JoinHostPort(host, port): true, net.JoinHostPort("localhost", port): true}
	if s.tmpl, err = parseTemplates(); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

// Listen opens a TCP listener on addr, which must be a loopback address
// ("127.0.0.1:0", "[::1]:8080", "localhost:0"): the page is never offered
// to the network.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q is not host:port", addr)
	}
	if !loopback(host) {
		return nil, fmt.Errorf("mem serve binds only a loopback address (127.0.0.1, ::1 or localhost), not %q", host)
	}
	if host == "localhost" {
		addr = net.JoinHostPort("127.0.0.1", addr[strings.LastIndexByte(addr, ':')+1:])
	}
	return net.Listen("tcp", addr)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// URL is the address to open, token included.
func (s *Server) URL() string {
	return "http://" + s.o.Addr + "/?token=" + s.token
}

// Token is the session token.
func (s *Server) Token() string { return s.token }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Handler is the whole site, behind its guards.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(s.guard)
}

// guard refuses what the package doc lists, then serves.
func (s *Server) guard(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make Chromium send "Origin: null" with our own forms
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if !s.hosts[strings.ToLower(r.Host)] {
		s.refuse(w, r, http.StatusMisdirectedRequest, "this page answers only to "+s.o.Addr+" (the Host header names another)")
		return
	}
	if t := r.URL.Query().Get("token"); t != "" {
		if !equal(t, s.token) {
			s.refuse(w, r, http.StatusForbidden, "wrong session token: open the URL mem serve printed")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q := r.URL.Query()
		q.Del("token")
		next := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
		http.Redirect(w, r, next.String(), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(s.cookie)
	if err != nil || !equal(c.Value, s.token) {
		s.refuse(w, r, http.StatusUnauthorized, "no session: open the URL mem serve printed (it carries the token)")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if r.Method != http.MethodPost {
			s.refuse(w, r, http.StatusMethodNotAllowed, "only GET and POST")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.hosts[strings.TrimPrefix(strings.ToLower(o), "http://")] {
			s.refuse(w, r, http.StatusForbidden, "a form from another site")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if !equal(r.PostFormValue("csrf"), s.csrf) {
			s.refuse(w, r, http.StatusForbidden, "the form has no valid CSRF token: reload the page")
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func (s *Server) refuse(w http.ResponseWriter, r *http.Request, code int, why string) {
	s.logf("refused %s %s: %s", r.Method, r.URL.Path, why)
	http.Error(w, "mem serve: "+why, code)
}

func (s *Server) logf(format string, args ...any) {
	if s.o.Log != nil {
		s.o.Log.Printf(format, args...)
	}
}

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /{$}", s.memories)
	m.HandleFunc("GET /memory", s.memory)
	m.HandleFunc("GET /review", s.review)
	m.HandleFunc("POST /review", s.decide)
	m.HandleFunc("POST /skills", s.skill)
	m.HandleFunc("GET /log", s.audit)
	m.HandleFunc("POST /undo", s.undo)
	m.HandleFunc("GET /budget", s.budget)
	m.HandleFunc("GET /injections", s.injections)
	m.HandleFunc("POST /injections", s.mark)
	m.HandleFunc("GET /health", s.health)
	s.mux = m
}

// Serve serves on l until ctx is done, then shuts down within a second.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
		return nil
	}
}
