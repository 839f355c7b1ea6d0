package learn

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/internal/injections"
)

// Lock is the lock, in the repository's state directory, that one
// learning run holds: two runs would read the same turns and write the
// same alias twice.
const Lock = "learn.lock"

// Report is what one run found and wrote.
type Report struct {
	Turns      int         `json:"turns"`      // turns read (the last one again next time)
	Candidates []Candidate `json:"candidates"` // candidates in what was read
	Learned    []Candidate `json:"learned"`    // written as aliases, each a commit
	Refused    []Candidate `json:"refused"`    // refused by the filter or the store
	Waiting    int         `json:"waiting"`    // candidates waiting to be used or to recur
}

// Run reads a session's transcript from where the last run left it, adds
// the candidates it finds to the book in r's state directory, and writes
// the ones that are ready as aliases (Repo.LearnAlias: one commit each).
// The caller holds Lock.
func Run(ctx context.Context, r *mem.Repo, transcriptPath string, now time.Time) (Report, error) {
	rep := Report{Candidates: []Candidate{}, Learned: []Candidate{}, Refused: []Candidate{}}
	dir := filepath.Join(r.StateDir(), Dir)
	book := LoadBook(dir)
	entries, _, err := r.List(ctx)
	if err != nil {
		return rep, err
	}
	mems := Memories{Names: map[string]string{}, Terms: map[string]map[string]bool{}, Dirs: []string{r.Place.Store}}
	if real, err := filepath.EvalSymlinks(r.Place.Store); err == nil && real != r.Place.Store {
		mems.Dirs = append(mems.Dirs, real)
	}
	for _, e := range entries {
		mems.Names[e.Slug] = e.Name
		mems.Terms[e.Slug] = SummaryTerms(e.Name, e.Description, e.Tags)
	}
	path, err := filepath.Abs(transcriptPath)
	if err != nil {
		return rep, err
	}
	turns, resume, err := Read(path, book.Offsets[path], mems)
	if err != nil {
		return rep, err
	}
	rep.Turns = len(turns)
	decisions, err := injections.Read(r.Place.StateDir())
	if err != nil {
		return rep, err
	}
	cands := Candidates(turns, decisions, mems)
	rep.Candidates = append(rep.Candidates, cands...)
	book.Add(cands)
	for _, i := range book.Ready() {
		c := book.Candidates[i]
		why := book.Why(i)
		w, refused, err := r.LearnAlias(ctx, c.Slug, c.Alias, why)
		switch {
		case errors.Is(err, mem.ErrNotFound):
			refused = "no memory has this slug any more"
		case err != nil:
			book.Save(dir) // what was learned so far stays learned
			return rep, err
		}
		if refused != "" {
			book.Settle(i, StatusRefused, refused, "")
			rep.Refused = append(rep.Refused, book.Candidates[i])
			continue
		}
		book.Settle(i, StatusLearned, why, w.Commit)
		rep.Learned = append(rep.Learned, book.Candidates[i])
	}
	book.Offsets[path] = resume
	book.Prune(now)
	for _, c := range book.Candidates {
		if c.Status == StatusCandidate {
			rep.Waiting++
		}
	}
	return rep, book.Save(dir)
}
