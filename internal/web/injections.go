package web

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/eval"
	"github.com/mem-dev/mem/internal/injections"
)

type decision struct {
	injections.Decision
	ID   string
	When time.Time
	Mark *eval.Case
	// Verdict is how the mark judged the decision: "right" when it expects
	// what was injected (or silence, for a silent decision), else "wrong".
	Verdict string
}

type injectionsPage struct {
	Decisions              []decision
	Total, Injected, Marks int
	Page, Pages            int
	MarksPath              string
	Err                    string
}

// decisionID names a decision in the marks battery: stable, since a
// decision's time and session never change.
func decisionID(d injections.Decision) string {
	h := sha256.Sum256([]byte(d.Time + "\x00" + d.Session))
	return "inj-" + hex.EncodeToString(h[:5])
}

// injectedSlugs are what a decision injected.
func injectedSlugs(d injections.Decision) []string {
	out := []string{}
	for _, r := range d.Results {
		out = append(out, r.Slug)
	}
	return out
}

func (s *Server) injections(w http.ResponseWriter, r *http.Request) {
	all, err := injections.Read(s.o.Repo.Place.StateDir())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, fmt.Errorf("read the decision log: %w", err))
		return
	}
	marks, err := s.o.Repo.Marks(r.Context())
	p := injectionsPage{Total: len(all), MarksPath: s.o.Repo.Place.Rel(s.o.Repo.MarksPath()), Marks: len(marks)}
	if err != nil {
		p.Err = err.Error()
	}
	byID := map[string]*eval.Case{}
	for i := range marks {
		byID[marks[i].ID] = &marks[i]
	}
	for _, d := range all {
		if d.Injected {
			p.Injected++
		}
	}
	// Newest first, a page at a time.
	slices.Reverse(all)
	p.Pages = max(1, (len(all)+49)/50)
	p.Page, _ = strconv.Atoi(r.URL.Query().Get("page"))
	p.Page = min(max(p.Page, 1), p.Pages)
	lo := (p.Page - 1) * 50
	for _, d := range all[lo:min(len(all), lo+50)] {
		x := decision{Decision: d, ID: decisionID(d)}
		x.When, _ = time.Parse(time.RFC3339Nano, d.Time)
		if m := byID[x.ID]; m != nil {
			x.Mark = m
			x.Verdict = "wrong"
			if slices.Equal(m.Expect, injectedSlugs(d)) {
				x.Verdict = "right"
			}
		}
		p.Decisions = append(p.Decisions, x)
	}
	s.render(w, r, "injections", "Injections", p)
}

// mark writes a person's judgement of one decision as a battery line.
func (s *Server) mark(w http.ResponseWriter, r *http.Request) {
	id := r.PostFormValue("id")
	all, err := injections.Read(s.o.Repo.Place.StateDir())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	i := slices.IndexFunc(all, func(d injections.Decision) bool { return decisionID(d) == id })
	if i < 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no decision %q in the log", id))
		return
	}
	d := all[i]
	if d.Prompt == "" {
		s.fail(w, r, http.StatusUnprocessableEntity, errors.New("this decision was logged without its prompt (by an older mem), so it cannot become a battery line"))
		return
	}
	c := eval.Case{ID: id, Prompt: d.Prompt, Previous: d.Previous}
	switch r.PostFormValue("verdict") {
	case "right":
		c.Expect = injectedSlugs(d)
	case "wrong":
		c.Expect = []string{}
		want := strings.FieldsFunc(r.PostFormValue("want"), func(r rune) bool { return r == ',' || r == ' ' })
		if len(want) == 0 && !d.Injected {
			s.fail(w, r, http.StatusBadRequest, errors.New("a silent decision that was wrong needs the memory that was wanted"))
			return
		}
		known, err := s.slugs(r)
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, err)
			return
		}
		for _, slug := range want {
			if !known[slug] {
				s.fail(w, r, http.StatusBadRequest, fmt.Errorf("no memory %q in the store", slug))
				return
			}
			c.Expect = append(c.Expect, slug)
		}
		if slices.Equal(c.Expect, injectedSlugs(d)) {
			s.fail(w, r, http.StatusBadRequest, errors.New("that is what was injected: mark it right instead"))
			return
		}
	default:
		s.fail(w, r, http.StatusBadRequest, errors.New("mark a decision right or wrong"))
		return
	}
	if err := s.o.Repo.Mark(r.Context(), c); err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	to := "/injections"
	if pg := r.PostFormValue("page"); pg != "" {
		if n, err := strconv.Atoi(pg); err == nil && n > 1 {
			to += "?page=" + strconv.Itoa(n)
		}
	}
	done(w, r, to, "marked", "")
}

// slugs are the slugs the index holds.
func (s *Server) slugs(r *http.Request) (map[string]bool, error) {
	ix, err := s.o.Repo.Index(r.Context())
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	out := map[string]bool{}
	for _, d := range ix.Docs() {
		out[d.Slug] = true
	}
	return out, nil
}
