package mem

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/model"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/verify"
)

// ReviewFile is the review queue, kept in the store so the team shares it.
const ReviewFile = "review.jsonl"

// CurateOptions tune a curation run.
type CurateOptions struct {
	Model    model.Asker // nil: the deterministic pass only
	DryRun   bool        // report, write nothing
	Progress func(done, total int)
}

// Curate finds duplicates and dead paths, asks the model about related
// pairs, applies the supersessions that pass every guard (one commit
// each, nothing deleted) and queues the rest for review. The model is
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
	if err == nil {
		// Profile lines and CLAUDE.md/AGENTS.md rules against the memories:
		// tensions go to review, never applied (profile_ops.go).
		err = r.checkBoundaries(ctx, list, o, &res)
	}
	if err != nil || o.DryRun {
		return res, err
	}

	unlock, err := r.files.Lock(ctx)
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
		commit, err := r.supersede(ctx, snap.mems, snap.paths, d, nil)
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

// supersede marks d.Retire superseded by d.Keep in one commit whose
// trailers carry the decision.
func (r *Repo) supersede(ctx context.Context, mems map[string]*mdparse.Memory, paths map[string]string, d curator.Decision, extra []gitstore.Change, trailers ...gitstore.Trailer) (string, error) {
	m := mems[d.Retire]
	if m == nil {
		return "", fmt.Errorf("%w: %s", ErrNotFound, d.Retire)
	}
	if err := m.Set(mdparse.KeySupersededBy, d.Keep); err != nil {
		return "", err
	}
	trailers = append(trailers,
		gitstore.Trailer{Key: "Mem-Keep", Value: d.Keep},
		gitstore.Trailer{Key: "Mem-Confidence", Value: fmt.Sprintf("%.2f", d.Confidence)},
		gitstore.Trailer{Key: "Mem-Reason", Value: d.Reason},
	)
	if len(d.Guards) > 0 {
		trailers = append(trailers, gitstore.Trailer{Key: "Mem-Guards", Value: strings.Join(d.Guards, "; ")})
	}
	res, err := r.files.Apply(ctx, append([]gitstore.Change{{Path: paths[d.Retire], Data: m.Bytes()}}, extra...), gitstore.CommitInfo{
		Action:   "supersede",
		Slug:     d.Retire,
		Subject:  fmt.Sprintf("mem: supersede %s by %s", d.Retire, d.Keep),
		Trailers: trailers,
	})
	return res.Commit, err
}

// Review is one queued item.
type Review struct {
	ID      string           `json:"id"`
	A       string           `json:"a"`
	B       string           `json:"b"`
	Rule    string           `json:"rule,omitempty"` // the rule's text when A is a FILE:LINE
	Reason  string           `json:"reason"`
	Verdict *curator.Verdict `json:"verdict,omitempty"`
	Status  string           `json:"status"` // ReviewPending, ReviewAccepted or ReviewRejected
	Queued  time.Time        `json:"queued"`
}

// A review item's status: queued, then accepted or rejected by a person.
const (
	ReviewPending  = "pending"
	ReviewAccepted = "accepted"
	ReviewRejected = "rejected"
)

func reviewID(a, b string) string {
	if a > b {
		a, b = b, a
	}
	h := sha256.Sum256([]byte(a + "\x00" + b))
	return hex.EncodeToString(h[:4])
}

// Reviews reads the queue, oldest first.
func (r *Repo) Reviews() ([]Review, error) {
	data, err := r.files.ReadFile(ReviewFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Review
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var it Review
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", ReviewFile, n, err)
		}
		out = append(out, it)
	}
	return out, sc.Err()
}

func encodeReviews(items []Review) []byte {
	var b bytes.Buffer
	for _, it := range items {
		line, _ := json.Marshal(it)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// enqueue adds new review items (a pair already queued, in any status, is
// not queued again) in one commit.
func (r *Repo) enqueue(ctx context.Context, items []curator.ReviewItem) error {
	queue, err := r.Reviews()
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, q := range queue {
		known[q.ID] = true
	}
	added := 0
	for _, it := range items {
		key := it.A
		if it.Rule != "" {
			key = it.Rule // a rule keeps its identity when its line moves
		}
		id := reviewID(key, it.B)
		if known[id] {
			continue
		}
		known[id] = true
		queue = append(queue, Review{ID: id, A: it.A, B: it.B, Rule: it.Rule, Reason: it.Reason, Verdict: it.Verdict, Status: ReviewPending, Queued: r.Now().UTC().Truncate(time.Second)})
		added++
	}
	if added == 0 {
		return nil
	}
	_, err = r.files.Apply(ctx, []gitstore.Change{{Path: ReviewFile, Data: encodeReviews(queue)}}, gitstore.CommitInfo{
		Action:  "review-queue",
		Subject: fmt.Sprintf("mem: queue %d curation decisions for review", added),
	})
	return err
}

// Decide accepts or rejects a queued item. Accepting supersedes retire by
// keep (from the model's verdict unless keep is given), in the same commit
// that records the decision.
func (r *Repo) Decide(ctx context.Context, id string, accept bool, keep string) (string, error) {
	unlock, err := r.files.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	queue, err := r.Reviews()
	if err != nil {
		return "", err
	}
	i := -1
	for j, q := range queue {
		if q.ID == id {
			i = j
		}
	}
	if i < 0 {
		return "", fmt.Errorf("no review item %q (mem review lists them)", id)
	}
	it := &queue[i]
	if it.Status != ReviewPending {
		return "", fmt.Errorf("review item %s is already %s", id, it.Status)
	}
	// Rejecting, or accepting a tension between a rule and a memory (which
	// proposes no supersession), only records the decision.
	record := func(status, action, verb string) (string, error) {
		it.Status = status
		res, err := r.files.Apply(ctx, []gitstore.Change{{Path: ReviewFile, Data: encodeReviews(queue)}}, gitstore.CommitInfo{
			Action: action, Slug: id,
			Subject:  fmt.Sprintf("mem: %s review %s (%s, %s)", verb, id, it.A, it.B),
			Trailers: []gitstore.Trailer{{Key: "Mem-Reason", Value: it.Reason}},
		})
		return res.Commit, err
	}
	if !accept {
		return record(ReviewRejected, "review-reject", "reject")
	}
	if it.Rule != "" {
		return record(ReviewAccepted, "review-accept", "acknowledge")
	}
	if keep == "" && it.Verdict != nil {
		keep = it.Verdict.Keep
	}
	retire := it.B
	switch keep {
	case it.A:
	case it.B:
		retire = it.A
	default:
		return "", fmt.Errorf("say which memory to keep: --keep %s or --keep %s", it.A, it.B)
	}
	it.Status = ReviewAccepted
	mems, paths, err := r.memories([]string{it.A, it.B})
	if err != nil {
		return "", err
	}
	d := curator.Decision{Keep: keep, Retire: retire, Reason: "accepted in review: " + it.Reason}
	if it.Verdict != nil {
		d.Confidence = it.Verdict.Confidence
	}
	commit, err := r.supersede(ctx, mems, paths, d,
		[]gitstore.Change{{Path: ReviewFile, Data: encodeReviews(queue)}},
		gitstore.Trailer{Key: "Mem-Review", Value: id})
	if err != nil {
		return "", err
	}
	r.refreshLocked()
	return commit, nil
}
