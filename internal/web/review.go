package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"path/filepath"
	"slices"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/skills"
	"github.com/mem-dev/mem/mdparse"
)

// side is one memory of a review item, drawn beside the other.
type side struct {
	Slug, Path, Name, Description string
	Body                          template.HTML
	Missing                       string // why it cannot be shown
	Rule                          string // the text of a rule (profile or CLAUDE.md) instead of a memory
	abs                           string
}

type reviewItem struct {
	curator.Review
	A, B    side
	Version string
}

type draft struct {
	skills.Skill
	Body    template.HTML
	Version string
}

type reviewPage struct {
	Items     []reviewItem
	Decided   []curator.Review
	All       bool
	Drafts    []draft
	Rejected  []skills.Rejection
	SkillsErr string
}

// abs is the absolute path of a path Show gave (relative to the work tree).
func (s *Server) abs(shown string) string {
	if filepath.IsAbs(shown) {
		return shown
	}
	return filepath.Join(s.o.Repo.Place.WorkTree, filepath.FromSlash(shown))
}

func (s *Server) side(ctx context.Context, slug, rule string) side {
	x := side{Slug: slug, Name: slug}
	if rule != "" {
		x.Rule = rule
		return x
	}
	data, shown, err := s.o.Repo.Show(ctx, slug)
	if err != nil {
		x.Missing = err.Error()
		return x
	}
	x.Path, x.abs = shown, s.abs(shown)
	m, err := mdparse.Parse(shown, data)
	if err != nil {
		x.Missing = err.Error()
		return x
	}
	x.Name, x.Description, x.Body = m.Name, m.Description, renderMarkdown(m.Body)
	return x
}

func (s *Server) reviewFile() string {
	return filepath.Join(s.o.Repo.Place.Store, curator.ReviewFile)
}

// itemVersion fingerprints what a decision on it reads: the queue and both
// memories.
func (s *Server) itemVersion(a, b side) string {
	paths := []string{s.reviewFile()}
	for _, x := range []side{a, b} {
		if x.abs != "" {
			paths = append(paths, x.abs)
		}
	}
	return fingerprint(paths...)
}

func (s *Server) review(w http.ResponseWriter, r *http.Request) {
	queue, err := s.o.Repo.Reviews(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	p := reviewPage{All: r.URL.Query().Get("all") == "1"}
	for _, it := range queue {
		if it.Status != curator.ReviewPending {
			p.Decided = append(p.Decided, it)
			continue
		}
		x := reviewItem{Review: it, A: s.side(r.Context(), it.A, it.Rule), B: s.side(r.Context(), it.B, "")}
		x.Version = s.itemVersion(x.A, x.B)
		p.Items = append(p.Items, x)
	}
	slices.Reverse(p.Decided)
	if s.o.Skills != nil {
		for _, d := range s.o.Skills.Drafts() {
			p.Drafts = append(p.Drafts, draft{Skill: d, Body: renderMarkdown([]byte(d.Body)),
				Version: fingerprint(s.abs(d.Path))})
		}
		if p.Rejected, err = s.o.Skills.Rejected(); err != nil {
			p.SkillsErr = err.Error()
		}
	}
	s.render(w, r, "review", "Review queue", p)
}

// stale is the precondition of a form drawn at version from paths.
func stale(version string, paths ...string) func() error {
	return func() error {
		if fingerprint(paths...) != version {
			return fmt.Errorf("%w: the page was drawn before another change to these files; reload it and decide again", gitstore.ErrStale)
		}
		return nil
	}
}

// decide is accept (keeping one), reject or acknowledge, as `mem review`
// does: one commit each.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	id, action, keep := r.PostFormValue("id"), r.PostFormValue("action"), r.PostFormValue("keep")
	queue, err := s.o.Repo.Reviews(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	i := slices.IndexFunc(queue, func(q curator.Review) bool { return q.ID == id })
	if i < 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no review item %q", id))
		return
	}
	it := queue[i]
	a, b := s.side(r.Context(), it.A, it.Rule), s.side(r.Context(), it.B, "")
	paths := []string{s.reviewFile()}
	for _, x := range []side{a, b} {
		if x.abs != "" {
			paths = append(paths, x.abs)
		}
	}
	ctx := gitstore.WithPrecondition(r.Context(), stale(r.PostFormValue("v"), paths...))
	var commit, key string
	switch action {
	case "accept":
		if it.Rule == "" && keep != it.A && keep != it.B {
			s.fail(w, r, http.StatusBadRequest, fmt.Errorf("say which memory to keep: %s or %s", it.A, it.B))
			return
		}
		commit, err = s.o.Repo.Decide(ctx, mem.DecideOptions{ID: id, Accept: true, Keep: keep})
		key = "accepted"
		if it.Rule != "" {
			key = "acknowledged"
		}
	case "acknowledge":
		if it.Rule == "" {
			s.fail(w, r, http.StatusBadRequest, errors.New("only a tension with a rule is acknowledged; a pair of memories is accepted or rejected"))
			return
		}
		commit, err = s.o.Repo.Decide(ctx, mem.DecideOptions{ID: id, Accept: true})
		key = "acknowledged"
	case "reject":
		commit, err = s.o.Repo.Decide(ctx, mem.DecideOptions{ID: id})
		key = "rejected"
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Errorf("unknown action %q", action))
		return
	}
	if err != nil {
		s.fail(w, r, statusOf(err), err)
		return
	}
	if commit == "" {
		key = "nocommit"
	}
	done(w, r, "/review", key, commit)
}

func statusOf(err error) int {
	if errors.Is(err, gitstore.ErrStale) {
		return http.StatusConflict
	}
	return http.StatusUnprocessableEntity
}

// skill promotes or rejects a skill draft, as `mem skills` does.
func (s *Server) skill(w http.ResponseWriter, r *http.Request) {
	if s.o.Skills == nil {
		s.fail(w, r, http.StatusNotFound, errors.New("no skill drafts here"))
		return
	}
	name := r.PostFormValue("name")
	i := slices.IndexFunc(s.o.Skills.Drafts(), func(d skills.Skill) bool { return d.Name == name })
	if i < 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("no skill draft %q", name))
		return
	}
	d := s.o.Skills.Drafts()[i]
	ctx := gitstore.WithPrecondition(r.Context(), stale(r.PostFormValue("v"), s.abs(d.Path)))
	var res gitstore.Result
	var err error
	key := ""
	switch r.PostFormValue("action") {
	case "promote":
		res, err = s.o.Skills.Promote(ctx, name)
		key = "promoted"
	case "reject":
		res, err = s.o.Skills.Reject(ctx, name, r.PostFormValue("reason"))
		key = "draft-reject"
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Errorf("unknown action %q", r.PostFormValue("action")))
		return
	}
	if err != nil {
		s.fail(w, r, statusOf(err), err)
		return
	}
	if !res.Committed {
		key = "nocommit"
	}
	done(w, r, "/review", key, res.Commit)
}
