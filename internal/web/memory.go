package web

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

type alias struct {
	Text   string
	Source string // "model", "learned from use", "by hand", or "" when unknown
	Commit string
}

type claim struct {
	Claim    string
	Now      string // what a probe of the work tree says now: passed, failed, unknown
	Detail   string
	Recorded string // the unverified label the verifier wrote, if any
}

type revision struct {
	gitstore.Revision
	Lines []diffLine
}

type diffLine struct{ Kind, Text string }

type memoryPage struct {
	Slug, Path   string
	Name, Class  string
	Description  string
	Importance   int
	Tags         []string
	Labels       []string
	Frontmatter  string
	Body         template.HTML
	Aliases      []alias
	AliasesStale string
	Claims       []claim
	LastVerify   *gitstore.Revision
	History      []revision
	HistoryErr   string
	Forgotten    bool
	ReadOnly     bool
	ParseErr     string
	Raw          string
}

func (s *Server) memory(w http.ResponseWriter, r *http.Request) {
	slug := r.URL.Query().Get("slug")
	data, shown, err := s.o.Repo.Show(r.Context(), slug)
	switch {
	case errors.Is(err, mem.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, err)
		return
	case errors.Is(err, gitstore.ErrEscape):
		s.fail(w, r, http.StatusForbidden, err)
		return
	case err != nil:
		s.fail(w, r, http.StatusBadRequest, err)
		return
	}
	p := memoryPage{Slug: slug, Path: shown, Name: slug}
	m, err := mdparse.Parse(shown, data)
	if err != nil {
		// Drawn as text, with the parser's own file:line message.
		p.ParseErr, p.Raw = err.Error(), string(data)
		s.render(w, r, "memory", slug, p)
		return
	}
	p.Name, p.Class, p.Description, p.Importance, p.Tags = m.Name, m.EffectiveClass(), m.Description, m.Importance, m.Tags
	p.Labels = labelsOf(m.SupersededBy, m.Unverified)
	p.Forgotten = m.Status == mdparse.StatusForgotten
	p.Frontmatter = strings.TrimRight(string(data[:len(data)-len(m.Body)]), "\n")
	p.Body = renderMarkdown(m.Body)

	history, herr := s.o.Repo.History(r.Context(), slug, 50)
	switch {
	case herr == nil:
	case errors.Is(herr, mem.ErrNotFound):
		p.ReadOnly = true // a read-only store's memory or a MEMORY.md section: no history of ours
	default:
		p.HistoryErr = herr.Error()
	}
	for _, h := range history {
		p.History = append(p.History, revision{Revision: h, Lines: diffLines(h.Diff)})
		if p.LastVerify == nil && h.Action == gitstore.ActionVerify {
			v := h
			p.LastVerify = &v
		}
	}
	p.Aliases = aliasSources(m, history)
	p.AliasesStale = enrich.Needs(m)
	p.Claims = s.claims(r.Context(), m)
	s.render(w, r, "memory", m.Name, p)
}

// aliasSources says where each alias came from, as enrich records it in
// the frontmatter (learned from use, the model's, or by hand), with the
// commit that first wrote it.
func aliasSources(m *mdparse.Memory, history []gitstore.Revision) []alias {
	out := make([]alias, 0, len(m.Aliases))
	for _, a := range m.Aliases {
		al := alias{Text: a, Source: sourceNames[enrich.Source(m, a)]}
		for i := len(history) - 1; i >= 0; i-- { // oldest first
			if addsText(history[i].Diff, a) {
				al.Commit = history[i].Commit
				break
			}
		}
		out = append(out, al)
	}
	return out
}

var sourceNames = map[string]string{
	enrich.SourceModel:   "model (mem enrich)",
	enrich.SourceLearned: "learned from use",
	enrich.SourceHand:    "by hand",
}

func addsText(diff, s string) bool {
	for _, l := range strings.Split(diff, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") && strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// claims are the memory's checkable claims, each probed now against the
// work tree (no network: a URL stays unknown) beside what the verifier
// recorded.
func (s *Server) claims(ctx context.Context, m *mdparse.Memory) []claim {
	cs := verify.Extract(m)
	if len(cs) == 0 {
		return nil
	}
	root := s.o.Repo.Place.WorkTree
	p := &verify.Prober{Repo: root, Now: s.o.Repo.Now()}
	out := make([]claim, 0, len(cs))
	for _, c := range cs {
		x := claim{Claim: c.String()}
		o, detail := p.Probe(ctx, c)
		x.Now, x.Detail = string(o), detail
		for _, u := range m.Unverified {
			if strings.Contains(u, c.Arg) {
				x.Recorded = u
			}
		}
		out = append(out, x)
	}
	return out
}

func diffLines(diff string) []diffLine {
	var out []diffLine
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		k := "ctx"
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "index "):
			k = "meta"
		case strings.HasPrefix(l, "@@"):
			k = "hunk"
		case strings.HasPrefix(l, "+"):
			k = "add"
		case strings.HasPrefix(l, "-"):
			k = "del"
		}
		out = append(out, diffLine{k, l})
	}
	return out
}
