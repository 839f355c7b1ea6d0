package curator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// Memory is one memory of the store, by slug.
type Memory struct {
	Slug string
	M    *mdparse.Memory
}

// PathChecker tells whether a repository path exists. known is false when it
// cannot tell (the path is outside every repository it knows, say); only a
// known absence makes a dead path. A path may omit the sub-repository it
// lives in ("internal/auth/session.go" for "atlas-api/internal/..."):
// finding it is the checker's job.
type PathChecker interface {
	Exists(path string) (exists, known bool)
}

// Verdict is a model's answer about one pair of memories.
type Verdict struct {
	Relation   string  `json:"relation"` // supersedes | duplicate | partial | unrelated
	Keep       string  `json:"keep"`
	Retire     string  `json:"retire"`
	Confidence float64 `json:"confidence"`
	Coverage   string  `json:"coverage"` // full | partial
	Reason     string  `json:"reason"`
}

// Validate refuses a verdict with no relation ({}): a model that did not
// answer, which the runner asks again and then reports, rather than a pair
// queued for review on an empty verdict.
func (v *Verdict) Validate() error {
	if strings.TrimSpace(v.Relation) == "" {
		return errors.New(`the verdict has no "relation"`)
	}
	return nil
}

// Decision is a supersession every guard allows: set superseded_by: Keep on
// Retire. Guards lists the checks that passed, for the commit's Mem-Guards
// trailer. Commit is filled in by the caller once it is applied.
type Decision struct {
	Keep       string   `json:"keep"`
	Retire     string   `json:"retire"`
	Confidence float64  `json:"confidence"`
	Reason     string   `json:"reason"`
	Guards     []string `json:"guards"`
	// Merged, when set, is Keep's new body, with Retire's still-true
	// details folded in (MergePrompt, checkMerge): the caller writes it in
	// the commit that retires Retire. Outdated are what of Retire the merge
	// found changed by Keep, "old → new".
	Merged   string   `json:"merged,omitempty"`
	Outdated []string `json:"outdated,omitempty"`
	Commit   string   `json:"commit,omitempty"`
}

// ReviewItem is a pair a person should look at: A is the memory a verdict
// would keep and B the one it would retire, when the verdict names them.
// Reason says why it was not applied (the failed guards, "; "-separated);
// Would what accepting it does, and Loses what that loses (Review.Command
// is the command that accepts it).
type ReviewItem struct {
	A       string   `json:"a"`
	B       string   `json:"b"`
	Reason  string   `json:"reason"`
	Would   string   `json:"would,omitempty"`
	Loses   string   `json:"loses,omitempty"`
	Verdict *Verdict `json:"verdict,omitempty"`
	// Rule is the text of a profile line or CLAUDE.md rule when A names
	// one by FILE:LINE: what identifies the item when the line moves.
	Rule string `json:"rule,omitempty"`
}

// DeadPath is a repository path a memory cites that does not exist.
type DeadPath struct {
	Memory string `json:"memory"`
	Path   string `json:"path"`
}

// Result is what one curator run found and proposes. Nothing in it has been
// written; the caller applies Apply (one commit each) and queues Review.
type Result struct {
	// Duplicates are pairs of memories with identical bodies (white space
	// around them aside; kept memory first) or near-identical text (shingle
	// resemblance of at least NearDuplicate; slugs in order).
	Duplicates [][2]string  `json:"duplicates"`
	DeadPaths  []DeadPath   `json:"dead_paths"`
	Apply      []Decision   `json:"applied"`
	Review     []ReviewItem `json:"review"`
	// Changed are decisions the caller did not apply because a memory
	// changed between the run's read and the write; the next run asks again.
	Changed []Decision `json:"changed,omitempty"`
	// Unasked counts candidate pairs left out by Options.MaxPairs.
	Unasked int `json:"unasked,omitempty"`
	// Broken lists the memory files the caller could not read to curate
	// ("path:line: what is wrong").
	Broken []string `json:"broken,omitempty"`
}

// Options configure Run.
type Options struct {
	Model    modelcmd.Asker        // nil: the deterministic pass only
	Paths    PathChecker           // nil: no dead-path check
	Progress func(done, total int) // after each model call, and once with done 0
	MaxPairs int                   // most pairs to ask the model about; 0 means all
}

