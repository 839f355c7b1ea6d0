package mem

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/capture"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/search"
)

// Captured is what a capture run wrote and what it passed over.
type Captured struct {
	Session string            `json:"session"`
	Written []Written         `json:"written"` // one commit holds them all
	Skipped []capture.Skipped `json:"skipped"`
	// New is false when the transcript had nothing the last capture of the
	// session had not seen: the model was not asked.
	New bool `json:"new"`
	// Masked counts the transcript lines in which a secret was masked or
	// withheld before the model saw them.
	Masked int `json:"masked,omitempty"`
}

// Capture asks the model what the session in transcriptPath decided or
// learned since its last capture, and stores what capture.Check keeps, at
// most max memories, as one commit with the session's id in a Mem-Session
// trailer and a Mem-Note for each mark a memory was kept against. It is a
// pass in three steps, and no writer waits on the model:
//
//   - snapshot, without the store's lock: the session's progress (how far
//     it was captured before, under <git-common-dir>/mem/capture/), the
//     transcript, the index, and the related memories the prompt shows;
//   - plan: the model call and the checks, with no lock of the store's; the
//     caller holds the model lock (Repo.LockModel), so that one model
//     process runs per repository and a second capture of the same session
//     (PreCompact, then SessionEnd) waits and then sends only what is new;
//   - apply, under the store's lock: a proposal whose slug was taken since
//     the snapshot, whose updated memory changed since, or that a memory
//     written since already holds is skipped; the rest is one commit.
//
// The session's progress advances once the model has answered, whatever it
// proposed, so a session is never sent twice.
func (r *Repo) Capture(ctx context.Context, a modelcmd.Asker, transcriptPath string, max int) (Captured, error) {
	dir := filepath.Join(r.files.StateDir(), "capture")
	prog, err := capture.LoadProgress(dir, transcriptPath)
	if err != nil {
		return Captured{}, err
	}
	s, err := capture.ReadSession(transcriptPath, prog.Offset)
	if err != nil {
		return Captured{}, err
	}
	out := Captured{Session: s.ID, New: s.New(), Masked: s.Masked + s.Withheld}
	if !out.New {
		return out, nil
	}
	ix, err := r.Index(ctx)
	if err != nil {
		return out, err
	}
	defer ix.Close()
	snap, err := r.captureSnapshot(ix, s, prog.Written)
	if err != nil {
		return out, err
	}
	keep, skipped, err := capture.Propose(ctx, a, capture.Input{Session: s, Held: snap.held, Find: snap.find, Max: max})
	out.Skipped = skipped
	if err != nil {
		return out, err
	}
	if len(keep) > 0 {
		written, skipped, err := r.applyCapture(ctx, s, keep, snap)
		out.Written, out.Skipped = written, append(out.Skipped, skipped...)
		if err != nil {
			return out, err
		}
	}
	var slugs []string
	for _, w := range out.Written {
		slugs = append(slugs, w.Slug)
	}
	prog.Advance(s, slugs, r.Now())
	if err := prog.Save(dir); err != nil {
		r.logf("capture: %v", err) // the next capture sends this part again
	}
	return out, nil
}

// captureSnap is what a capture read before asking the model.
type captureSnap struct {
	*snapshot
	held []capture.Held
	find capture.Searcher
	now  time.Time
}

// captureSnapshot reads the store as the capture's plan sees it. Ranking
// runs at the session's own time (its last timestamp), so that the same
// transcript and store give the same prompt on any day: recency decay would
// otherwise change which memories the prompt lists.
func (r *Repo) captureSnapshot(ix *search.Index, s *capture.Session, earlier []string) (captureSnap, error) {
	snap := captureSnap{now: s.Time}
	if snap.now.IsZero() {
		snap.now = r.Now()
	}
	var err error
	if snap.snapshot, err = r.snapshot(nil); err != nil {
		return snap, err
	}
	mems := snap.mems
	results := func(q string, limit int) []search.Result {
		var out []search.Result
		for _, res := range ix.Search(search.ParseQuery(q, ""), search.Options{Limit: limit, All: true, Now: snap.now}) {
			if m := mems[res.Slug]; m != nil && res.Store == search.StoreProject && m.SupersededBy == "" {
				out = append(out, res)
			}
		}
		return out
	}
	hits := func(q string, limit int) []capture.Hit {
		var out []capture.Hit
		for _, res := range results(q, limit) {
			out = append(out, capture.Hit{Slug: res.Slug, Score: res.Score})
		}
		return out
	}
	for _, slug := range capture.Related(s, hits, earlier, 0) {
		m := mems[slug]
		if m == nil {
			continue // an earlier capture's memory since forgotten or renamed
		}
		snap.held = append(snap.held, capture.Held{
			Slug: slug, Name: m.Name, Description: m.Description, Class: m.EffectiveClass(),
			Earlier: slices.Contains(earlier, slug),
		})
	}
	// "Does the store hold this already?": the best current memory of the
	// project's store for the proposal's name and description.
	snap.find = func(q string) (string, float64) {
		if res := results(q, 3); len(res) > 0 {
			return res[0].Slug, res[0].Score
		}
		return "", 0
	}
	return snap, nil
}

