package capture

import (
	"cmp"
	"slices"
	"strings"
)

// Hit is one memory a search found, with its normalised score
// (search.Result.Score).
type Hit struct {
	Slug  string
	Score float64
}

// RelatedLineScore is the score a memory must reach for one line of the
// session to count it related. It is above the prompt hook's threshold
// (search.DefaultThreshold, 0.23): a session has dozens of lines, each
// searched, and a bar that suits one prompt would list much of a store about
// one project.
const RelatedLineScore = 0.3

// DefaultRelated is how many related memories a prompt lists at most.
const DefaultRelated = 10

// relatedQueryBytes caps the whole-session query: its most recent text.
const relatedQueryBytes = 16 << 10

// Related returns the slugs of the memories the store already holds that
// the session's new lines are about, best first, at most limit (<= 0 means
// DefaultRelated). find is the store's search (slug and normalised score,
// best first). Two rankings are fused (reciprocal rank fusion, k = 60):
// the new text as one query, which ranks memories by how much of the
// session they share (the store's search normalises a score by the query's
// best possible, so a long query's scores are low but its order holds), and
// each new line as a query of its own, a memory counted only when one line
// finds it at RelatedLineScore (a line that is about it). User and assistant
// text and each tool call's target (paths and commands name the services and
// files a memory is about) make the queries. Memories written earlier from
// this session (earlier) come first, whatever their rank: the new part may
// have overturned them.
func Related(s *Session, find func(query string, limit int) []Hit, earlier []string, limit int) []string {
	if limit <= 0 {
		limit = DefaultRelated
	}
	var queries []string
	for _, l := range s.Lines {
		if l.Seen {
			continue
		}
		q := l.Text
		switch l.Role {
		case RoleUser, RoleAssistant:
		case RoleTool:
			_, q, _ = strings.Cut(q, " ") // the tool's name is no topic
		default:
			continue
		}
		if strings.TrimSpace(q) != "" {
			queries = append(queries, q)
		}
	}
	if len(queries) == 0 {
		return nil
	}
	fused := map[string]float64{}
	whole := cutStart(strings.Join(queries, "\n"), relatedQueryBytes)
	for i, h := range find(whole, 2*limit) {
		fused[h.Slug] += 1 / float64(rrfK+i+1)
	}
	best := map[string]float64{}
	for _, q := range queries {
		for _, h := range find(q, 3) {
			if h.Score >= RelatedLineScore && h.Score > best[h.Slug] {
				best[h.Slug] = h.Score
			}
		}
	}
	for i, slug := range byScore(best, nil) {
		fused[slug] += 1 / float64(rrfK+i+1)
	}
	out := make([]string, 0, limit)
	for _, e := range earlier {
		if len(out) < limit && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	for _, slug := range byScore(fused, out) {
		if len(out) == limit {
			break
		}
		out = append(out, slug)
	}
	return out
}

// rrfK is reciprocal rank fusion's constant: a memory ranked i-th (from 0)
// in one list adds 1/(rrfK+i+1).
const rrfK = 60

// byScore lists the slugs of scores but those in skip, best score first,
// then by slug.
func byScore(scores map[string]float64, skip []string) []string {
	out := make([]string, 0, len(scores))
	for slug := range scores {
		if !slices.Contains(skip, slug) {
			out = append(out, slug)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}
