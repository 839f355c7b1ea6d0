package curator

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mem-dev/mem/gitstore"
)

// ReviewFile is the review queue's file, at the top of the store.
const ReviewFile = "review.jsonl"

// Review is one queued item.
type Review struct {
	ID      string    `json:"id"`
	A       string    `json:"a"`
	B       string    `json:"b"`
	Rule    string    `json:"rule,omitempty"` // the rule's text when A is a FILE:LINE
	Reason  string    `json:"reason"`
	Would   string    `json:"would,omitempty"` // what accepting it does
	Loses   string    `json:"loses,omitempty"` // what that loses
	Verdict *Verdict  `json:"verdict,omitempty"`
	Status  string    `json:"status"` // ReviewPending, ReviewAccepted or ReviewRejected
	Queued  time.Time `json:"queued"`
}

// NeedsKeep reports whether accepting the item needs a person to say which
// memory to keep: a pair no model chose between (curate without a model,
// or a verdict that kept neither). A rule's tension is only acknowledged.
func (r Review) NeedsKeep() bool {
	return r.Rule == "" && (r.Verdict == nil || r.Verdict.Keep == "")
}

// A review item's status: queued, then accepted or rejected by a person.
const (
	ReviewPending  = "pending"
	ReviewAccepted = "accepted"
	ReviewRejected = "rejected"
)

// Command is the command that accepts the item, doing what Would says.
func (r Review) Command() string {
	c := "mem review accept " + r.ID
	if r.NeedsKeep() {
		c += " --keep " + r.A
	}
	return c
}

// ReviewID is the queue's identity of the pair a, b, in either order.
func ReviewID(a, b string) string {
	if a > b {
		a, b = b, a
	}
	h := sha256.Sum256([]byte(a + "\x00" + b))
	return hex.EncodeToString(h[:4])
}

// ParseReviews reads a queue file, oldest first.
func ParseReviews(data []byte) ([]Review, error) {
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

// EncodeReviews writes a queue file.
func EncodeReviews(items []Review) []byte {
	var b bytes.Buffer
	for _, it := range items {
		line, _ := json.Marshal(it)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Enqueue adds new items to queue, pending and stamped now, and says how
// many it added: a pair already queued, in any status, is not queued again.
func Enqueue(queue []Review, items []ReviewItem, now time.Time) ([]Review, int) {
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
		id := ReviewID(key, it.B)
		if known[id] {
			continue
		}
		known[id] = true
		queue = append(queue, Review{ID: id, A: it.A, B: it.B, Rule: it.Rule, Reason: it.Reason, Would: it.Would, Loses: it.Loses, Verdict: it.Verdict, Status: ReviewPending, Queued: now.UTC().Truncate(time.Second)})
		added++
	}
	return queue, added
}

// Ruling is a person's decision on one item, as Decide reads it: the item
// with its new status and, when a pair was accepted, the supersession to
// commit with the queue.
type Ruling struct {
	Item *Review // in the queue Decide was given
	// Supersede is the supersession an accepted pair asks for; nil when the
	// decision only changes the queue (a rejection, or an accepted tension
	// between a rule and a memory, which proposes none).
	Supersede *Decision
	// Action and Verb name a decision that only changes the queue, for its
	// commit: review-reject and reject, or review-accept and acknowledge.
	Action, Verb string
}

// Decide rules on the pending item id of queue: reject it, or accept it,
// keeping keep (from the model's verdict when keep is empty) and retiring
// the other memory. It sets the item's status in queue.
func Decide(queue []Review, id string, accept bool, keep string) (Ruling, error) {
	i := -1
	for j, q := range queue {
		if q.ID == id {
			i = j
		}
	}
	if i < 0 {
		return Ruling{}, fmt.Errorf("no review item %q (mem review lists them)", id)
	}
	it := &queue[i]
	if it.Status != ReviewPending {
		return Ruling{}, fmt.Errorf("review item %s is already %s", id, it.Status)
	}
	switch {
	case !accept:
		it.Status = ReviewRejected
		return Ruling{Item: it, Action: gitstore.ActionReviewReject, Verb: "reject"}, nil
	case it.Rule != "":
		it.Status = ReviewAccepted
		return Ruling{Item: it, Action: gitstore.ActionReviewAccept, Verb: "acknowledge"}, nil
	}
	if keep == "" && !it.NeedsKeep() {
		keep = it.Verdict.Keep
	}
	retire := it.B
	switch keep {
	case it.A:
	case it.B:
		retire = it.A
	case "":
		return Ruling{}, fmt.Errorf("no model chose which memory of review item %s to keep: accept it with --keep %s or --keep %s, and the other is superseded by it", id, it.A, it.B)
	default:
		return Ruling{}, fmt.Errorf("%s is neither memory of review item %s: accept it with --keep %s or --keep %s", keep, id, it.A, it.B)
	}
	it.Status = ReviewAccepted
	d := &Decision{Keep: keep, Retire: retire, Reason: "accepted in review: " + it.Reason}
	if it.Verdict != nil {
		d.Confidence = it.Verdict.Confidence
	}
	return Ruling{Item: it, Supersede: d}, nil
}
