package mem

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/enrich"
	"github.com/mem-dev/mem/internal/model"
	"github.com/mem-dev/mem/mdparse"
)

// Enriched is one memory's new aliases, or why it has none.
type Enriched struct {
	Slug    string            `json:"slug"`
	Need    string            `json:"need,omitempty"` // enrich.NeedMissing or NeedStale; "" when named or forced
	Aliases []string          `json:"aliases"`
	Dropped map[string]string `json:"dropped,omitempty"`
	Commit  string            `json:"commit,omitempty"`
	// Skipped says why nothing was written, e.g. ReasonChanged.
	Skipped string `json:"skipped,omitempty"`
}

// EnrichOptions tune an enrichment run.
type EnrichOptions struct {
	Model    model.Asker
	Slugs    []string // only these memories, whatever aliases they have
	Force    bool     // every current memory, whatever aliases it has
	Progress func(done, total int)
}

// Enrich writes `aliases:` (the words a person would type when they need a
// memory) on the named memories, or on every current memory whose model
// aliases are missing or were written for text that changed since
// (enrich.Needs; all of them with Force), one commit per memory. The model
// is asked without the store's lock; each answer is applied under it, and
// skipped when the memory changed meanwhile.
func (r *Repo) Enrich(ctx context.Context, o EnrichOptions) ([]Enriched, error) {
	snap, err := r.snapshot(nil)
	if err != nil {
		return nil, err
	}
	for _, s := range o.Slugs {
		if snap.mems[strings.TrimSuffix(s, ".md")] == nil {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, s)
		}
	}
	var todo []string
	need := map[string]string{}
	var all []enrich.Note
	for slug, m := range snap.mems {
		asked := slices.Contains(o.Slugs, slug) || slices.Contains(o.Slugs, slug+".md")
		need[slug] = enrich.Needs(m)
		if asked || len(o.Slugs) == 0 && m.SupersededBy == "" && (o.Force || need[slug] != "") {
			todo = append(todo, slug)
		}
		if m.SupersededBy == "" || asked {
			all = append(all, enrich.Note{Slug: slug, Memory: m})
		}
	}
	sort.Strings(todo)
	sort.Slice(all, func(i, j int) bool { return all[i].Slug < all[j].Slug })
	var out []Enriched
	defer func() {
		if len(out) > 0 {
			r.refreshAfter(ctx)
		}
	}()
	done := 0
	for _, b := range enrich.Plan(all, todo) {
		if o.Progress != nil {
			o.Progress(done, len(todo))
		}
		results, err := enrich.Ask(ctx, o.Model, b)
		if err != nil {
			return out, err
		}
		for _, n := range b.Targets {
			done++
			res := results[n.Slug]
			e := Enriched{Slug: n.Slug, Need: need[n.Slug], Dropped: res.Dropped}
			if e.Aliases, err = enrich.Record(n.Memory, res.Kept); err != nil {
				return out, fmt.Errorf("enrich %s: %w", n.Slug, err)
			}
			err = r.applyUnchanged(ctx, snap, []string{n.Slug}, func() (gitstore.Result, error) {
				return r.files.Apply(ctx, []gitstore.Change{{Path: snap.paths[n.Slug], Data: n.Memory.Bytes()}},
					gitstore.CommitInfo{Action: "enrich", Slug: n.Slug})
			}, &e.Commit, &e.Skipped)
			if err != nil {
				return out, err
			}
			out = append(out, e)
		}
	}
	if o.Progress != nil {
		o.Progress(len(todo), len(todo))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out, nil
}

// ReasonChanged is why a pass left a memory as it was: the file changed
// between the pass's read and its write (someone stored, edited or forgot
// it meanwhile). The next run reads it again.
const ReasonChanged = "changed since the pass read it"

// snapshot is the store as an offline pass read it, without the store's
// lock: each current memory parsed, with the bytes it was parsed from. The
// pass asks its model and probes from it, holding no lock, and then writes,
// under the lock, only to the files that still hold those bytes
// (applyUnchanged), as install.Plan and Apply refuse a stale plan.
type snapshot struct {
	mems   map[string]*mdparse.Memory
	paths  map[string]string // store-relative
	data   map[string][]byte // as read
	broken []string          // files that do not parse, "path:line: what is wrong"
}

// snapshot reads the store's current memories (or the named ones) without
// the lock. Files are written by rename, so each read sees one whole version.
func (r *Repo) snapshot(only []string) (*snapshot, error) {
	mems, paths, data, broken, err := r.readMemories(only)
	if err != nil {
		return nil, err
	}
	return &snapshot{mems: mems, paths: paths, data: data, broken: broken}, nil
}

// unchanged reports whether the files of slugs still hold what the snapshot
// read. The caller holds the store's lock.
func (s *snapshot) unchanged(r *Repo, slugs ...string) bool {
	for _, slug := range slugs {
		rel, ok := s.paths[slug]
		if !ok {
			return false
		}
		data, err := r.files.ReadFile(rel)
		if err != nil || !bytes.Equal(data, s.data[slug]) {
			return false
		}
	}
	return true
}

// applyUnchanged takes the store's lock and runs apply when the files of
// slugs are as the snapshot read them, recording the commit, or records in
// skipped why nothing was committed (ReasonChanged, or gitstore's reason for
// a write without a commit). Only an error of apply is returned.
func (r *Repo) applyUnchanged(ctx context.Context, snap *snapshot, slugs []string, apply func() (gitstore.Result, error), commit, skipped *string) error {
	unlock, err := r.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if !snap.unchanged(r, slugs...) {
		*skipped = ReasonChanged
		return nil
	}
	res, err := apply()
	if err != nil {
		return err
	}
	*commit, *skipped = res.Commit, res.Skipped
	return nil
}

// refreshAfter refreshes the cache after a pass's writes, under a short
// lock of its own; like refreshLocked it only logs a failure.
func (r *Repo) refreshAfter(ctx context.Context) {
	unlock, err := r.lock(ctx)
	if err != nil {
		r.logf("refresh index: %v", err)
		return
	}
	defer unlock()
	r.refreshLocked()
}