// Run curates mems: it finds duplicates and dead paths, asks the model about
// candidate pairs one at a time, and sorts every proposed supersession into
// Apply (all guards hold) or Review. The order of everything in Result
// depends only on mems and the model's answers.
//
// Memories that are forgotten or superseded already are neither compared
// nor retired. Identical bodies are decided without a model: the memory with
// the higher importance is kept, then the newer, then the one with more
// tags, then the first slug; the decision still has to pass Guards. Each
// memory is retired at most once in a run, and a memory retired in this run
// is not kept for another, nor asked about again.
//
// A verdict of partial is asked about once more where a merge could be
// applied (FoldPrompt: one note written twice is then decided as a
// duplicate). A verdict of partial or unrelated that proposes nothing is
// dropped (unless the pair is a near-duplicate). A verdict that is not
// well formed (an unknown relation, keep and retire that are not the pair)
// goes to Review; one with no relation at all is no answer
// (Verdict.Validate). An error
// from the model stops the run: Run returns what it had decided so
// far and the error.
func Run(ctx context.Context, mems []Memory, o Options) (Result, error) {
	r := Result{Duplicates: [][2]string{}, DeadPaths: []DeadPath{}, Apply: []Decision{}, Review: []ReviewItem{}}
	fs := make([]*features, len(mems))
	seen := map[string]bool{}
	for i, m := range mems {
		if m.M == nil {
			return r, fmt.Errorf("memory %q has no content", m.Slug)
		}
		if seen[m.Slug] {
			return r, fmt.Errorf("two memories named %q", m.Slug)
		}
		seen[m.Slug] = true
		if eligible(m) {
			fs[i] = featuresOf(m.M)
		}
	}
	c := &run{ctx: ctx, model: o.Model, mems: mems, fs: fs, r: &r, retiredBy: map[int]string{}, mergedWith: map[int]string{}}

	if o.Paths != nil {
		c.deadPaths(o.Paths)
	}
	identical, err := c.identical()
	if err != nil {
		return r, err
	}
	near := c.nearDuplicates(identical)

	if o.Model == nil {
		for _, p := range near {
			c.review(p[0], p[1], fmt.Sprintf("near-duplicate (%s); no model to decide", c.resemblance(p[0], p[1])), nil)
		}
		return r, nil
	}

	// Near-duplicates first, then the other candidates, best related first.
	// Every pair is (lower index, higher index), and scorePairs names each
	// pair once.
	isNear := map[[2]int]bool{}
	for _, p := range near {
		isNear[p] = true
	}
	pairs := slices.Clone(near)
	for _, sp := range scorePairs(mems, fs) {
		if p := [2]int{sp.i, sp.j}; !isNear[p] && !identical[p] {
			pairs = append(pairs, p)
		}
	}
	if o.MaxPairs > 0 && len(pairs) > o.MaxPairs {
		r.Unasked = len(pairs) - o.MaxPairs
		pairs = pairs[:o.MaxPairs]
	}
	progress := func(done int) {
		if o.Progress != nil {
			o.Progress(done, len(pairs))
		}
	}
	progress(0)
	for k, p := range pairs {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		i, j := p[0], p[1]
		_, goneI := c.retiredBy[i]
		_, goneJ := c.retiredBy[j]
		if !goneI && !goneJ {
			var v Verdict
			if err := o.Model.Ask(ctx, PairPrompt(mems[i], mems[j]), &v); err != nil {
				if ctxErr := ctx.Err(); ctxErr != nil {
					return r, ctxErr
				}
				return r, fmt.Errorf("ask the model about %s and %s: %w", mems[i].Slug, mems[j].Slug, err)
			}
			if err := c.judge(i, j, v, isNear[p]); err != nil {
				return r, err
			}
		}
		progress(k + 1)
	}
	return r, nil
}

// run is the state of one Run.
type run struct {
	ctx        context.Context
	model      modelcmd.Asker // nil: no model, so no merge
	mems       []Memory
	fs         []*features // nil for memories that take no part
	r          *Result
	retiredBy  map[int]string // retired in this run → kept slug
	mergedWith map[int]string // rewritten by a merge in this run → retired slug
}

func (c *run) deadPaths(pc PathChecker) {
	for i, m := range c.mems {
		if c.fs[i] == nil {
			continue
		}
		for _, p := range c.fs[i].paths {
			if exists, known := pc.Exists(p); known && !exists {
				c.r.DeadPaths = append(c.r.DeadPaths, DeadPath{Memory: m.Slug, Path: p})
			}
		}
	}
	slices.SortStableFunc(c.r.DeadPaths, func(a, b DeadPath) int { return cmp.Compare(a.Memory, b.Memory) })
}

