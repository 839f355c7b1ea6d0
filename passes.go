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
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/mdparse"
)

// Enriched is one memory's new aliases, or why it has none.
type Enriched struct {
	Slug    string            `json:"slug"`
	Need    string            `json:"need,omitempty"` // enrich.NeedMissing or NeedStale; "" when named or forced
	Aliases []string          `json:"aliases"`
	Dropped map[string]string `json:"dropped,omitempty"`
	Commit  string            `json:"commit,omitempty"`
	// Skipped says why nothing was written: ReasonChanged,
	// ReasonUnanswered, or gitstore's reason for a write without a commit.
	Skipped string `json:"skipped,omitempty"`
}

// EnrichOptions tune an enrichment run.
type EnrichOptions struct {
	Model    modelcmd.Asker
	Slugs    []string              // only these memories, whatever aliases they have
	Force    bool                  // every current memory, whatever aliases it has
	Progress func(done, total int) // model calls: before each, and once all are done
}

// ReasonUnanswered is why enrich left a memory as it was: the model's
// answer for its batch had aliases for other memories but none for it. The
// next run asks again.
const ReasonUnanswered = "the model wrote no aliases for it"

// Enrich writes `aliases:` (the words a person would type when they need a
// memory) on the named memories, or on every current memory whose model
// aliases are missing or were written for text that changed since
// (enrich.Needs; all of them with Force), as one commit for the run. The
// model is asked without the store's lock; the answers are applied under
// it, skipping each memory that changed meanwhile. A model call that fails
// (after the runner's retry, an empty answer included) ends the run: what
// the calls before it answered is committed, and the error returned.
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
	batches := enrich.Plan(all, todo)
	var (
		out     []Enriched
		written []int // indexes into out of the memories to write
		askErr  error
	)
	for k, b := range batches {
		if o.Progress != nil {
			o.Progress(k, len(batches))
		}
		results, err := enrich.Ask(ctx, o.Model, b)
		if err != nil {
			askErr = err
			break
		}
		for _, n := range b.Targets {
			e := Enriched{Slug: n.Slug, Need: need[n.Slug]}
			res, ok := results[n.Slug]
			if !ok {
				e.Skipped = ReasonUnanswered
				out = append(out, e)
				continue
			}
			e.Dropped = res.Dropped
			if e.Aliases, err = enrich.Record(n.Memory, res.Kept); err != nil {
				return out, fmt.Errorf("enrich %s: %w", n.Slug, err)
			}
			written = append(written, len(out))
			out = append(out, e)
		}
	}
	if askErr == nil && o.Progress != nil {
		o.Progress(len(batches), len(batches))
	}
	if err := r.applyEnriched(ctx, snap, out, written); err != nil {
		return out, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out, askErr
}

// applyEnriched writes the memories out[written] as one commit under the
// store's lock, marking those changed since the snapshot ReasonChanged.
func (r *Repo) applyEnriched(ctx context.Context, snap *snapshot, out []Enriched, written []int) error {
	if len(written) == 0 {
		return nil
	}
	unlock, err := r.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	var (
		changes  []gitstore.Change
		slugs    []string
		trailers []gitstore.Trailer
		apply    []int
	)
	for _, i := range written {
		slug := out[i].Slug
		if !snap.unchanged(r, slug) {
			out[i].Skipped = ReasonChanged
			continue
		}
		changes = append(changes, gitstore.Change{Path: snap.paths[slug], Data: snap.mems[slug].Bytes()})
		slugs = append(slugs, slug)
		trailers = append(trailers, gitstore.Trailer{Key: gitstore.TrailerSlug, Value: slug})
		apply = append(apply, i)
	}
	if len(changes) == 0 {
		return nil
	}
	info := gitstore.CommitInfo{Action: gitstore.ActionEnrich}
	if len(slugs) == 1 {
		info.Slug = slugs[0]
	} else {
		info.Subject = fmt.Sprintf("mem: enrich %d memories", len(slugs))
		info.Body = "Aliases written for:\n- " + strings.Join(slugs, "\n- ")
		info.Trailers = trailers
	}
	res, err := r.files.Apply(ctx, changes, info)
	if err != nil {
		return err
	}
	for _, i := range apply {
		out[i].Commit, out[i].Skipped = res.Commit, res.Skipped
	}
	r.refreshLocked()
	return nil
}

// ReasonChanged is why a pass left a memory as it was: the file changed
// between the pass's read and its write (someone stored, edited or forgot
// it meanwhile). The next run reads it again.
const ReasonChanged = "changed since the pass read it"

// snapshot is the store as an offline pass read it, without the store's
// lock: each current memory parsed, with the bytes it was parsed from. The
// pass asks its model and probes from it, holding no lock, and then writes,
// under the lock, only to the files that still hold those bytes
// (unchanged), as install.Plan and Apply refuse a stale plan.
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
