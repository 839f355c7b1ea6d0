package mem

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/mem-dev/mem/curator"
	"github.com/mem-dev/mem/gitstore"
)

// Reviews reads the review queue (curator.ReviewFile), oldest first.
func (r *Repo) Reviews(ctx context.Context) ([]curator.Review, error) {
	data, err := r.files.ReadFile(curator.ReviewFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return curator.ParseReviews(data)
}

// enqueue adds new review items (a pair already queued, in any status, is
// not queued again) in one commit, under the caller's lock.
func (r *Repo) enqueue(ctx context.Context, items []curator.ReviewItem) error {
	queue, err := r.Reviews(ctx)
	if err != nil {
		return err
	}
	queue, added := curator.Enqueue(queue, items, r.Now())
	if added == 0 {
		return nil
	}
	_, err = r.files.Apply(ctx, []gitstore.Change{{Path: curator.ReviewFile, Data: curator.EncodeReviews(queue)}}, gitstore.CommitInfo{
		Action:  gitstore.ActionReviewQueue,
		Subject: fmt.Sprintf("mem: queue %d curation decisions for review", added),
	})
	return err
}

// DecideOptions are a person's decision on one review item.
type DecideOptions struct {
	ID     string
	Accept bool   // accept the item; reject it when false
	Keep   string // the memory to keep when accepting; the model's choice when empty
}

// Decide accepts or rejects a queued item (curator.Decide). Accepting a
// pair supersedes one memory by the other in the same commit that records
// the decision; it returns that commit.
func (r *Repo) Decide(ctx context.Context, o DecideOptions) (string, error) {
	unlock, err := r.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	queue, err := r.Reviews(ctx)
	if err != nil {
		return "", err
	}
	ru, err := curator.Decide(queue, o.ID, o.Accept, o.Keep)
	if err != nil {
		return "", err
	}
	it := ru.Item
	record := []gitstore.Change{{Path: curator.ReviewFile, Data: curator.EncodeReviews(queue)}}
	if ru.Supersede == nil {
		res, err := r.files.Apply(ctx, record, gitstore.CommitInfo{
			Action: ru.Action, Slug: it.ID,
			Subject:  fmt.Sprintf("mem: %s review %s (%s, %s)", ru.Verb, it.ID, it.A, it.B),
			Trailers: []gitstore.Trailer{{Key: gitstore.TrailerReason, Value: it.Reason}},
		})
		return res.Commit, err
	}
	mems, paths, err := r.memories([]string{it.A, it.B})
	if err != nil {
		return "", err
	}
	commit, err := r.supersede(ctx, mems, paths, *ru.Supersede, record, gitstore.Trailer{Key: gitstore.TrailerReview, Value: it.ID})
	if err != nil {
		return "", err
	}
	r.refreshLocked()
	return commit, nil
}
