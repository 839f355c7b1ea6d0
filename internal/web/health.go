package web

import (
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/sweep"
)

type healthPage struct {
	Findings  []Finding
	NoDoctor  bool
	Bad       []string
	Memories  int
	Forgotten int
	Fresh     bool
	Line      string
	LineErr   string
	Sweep     string
	SweepOK   bool
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	repo := s.o.Repo
	p := healthPage{Fresh: repo.IndexFresh(r.Context())}
	if s.o.Doctor != nil {
		p.Findings = s.o.Doctor(r.Context())
	} else {
		p.NoDoctor = true
	}
	entries, bad, err := repo.List(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	p.Memories = len(entries)
	for _, e := range bad {
		// The parser names the absolute file and line; the page names it as
		// the person's terminal would, from the work tree.
		p.Bad = append(p.Bad, strings.ReplaceAll(e.Error(), repo.Place.WorkTree+string(filepath.Separator), ""))
	}
	if forgotten, _, err := repo.Forgotten(r.Context()); err == nil {
		p.Forgotten = len(forgotten)
	}
	if run, ok := sweep.Last(repo.StateDir()); ok {
		p.Sweep = run.Line(time.Now())
		p.SweepOK = run.OK
	}
	if line, err := repo.Health(r.Context()); err != nil {
		p.LineErr = err.Error()
	} else {
		p.Line = line
	}
	s.render(w, r, "health", "Health", p)
}