// applyCapture writes the kept proposals as one commit under the store's
// lock, skipping what changed since the snapshot.
func (r *Repo) applyCapture(ctx context.Context, s *capture.Session, keep []capture.Proposal, snap captureSnap) ([]Written, []capture.Skipped, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	ix, err := r.indexer().Refresh(nil)
	if err != nil {
		return nil, nil, err
	}
	defer ix.Close()
	var (
		changes  []gitstore.Change
		written  []Written
		skipped  []capture.Skipped
		trailers = []gitstore.Trailer{{Key: gitstore.TrailerSession, Value: s.ID}}
		taken    = map[string]bool{}
		now      = r.Now().UTC().Truncate(time.Second)
	)
	skip := func(p capture.Proposal, format string, args ...any) {
		skipped = append(skipped, capture.Skipped{Proposal: p, Reason: fmt.Sprintf(format, args...)})
	}
	for _, p := range keep {
		// A memory written since the snapshot (by a hand, an agent, another
		// pass) may hold this already.
		if res := ix.Search(search.ParseQuery(p.Name+". "+p.Description, ""), search.Options{Limit: 1, All: true, Now: snap.now}); len(res) > 0 {
			if best := res[0]; best.Store == search.StoreProject && snap.mems[best.Slug] == nil && best.Score >= capture.HeldScore {
				skip(p, "store already holds %s, written since the capture began (score %.2f)", best.Slug, best.Score)
				continue
			}
		}
		n := Note{Name: p.Name, Description: p.Description, Class: p.Class, Importance: p.Importance, Tags: p.Tags, Body: p.Text(), Action: gitstore.ActionCapture}
		if err := n.normalise(); err != nil {
			skip(p, "%v", err)
			continue
		}
		if err := checkSecrets(n); err != nil {
			skip(p, "%v", err)
			continue
		}
		slug := slugFor(n.Name)
		if p.Updates != "" {
			// The corrected memory supersedes the one it updates; it may not
			// take its slug, so a same-named update is numbered.
			for i, base := 2, slug; slug == p.Updates || taken[slug] || r.exists(slug); i++ {
				slug = fmt.Sprintf("%s-%d", base, i)
			}
		}
		rel := slug + ".md"
		if taken[slug] {
			skip(p, "%s is taken", rel)
			continue
		}
		if existing, _ := r.find(slug); existing != "" {
			skip(p, "%v: %s", ErrExists, existing)
			continue
		}
		var extra []gitstore.Change
		if p.Updates != "" {
			if !snap.unchanged(r, p.Updates) {
				skip(p, "%s %s; not updated", p.Updates, ReasonChanged)
				continue
			}
			c, t, err := r.markSuperseded(p.Updates, slug)
			if err != nil {
				skip(p, "the memory it updates, %s, could not be marked superseded: %v", p.Updates, err)
				continue
			}
			extra = append(extra, c)
			trailers = append(trailers, t)
		}
		changes = append(changes, n.file(rel, now))
		changes = append(changes, extra...)
		taken[slug] = true
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerSlug, Value: slug})
		for _, note := range p.Notes {
			trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerNote, Value: slug + ": " + note})
		}
		written = append(written, Written{Slug: slug, Path: r.Place.Rel(r.abs(rel))})
	}
	if len(changes) == 0 {
		return nil, skipped, nil
	}
	info := gitstore.CommitInfo{Action: gitstore.ActionCapture, Trailers: trailers}
	var slugs []string
	for _, w := range written {
		slugs = append(slugs, w.Slug)
	}
	if len(written) == 1 {
		info.Slug = written[0].Slug
	} else {
		info.Subject = fmt.Sprintf("mem: capture %d memories", len(written))
		info.Body = "Captured from session " + s.ID + ":\n- " + strings.Join(slugs, "\n- ")
	}
	res, err := r.files.Apply(ctx, changes, info)
	if err != nil {
		return nil, skipped, err
	}
	r.refreshLocked()
	r.afterWrite()
	for i := range written {
		written[i].Result = res
	}
	return written, skipped, nil
}

// exists reports whether a memory has slug.
func (r *Repo) exists(slug string) bool {
	rel, _ := r.find(slug)
	return rel != ""
}
