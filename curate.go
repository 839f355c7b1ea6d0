package mem

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

// CurateOptions tune a curation run.
type CurateOptions struct {
	Model    modelcmd.Asker // nil: the deterministic pass only
	DryRun   bool           // report, write nothing
	Progress func(done, total int)
}

// Curate finds duplicates and dead paths, asks the model about related
// pairs, applies the supersessions that pass every guard (one commit
// each, nothing deleted; a merge rewrites the kept memory in the commit
// that retires the other) and queues the rest for review. The model is
// asked without the store's lock; the decisions are applied under it,
// except where either memory changed meanwhile (Result.Changed).
func (r *Repo) Curate(ctx context.Context, o CurateOptions) (curator.Result, error) {
	snap, err := r.snapshot(nil)
	if err != nil {
		return curator.Result{}, err
	}
	list := make([]curator.Memory, 0, len(snap.mems))
	for slug, m := range snap.mems {
		list = append(list, curator.Memory{Slug: slug, M: m})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Slug < list[j].Slug })
	res, err := curator.Run(ctx, list, curator.Options{
		Model:    o.Model,
		Paths:    &verify.Prober{Repo: r.Place.WorkTree},
		Progress: o.Progress,
	})
	res.Broken = snap.broken
	if err == nil {
		// Profile lines and CLAUDE.md/AGENTS.md rules against the memories:
		// tensions go to review, never applied.
		err = r.checkBoundaries(ctx, list, o, &res)
	}
	if err != nil || o.DryRun {
		return res, err
	}

	unlock, err := r.lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	applied := res.Apply[:0]
	for _, d := range res.Apply {
		if !snap.unchanged(r, d.Retire, d.Keep) {
			res.Changed = append(res.Changed, d)
			continue
		}
		var extra []gitstore.Change
		if d.Merged != "" {
			data, err := r.mergedFile(snap, d)
			if err != nil {
				v := &curator.Verdict{Keep: d.Keep, Retire: d.Retire, Confidence: d.Confidence, Coverage: curator.CoveragePartial, Reason: d.Reason}
				res.Review = append(res.Review, curator.ReviewOf(curator.Memory{Slug: d.Keep, M: snap.mems[d.Keep]},
					curator.Memory{Slug: d.Retire, M: snap.mems[d.Retire]}, "the merged memory cannot be written: "+err.Error(), v))
				continue
			}
			extra = []gitstore.Change{{Path: snap.paths[d.Keep], Data: data}}
		}
		commit, err := r.supersede(ctx, snap.mems, snap.paths, d, extra)
		if err != nil {
			return res, err
		}
		d.Commit = commit
		applied = append(applied, d)
	}
	res.Apply = applied
	if err := r.enqueue(ctx, res.Review); err != nil {
		return res, err
	}
	r.refreshLocked()
	if len(applied) > 0 {
		r.afterWrite()
	}
	return res, nil
}

// mergedFile is d.Keep's file with the merged body of d and today's
// modified date, checked as any rewrite is (the curator has scanned the
// body for secrets).
func (r *Repo) mergedFile(snap *snapshot, d curator.Decision) ([]byte, error) {
	m, err := mdparse.Parse(snap.paths[d.Keep], snap.data[d.Keep])
	if err != nil {
		return nil, err
	}
	m.Body = []byte(d.Merged)
	if err := m.Set(mdparse.KeyModified, r.Now().UTC().Truncate(time.Second)); err != nil {
		return nil, err
	}
	checked, err := r.checkedMemory(snap.paths[d.Keep], m.Bytes())
	if err != nil {
		return nil, err
	}
	return checked.Bytes(), nil
}

// supersede marks d.Retire superseded by d.Keep in one commit whose
// trailers carry the decision; extra are the other files of that commit
// (the kept memory a merge rewrites, the review queue a person decided).
func (r *Repo) supersede(ctx context.Context, mems map[string]*mdparse.Memory, paths map[string]string, d curator.Decision, extra []gitstore.Change, trailers ...gitstore.Trailer) (string, error) {
	m := mems[d.Retire]
	if m == nil {
		return "", fmt.Errorf("%w: %s", ErrNotFound, d.Retire)
	}
	if err := m.Set(mdparse.KeySupersededBy, d.Keep); err != nil {
		return "", err
	}
	trailers = append(trailers,
		gitstore.Trailer{Key: gitstore.TrailerKeep, Value: d.Keep},
		gitstore.Trailer{Key: gitstore.TrailerConfidence, Value: fmt.Sprintf("%.2f", d.Confidence)},
		gitstore.Trailer{Key: gitstore.TrailerReason, Value: d.Reason},
	)
	if len(d.Guards) > 0 {
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerGuards, Value: strings.Join(d.Guards, "; ")})
	}
	info := gitstore.CommitInfo{
		Action:   gitstore.ActionSupersede,
		Slug:     d.Retire,
		Subject:  fmt.Sprintf("mem: supersede %s by %s", d.Retire, d.Keep),
		Trailers: trailers,
	}
	if d.Merged != "" {
		info.Action, info.Subject = gitstore.ActionMerge, fmt.Sprintf("mem: merge %s into %s", d.Retire, d.Keep)
		for _, o := range d.Outdated {
			info.Trailers = append(info.Trailers, gitstore.Trailer{Key: gitstore.TrailerOutdated, Value: o})
		}
	}
	res, err := r.files.Apply(ctx, append([]gitstore.Change{{Path: paths[d.Retire], Data: m.Bytes()}}, extra...), info)
	return res.Commit, err
}

// checkBoundaries checks the profile's lines and the list items of
// CLAUDE.md / AGENTS.md against the memories (curator.CheckBoundaries) and
// adds each tension it finds to res.Review: it never changes a memory, a
// profile line or a rule. Without a model it queues nothing and says so in
// the log, since a shared word is not a tension.
func (r *Repo) checkBoundaries(ctx context.Context, mems []curator.Memory, o CurateOptions, res *curator.Result) error {
	// Both profiles are read against the memories: the person's and, when
	// the team keeps one, the team's.
	p, err := r.Profiles().Read(ctx, PersonalProfile)
	if err != nil {
		return err
	}
	team, err := r.Profiles().Read(ctx, TeamProfile)
	if err != nil {
		return err
	}
	p.Lines = append(p.Lines, team.Lines...)
	rules := curator.BoundaryRules(p, r.Place.WorkTree)
	if o.Model == nil {
		if len(rules) > 0 {
			r.logf("curate: no model, so %d profile and CLAUDE.md/AGENTS.md lines were not checked against memories", len(rules))
		}
		return nil
	}
	items, err := curator.CheckBoundaries(ctx, rules, mems, o.Model)
	res.Review = append(res.Review, items...)
	return err
}