// identical finds memories with the same body, reports them in Duplicates
// and decides them: within a group the best (see Run) is kept and each other
// one retired, when the guards allow; otherwise the pair goes to review.
// It returns the pairs it handled.
func (c *run) identical() (map[[2]int]bool, error) {
	byBody := map[string][]int{}
	var bodies []string
	for i, f := range c.fs {
		if f == nil || len(f.body) == 0 {
			continue
		}
		k := string(f.body)
		if byBody[k] == nil {
			bodies = append(bodies, k)
		}
		byBody[k] = append(byBody[k], i)
	}
	done := map[[2]int]bool{}
	type dup struct{ keep, retire int }
	var dups []dup
	for _, k := range bodies {
		g := byBody[k]
		if len(g) < 2 {
			continue
		}
		slices.SortFunc(g, func(x, y int) int { return c.better(x, y) })
		for n, x := range g {
			if n > 0 {
				dups = append(dups, dup{g[0], x})
			}
			for _, y := range g[n+1:] {
				done[[2]int{min(x, y), max(x, y)}] = true
			}
		}
	}
	slices.SortFunc(dups, func(x, y dup) int {
		return cmp.Or(cmp.Compare(c.mems[x.keep].Slug, c.mems[y.keep].Slug), cmp.Compare(c.mems[x.retire].Slug, c.mems[y.retire].Slug))
	})
	for _, d := range dups {
		keep, retire := c.mems[d.keep], c.mems[d.retire]
		c.r.Duplicates = append(c.r.Duplicates, [2]string{keep.Slug, retire.Slug})
		v := Verdict{
			Relation: RelDuplicate, Keep: keep.Slug, Retire: retire.Slug, Confidence: 1, Coverage: CoverageFull,
			Reason: "identical bodies; kept " + keep.Slug + ": " + c.why(d.keep, d.retire),
		}
		if err := c.decide(d.keep, d.retire, v, false); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// better orders memories best kept first: higher importance, newer, more
// tags, then by slug.
func (c *run) better(x, y int) int {
	a, b := c.mems[x].M, c.mems[y].M
	return cmp.Or(
		cmp.Compare(b.Importance, a.Importance),
		b.Modified.Compare(a.Modified),
		cmp.Compare(len(b.Tags), len(a.Tags)),
		cmp.Compare(c.mems[x].Slug, c.mems[y].Slug),
	)
}

// why says in words why better put keep first.
func (c *run) why(keep, retire int) string {
	a, b := c.mems[keep].M, c.mems[retire].M
	switch {
	case a.Importance != b.Importance:
		return fmt.Sprintf("importance %d > %d", a.Importance, b.Importance)
	case !a.Modified.Equal(b.Modified):
		return fmt.Sprintf("newer (%s > %s)", a.Modified.Format("2006-01-02"), b.Modified.Format("2006-01-02"))
	case len(a.Tags) != len(b.Tags):
		return fmt.Sprintf("more tags (%d > %d)", len(a.Tags), len(b.Tags))
	}
	return "first by slug"
}

// NearDuplicate is the shingle resemblance from which two memories are
// reported as near-duplicates: Jaccard similarity of their word 3-gram sets
// (name, description and body, stemmed, stopwords dropped) of at least
// NearDuplicate, or containment of at least NearContainment when the
// smaller has minShingles or more.
const (
	NearDuplicate   = 0.5
	NearContainment = 0.8
	minShingles     = 8
)

// nearDuplicates reports the pairs whose text is near-identical, other than
// those with identical bodies, and returns them. Only pairs that share a
// shingle found in at most maxShingleDF memories are compared: boilerplate
// shared by many memories relates none of them.
func (c *run) nearDuplicates(identical map[[2]int]bool) [][2]int {
	post := map[uint64][]int{}
	for i, f := range c.fs {
		if f == nil {
			continue
		}
		for _, h := range f.shingles {
			post[h] = append(post[h], i)
		}
	}
	cand := map[[2]int]bool{}
	for _, l := range post {
		if len(l) > maxShingleDF {
			continue
		}
		for x, i := range l {
			for _, j := range l[x+1:] {
				cand[[2]int{i, j}] = true
			}
		}
	}
	var out [][2]int
	for p := range cand {
		if !identical[p] && c.isNear(p[0], p[1]) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(x, y [2]int) int {
		return cmp.Or(cmp.Compare(c.mems[x[0]].Slug, c.mems[y[0]].Slug), cmp.Compare(c.mems[x[1]].Slug, c.mems[y[1]].Slug))
	})
	for _, p := range out {
		a, b := c.mems[p[0]].Slug, c.mems[p[1]].Slug
		if b < a {
			a, b = b, a
		}
		c.r.Duplicates = append(c.r.Duplicates, [2]string{a, b})
	}
	return out
}

// maxShingleDF is the most memories a shingle may appear in and still make
// them candidates for near-duplicates.
const maxShingleDF = 50

func (c *run) isNear(i, j int) bool {
	a, b := c.fs[i].shingles, c.fs[j].shingles
	jac, con := resemblance(a, b)
	return jac >= NearDuplicate || con >= NearContainment && min(len(a), len(b)) >= minShingles
}

func (c *run) resemblance(i, j int) string {
	jac, con := resemblance(c.fs[i].shingles, c.fs[j].shingles)
	return fmt.Sprintf("shingle jaccard %.2f, containment %.2f", jac, con)
}

// judge sorts the model's verdict about pair (i, j) into Apply or Review.
// A partial verdict is asked about once more where it could be merged
// (fold); one that still proposes nothing, or unrelated, is dropped, unless
// the pair is a near-duplicate: a person should see why it was not merged.
func (c *run) judge(i, j int, v Verdict, near bool) error {
	if v.Relation == RelPartial && c.foldable(i, j) {
		f, err := c.fold(i, j)
		if err != nil {
			return err
		}
		if f.Notes == FoldOne {
			v = f.verdict(c.mems[i].Slug, c.mems[j].Slug)
		}
	}
	if (v.Relation == RelPartial || v.Relation == RelUnrelated) && !near {
		return nil
	}
	keep, retire := i, j
	if v.Keep == c.mems[j].Slug && v.Retire == c.mems[i].Slug {
		keep, retire = j, i
	}
	return c.decide(keep, retire, v, near)
}

// foldable reports whether an answer that i and j are one note could be
// applied: a merge of them as duplicates passes every guard but the
// confidence still to come. Only then is the model asked (fold).
func (c *run) foldable(i, j int) bool {
	if c.model == nil {
		return false
	}
	v := Verdict{Relation: RelDuplicate, Keep: c.mems[i].Slug, Retire: c.mems[j].Slug, Confidence: 1, Coverage: CoveragePartial}
	ok, _, _ := guards(c.mems[i], c.mems[j], v, c.fs[i], c.fs[j], true)
	return ok
}

// fold asks the model whether i and j, which its first reading found to
// overlap in part, are one note written twice (FoldPrompt). A failed call
// is the answer "two", as the first reading said; only ctx ending is an
// error.
func (c *run) fold(i, j int) (Fold, error) {
	var f Fold
	if err := c.model.Ask(c.ctx, FoldPrompt(c.mems[i], c.mems[j]), &f); err != nil {
		if ctxErr := c.ctx.Err(); ctxErr != nil {
			return Fold{}, ctxErr
		}
		return Fold{Notes: FoldTwo}, nil
	}
	return f, nil
}

// decide applies v to (keep, retire) when every guard holds and neither
// memory was retired earlier in this run. When only the coverage is
// partial, it asks the model to merge the two (merge) and applies the
// merge if checkMerge finds nothing wrong with it. Otherwise it queues the
// pair. It fails only when ctx is done.
func (c *run) decide(keep, retire int, v Verdict, near bool) error {
	a, b := c.mems[keep], c.mems[retire]
	ok, passed, failed := guards(a, b, v, c.fs[keep], c.fs[retire], false)
	var gone []string
	if k, ok := c.retiredBy[retire]; ok {
		gone = append(gone, fmt.Sprintf("%s was retired in this run for %s", b.Slug, k))
	}
	if k, ok := c.retiredBy[keep]; ok {
		gone = append(gone, fmt.Sprintf("%s was retired in this run for %s", a.Slug, k))
	}
	for _, x := range []int{keep, retire} {
		if r, ok := c.mergedWith[x]; ok {
			gone = append(gone, fmt.Sprintf("%s was rewritten in this run to retire %s; the next run reads it again", c.mems[x].Slug, r))
		}
	}
	d := Decision{Keep: a.Slug, Retire: b.Slug, Confidence: v.Confidence, Reason: v.Reason, Guards: passed}
	if len(gone) > 0 {
		ok, failed = false, append(failed, gone...)
	} else if !ok && c.model != nil && v.Coverage == CoveragePartial {
		if mergeable, mpassed, _ := guards(a, b, v, c.fs[keep], c.fs[retire], true); mergeable {
			body, changed, problems, err := c.merge(keep, retire, v)
			if err != nil {
				return err
			}
			if ok = len(problems) == 0; ok {
				d.Guards, d.Merged, d.Outdated = mpassed, body, changed
			}
			failed = append(failed, problems...)
		}
	}
	if ok {
		c.retiredBy[retire] = a.Slug
		if d.Merged != "" {
			c.mergedWith[keep] = b.Slug
		}
		c.r.Apply = append(c.r.Apply, d)
		return nil
	}
	reason := strings.Join(failed, "; ")
	if near {
		reason = "near-duplicate (" + c.resemblance(keep, retire) + "); " + reason
	}
	c.review(keep, retire, reason, &v)
	return nil
}

// merge asks the model to fold retire's still-true details into keep
// (MergePrompt) and checks its answer (checkMerge); an answer refused only
// for details it dropped or added is asked for once more, with what was
// wrong (MergeAgainPrompt). An answer refused, or a failed call, is a
// problem that sends the pair to review, not an end of the run; only ctx
// ending is an error.
func (c *run) merge(keep, retire int, v Verdict) (body string, changed, problems []string, err error) {
	a, b := c.mems[keep], c.mems[retire]
	prompt := MergePrompt(a, b, v)
	for again := false; ; again = true {
		var m Merge
		if err := c.model.Ask(c.ctx, prompt, &m); err != nil {
			if ctxErr := c.ctx.Err(); ctxErr != nil {
				return "", nil, nil, ctxErr
			}
			return "", nil, append(problems, "no merge: "+text.Clip(err.Error(), 200)), nil
		}
		var details bool
		problems, changed, details = checkMerge(c.fs[keep], c.fs[retire], a.M, v, m)
		if !details || again {
			return strings.TrimSpace(m.Body) + "\n", changed, problems, nil
		}
		prompt = MergeAgainPrompt(a, b, v, m, problems)
	}
}

func (c *run) review(a, b int, reason string, v *Verdict) {
	c.r.Review = append(c.r.Review, reviewOf(c.mems[a], c.mems[b], c.fs[a], c.fs[b], reason, v))
}

// ReviewOf is the review item for keeping a and retiring b, held back for
// reason: what accepting it would do and what that would lose.
func ReviewOf(a, b Memory, reason string, v *Verdict) ReviewItem {
	return reviewOf(a, b, featuresOf(a.M), featuresOf(b.M), reason, v)
}

func reviewOf(a, b Memory, fa, fb *features, reason string, v *Verdict) ReviewItem {
	it := ReviewItem{A: a.Slug, B: b.Slug, Reason: reason, Verdict: v}
	if v != nil && v.Keep == a.Slug && v.Retire == b.Slug {
		it.Would = fmt.Sprintf("supersede %s by %s as they stand", b.Slug, a.Slug)
		it.Loses = lost(a.Slug, b.Slug, fa, fb)
		return it
	}
	it.Would = fmt.Sprintf("supersede whichever of %s and %s is not kept (--keep says which)", a.Slug, b.Slug)
	it.Loses = "kept " + a.Slug + ": " + lost(a.Slug, b.Slug, fa, fb) + "; kept " + b.Slug + ": " + lost(b.Slug, a.Slug, fb, fa)
	return it
}

// lost says which details of retire (slug r) keep (slug k) does not say:
// what a search finds no more once retire is superseded.
func lost(k, r string, keep, retire *features) string {
	var out []string
	for _, d := range retire.details {
		if !inText(keep.text, d) {
			out = append(out, d.String())
		}
	}
	if len(out) == 0 {
		return fmt.Sprintf("nothing of %s that %s does not say", r, k)
	}
	const most = 12
	if len(out) > most {
		out = append(out[:most], fmt.Sprintf("%d more", len(out)-most))
	}
	return fmt.Sprintf("%s's %s", r, strings.Join(out, ", "))
}
