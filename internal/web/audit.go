package web

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/mem-dev/mem/gitstore"
)

// logLimit is how many of mem's commits the audit trail shows.
const logLimit = 300

type auditPage struct {
	Entries []gitstore.Entry
	Confirm *gitstore.Entry // the commit an undo asks to revert
}

func (s *Server) audit(w http.ResponseWriter, r *http.Request) {
	entries, err := s.o.Repo.Log(r.Context(), logLimit)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	p := auditPage{Entries: entries}
	if ref := r.URL.Query().Get("undo"); ref != "" {
		// Confirm first: the undo button leads here, and only the form on
		// this page reverts.
		i := slices.IndexFunc(entries, func(e gitstore.Entry) bool { return e.Commit == ref })
		if i < 0 {
			s.fail(w, r, http.StatusNotFound, fmt.Errorf("%q is not one of mem's last %d commits", ref, logLimit))
			return
		}
		p.Confirm = &entries[i]
	}
	s.render(w, r, "log", "Audit trail", p)
}

// undo reverts one of mem's commits with the library call `mem undo`
// makes: a new commit, refused when the files changed since.
func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	ref := r.PostFormValue("ref")
	entries, err := s.o.Repo.Log(r.Context(), logLimit)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	if !slices.ContainsFunc(entries, func(e gitstore.Entry) bool { return e.Commit == ref }) {
		s.fail(w, r, http.StatusNotFound, fmt.Errorf("%q is not one of mem's last %d commits", ref, logLimit))
		return
	}
	res, err := s.o.Repo.Undo(r.Context(), ref)
	if err != nil {
		s.fail(w, r, statusOf(err), err)
		return
	}
	key := "undone"
	if !res.Committed {
		key = "nocommit"
	}
	done(w, r, "/log", key, res.Commit)
}
