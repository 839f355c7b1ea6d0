// Package fakeapi is the plumbing shared by the fakes of model APIs that
// the real-client suites run against (messagesapi, responsesapi): a server
// on a loopback port that decodes each request, keeps it, asks the test's
// script for the reply and writes it as JSON or as server-sent events. The
// protocols, what a request holds and how a reply is framed, are the
// packages' own.
package fakeapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// Script answers one request. n counts the requests the script was called
// for, from 0.
type Script[Req, Reply any] func(n int, r Req) Reply

// Protocol is what a fake knows of its API.
type Protocol[Req, Reply any] struct {
	// Name says which fake an error comes from.
	Name string
	// Path is the endpoint that takes requests (POST); Other answers other
	// POST paths it knows (nil: 404), as Fixed bodies.
	Path  string
	Fixed map[string]string
	// BadJSON is the error body for a request that does not decode.
	BadJSON string
	// Decode reads a request body; Stream says whether it asked for SSE.
	Decode func(body []byte) (Req, bool, error)
	// Default is the reply when the test gives no script.
	Default Reply
	// Respond is the reply as the API's body, id the request's number
	// from 1; Events the same as server-sent events, written with event.
	Respond func(id int, r Req, reply Reply) any
	Events  func(body any, event func(name string, data any))
}

// Server is a running fake.
type Server[Req, Reply any] struct {
	URL string // http://127.0.0.1:PORT

	p      Protocol[Req, Reply]
	srv    *http.Server
	mu     sync.Mutex
	script Script[Req, Reply]
	reqs   []Req
	n      int // requests since the script was set
	calls  int // requests in all
}

// Start listens on a loopback port and answers with script (nil: every
// request gets p.Default).
func Start[Req, Reply any](p Protocol[Req, Reply], script Script[Req, Reply]) (*Server[Req, Reply], error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("%s: listen: %w", p.Name, err)
	}
	s := &Server[Req, Reply]{URL: "http://" + ln.Addr().String(), p: p, script: script}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return s, nil
}

// SetScript replaces the script; the request count starts again from 0.
func (s *Server[Req, Reply]) SetScript(script Script[Req, Reply]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.n = script, 0
}

// Requests returns a copy of every request received so far, in order.
func (s *Server[Req, Reply]) Requests() []Req {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Req(nil), s.reqs...)
}

// Reset forgets the requests received so far.
func (s *Server[Req, Reply]) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
}

// Close stops the server.
func (s *Server[Req, Reply]) Close() error { return s.srv.Close() }

func (s *Server[Req, Reply]) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if body, ok := s.p.Fixed[r.URL.Path]; ok {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
		return
	}
	if r.URL.Path != s.p.Path {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, stream, err := s.p.Decode(body)
	if err != nil {
		http.Error(w, s.p.BadJSON, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	script, n := s.script, s.n
	s.n++
	s.calls++
	id := s.calls
	s.mu.Unlock()
	reply := s.p.Default
	if script != nil {
		reply = script(n, req)
	}
	out := s.p.Respond(id, req, reply)
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	s.p.Events(out, func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	})
}
