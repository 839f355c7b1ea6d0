package mem

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/model"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

// VerifyOptions tune a verification run.
type VerifyOptions struct {
	Slugs    []string    // only these memories; all when empty
	Model    model.Asker // nil: deterministic claims only
	Network  bool        // probe URLs (they can prove life, never death)
	Progress func(done, total int)
}

// Verified is the outcome of a run: the report and what changed.
type Verified struct {
	verify.Report
	Labelled []string `json:"labelled"` // memories that gained or changed an unverified label
	Cleared  []string `json:"cleared"`  // memories whose labels were cleared
	Commit   string   `json:"commit,omitempty"`
	Skipped  string   `json:"skipped,omitempty"`
}

// Verify probes the claims of the memories and writes `unverified:` labels
// on memories with a failed claim, clearing them when every claim passes or
// is unknown again; all of it in one commit.
func (r *Repo) Verify(ctx context.Context, o VerifyOptions) (Verified, error) {
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return Verified{}, err
	}
	defer unlock()
	mems, paths, err := r.memories(o.Slugs)
	if err != nil {
		return Verified{}, err
	}
	p := &verify.Prober{Repo: r.Place.WorkTree, Now: r.Now()}
	if o.Network {
		p.HTTP = verify.NewHTTPClient()
	}
	rep := verify.Run(ctx, p, o.Model, mems, o.Progress)
	labels := verify.Labels(rep.Failed, p.Date())

	out := Verified{Report: rep, Labelled: []string{}, Cleared: []string{}}
	var changes []gitstore.Change
	slugs := make([]string, 0, len(mems))
	for s := range mems {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	for _, slug := range slugs {
		m := mems[slug]
		next := verify.Merge(m.Unverified, labels[slug])
		if slices.Equal(next, m.Unverified) {
			continue
		}
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
		changes = append(changes, gitstore.Change{Path: paths[slug], Data: m.Bytes()})
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
		Action:  "verify",
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
// with their store-relative paths. Forgotten ones are skipped, and so, with
// a line in the log, are files that do not parse.
func (r *Repo) memories(only []string) (map[string]*mdparse.Memory, map[string]string, error) {
	files, err := r.files.Walk()
	if err != nil {
		return nil, nil, err
	}
	want := map[string]bool{}
	for _, s := range only {
		want[strings.TrimSuffix(s, ".md")] = true
	}
	mems, paths := map[string]*mdparse.Memory{}, map[string]string{}
	for _, rel := range files {
		slug := strings.TrimSuffix(path.Base(rel), ".md")
		if !isMemoryFile(rel) || len(want) > 0 && !want[slug] {
			continue
		}
		data, err := r.files.ReadFile(rel)
		if err != nil {
			return nil, nil, err
		}
		m, err := mdparse.Parse(r.abs(rel), data)
		if err != nil {
			r.logf("skip %v", err)
			continue
		}
		if m.Status == mdparse.StatusForgotten {
			continue
		}
		mems[slug], paths[slug] = m, rel
	}
	for s := range want {
		if mems[s] == nil {
			return nil, nil, fmt.Errorf("%w: %s", ErrNotFound, s)
		}
	}
	return mems, paths, nil
}
