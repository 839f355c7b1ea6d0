package mem

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/layout"
	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

// VerifyOptions tune a verification run.
type VerifyOptions struct {
	Slugs    []string       // only these memories; all when empty
	Model    modelcmd.Asker // nil: deterministic claims only
	Network  bool           // probe URLs (they can prove life, never death)
	Progress func(done, total int)
}

// Verified is the outcome of a run: the report and what changed.
type Verified struct {
	verify.Report
	Labelled []string `json:"labelled"` // memories that gained or changed an unverified label
	Cleared  []string `json:"cleared"`  // memories whose labels were cleared
	Commit   string   `json:"commit,omitempty"`
	Skipped  string   `json:"skipped,omitempty"`
	// Changed lists memories whose labels were not written because they
	// changed while they were probed; the next run probes them again.
	Changed []string `json:"changed,omitempty"`
	// Broken lists the memory files that do not parse ("path:line: what
	// is wrong"): not verified, as no label can be written into them.
	Broken []string `json:"broken,omitempty"`
}

// Verify probes the claims of the memories and writes `unverified:` labels
// on memories with a failed claim, clearing them when every claim passes or
// is unknown again; all of it in one commit. The probes and the model run
// without the store's lock; the labels are written under it, except on a
// memory that changed meanwhile (listed in Changed).
func (r *Repo) Verify(ctx context.Context, o VerifyOptions) (Verified, error) {
	snap, err := r.snapshot(o.Slugs)
	if err != nil {
		return Verified{}, err
	}
	mems := snap.mems
	p := &verify.Prober{Repo: r.Place.WorkTree, Now: r.Now()}
	if o.Network {
		p.HTTP = verify.NewHTTPClient()
	}
	rep := verify.Run(ctx, p, o.Model, mems, o.Progress)
	labels := verify.Labels(rep.Failed, p.Date())

	out := Verified{Report: rep, Labelled: []string{}, Cleared: []string{}, Broken: snap.broken}
	slugs := make([]string, 0, len(mems))
	for s := range mems {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	var want []string // memories whose labels change
	for _, slug := range slugs {
		if !slices.Equal(verify.Merge(mems[slug].Unverified, labels[slug]), mems[slug].Unverified) {
			want = append(want, slug)
		}
	}
	if len(want) == 0 {
		return out, nil
	}

	unlock, err := r.lock(ctx)
	if err != nil {
		return out, err
	}
	defer unlock()
	var changes []gitstore.Change
	for _, slug := range want {
		if !snap.unchanged(r, slug) {
			out.Changed = append(out.Changed, slug)
			continue
		}
		m := mems[slug]
		next := verify.Merge(m.Unverified, labels[slug])
		if len(next) == 0 {
			err = m.Unset(mdparse.KeyUnverified)
			out.Cleared = append(out.Cleared, slug)
		} else {
			err = m.Set(mdparse.KeyUnverified, next)
			out.Labelled = append(out.Labelled, slug)
		}
		if err != nil {
			return out, fmt.Errorf("label %s: %w", slug, err)
		}
		changes = append(changes, gitstore.Change{Path: snap.paths[slug], Data: m.Bytes()})
	}
	if len(changes) == 0 {
		return out, nil
	}
	var body strings.Builder
	for _, s := range out.Labelled {
		fmt.Fprintf(&body, "unverified %s: %s\n", s, strings.Join(mems[s].Unverified, "; "))
	}
	for _, s := range out.Cleared {
		fmt.Fprintf(&body, "verified again %s\n", s)
	}
	res, err := r.files.Apply(ctx, changes, gitstore.CommitInfo{
		Action:  gitstore.ActionVerify,
		Subject: fmt.Sprintf("mem: verify %d memories: %d labelled, %d cleared", rep.Memories, len(out.Labelled), len(out.Cleared)),
		Body:    body.String(),
	})
	if err != nil {
		return out, err
	}
	out.Commit, out.Skipped = res.Commit, res.Skipped
	r.refreshLocked()
	return out, nil
}

// memories parses the store's memories (or the named ones), keyed by slug,
// with their store-relative paths, for a caller that holds the lock.
func (r *Repo) memories(only []string) (map[string]*mdparse.Memory, map[string]string, error) {
	mems, paths, _, _, err := r.readMemories(only)
	return mems, paths, err
}

// readMemories parses the store's memories (or the named ones), keyed by
// slug, with their store-relative paths and the bytes read. Forgotten ones
// are skipped, and so are files that do not parse, which come back in
// broken ("path:line: what is wrong") for the pass to report: a pass cannot
// write back a file it could not read whole. A named memory that does not
// parse is an error that says so.
func (r *Repo) readMemories(only []string) (map[string]*mdparse.Memory, map[string]string, map[string][]byte, []string, error) {
	files, err := r.files.Walk()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var broken []string
	brokenSlug := map[string]error{}
	want := map[string]bool{}
	for _, s := range only {
		want[strings.TrimSuffix(s, ".md")] = true
	}
	mems, paths, raw := map[string]*mdparse.Memory{}, map[string]string{}, map[string][]byte{}
	for _, rel := range files {
		slug := strings.TrimSuffix(path.Base(rel), ".md")
		if !layout.IsMemory(rel) || len(want) > 0 && !want[slug] {
			continue
		}
		data, err := r.files.ReadFile(rel)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		m, err := mdparse.Parse(r.abs(rel), data)
		if err != nil {
			// Named as a person finds it, from the top of the work tree.
			if sm, serr := mdparse.Salvage(r.Place.Rel(r.abs(rel)), data); sm.Status != mdparse.StatusForgotten {
				err = serr
				broken = append(broken, err.Error())
				brokenSlug[slug] = err
			}
			continue
		}
		if m.Status == mdparse.StatusForgotten {
			continue
		}
		mems[slug], paths[slug], raw[slug] = m, rel, bytes.Clone(data)
	}
	for s := range want {
		if err := brokenSlug[s]; err != nil {
			return nil, nil, nil, nil, fmt.Errorf("%w (fix the file first)", err)
		}
		if mems[s] == nil {
			return nil, nil, nil, nil, fmt.Errorf("%w: %s", ErrNotFound, s)
		}
	}
	return mems, paths, raw, broken, nil
}
