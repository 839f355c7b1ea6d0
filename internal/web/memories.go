package web

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mem-dev/mem/search"
)

// pageSize is how many memories one page of the list shows: a store of
// 10,000 is filtered whole and drawn a page at a time.
const pageSize = 100

// row is one memory in the list.
type row struct {
	Slug, Name, Description, Class, Store, Path string
	Modified                                    time.Time
	Tags, Labels                                []string
	Score                                       float64
	Injected                                    bool // the prompt hook would inject it for this query
	Section                                     bool // a section of a MEMORY.md
	key                                         string
}

// filters are the list's filters, as the form sends them.
type filters struct {
	Q, Class, Store, Label, Tag, Age string
	Below                            bool // show what falls under the threshold
	Page                             int
}

func readFilters(r *http.Request) filters {
	q := r.URL.Query()
	f := filters{Q: strings.TrimSpace(q.Get("q")), Class: q.Get("class"), Store: q.Get("store"),
		Label: q.Get("label"), Tag: q.Get("tag"), Age: q.Get("age"), Below: q.Get("below") == "1"}
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = max(f.Page, 1)
	return f
}

// ages are the age filter's choices: newer than, or (with "-") older than.
var ages = []struct{ Key, Name string }{
	{"7d", "this week"}, {"30d", "this month"}, {"90d", "3 months"}, {"365d", "this year"}, {"-365d", "older than a year"},
}

func (f filters) ageOK(t time.Time, now time.Time) bool {
	if f.Age == "" {
		return true
	}
	if t.IsZero() {
		return false // an undated entry (a MEMORY.md section) has no age to filter by
	}
	older := strings.HasPrefix(f.Age, "-")
	days, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.Age, "-"), "d"))
	if err != nil {
		return true
	}
	within := now.Sub(t) <= time.Duration(days)*24*time.Hour
	return within != older
}

func (f filters) match(x row, now time.Time) bool {
	switch {
	case f.Class != "" && x.Class != f.Class,
		f.Store != "" && x.Store != f.Store,
		f.Tag != "" && !slices.Contains(x.Tags, f.Tag),
		!f.ageOK(x.Modified, now):
		return false
	}
	switch f.Label {
	case "":
		return true
	case "unverified", "superseded", "forgotten":
		for _, l := range x.Labels {
			if strings.HasPrefix(l, f.Label) {
				return true
			}
		}
		return false
	case "none":
		return len(x.Labels) == 0
	}
	return true
}

func rowOf(d search.Doc) row {
	x := row{Slug: d.Slug, Name: d.Name, Description: d.Description, Class: d.Class, Store: d.Store,
		Path: search.Where(d.Path, d.Line), Modified: d.Modified, Tags: d.Tags, Section: d.Line > 0, key: d.Path + "#" + d.Slug}
	if d.SupersededBy != "" {
		x.Labels = append(x.Labels, "superseded by "+d.SupersededBy)
	}
	for _, u := range d.Unverified {
		x.Labels = append(x.Labels, "unverified: "+u)
	}
	return x
}

// facet is one choice of a filter with how many memories it would show.
type facet struct {
	Key   string
	Count int
}

type memoriesPage struct {
	F                   filters
	Rows                []row
	Total, Shown, Pages int
	Injected            int // of those shown, how many the hook would inject
	Searched            bool
	Query               string // the query the prompt hook would search for
	Threshold           float64
	Classes, Stores     []facet
	Labels, Tags        []facet
	Ages                any
	Err                 string
}

func (s *Server) memories(w http.ResponseWriter, r *http.Request) {
	f := readFilters(r)
	now := s.o.Repo.Now()
	ix, err := s.o.Repo.Index(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	defer ix.Close()
	rows, byKey := s.rows(ix)
	p := memoriesPage{F: f, Threshold: search.DefaultThreshold, Ages: ages}

	var all []row
	if f.Q != "" {
		// The prompt hook's own query building and ranking; the threshold
		// toggle asks for what it would have kept quiet about too.
		p.Searched = true
		q := search.ParseQuery(f.Q, "")
		p.Query = q.String()
		injected := map[string]bool{}
		for _, res := range ix.Search(q, search.Options{Limit: search.MaxInjected, Now: now}) {
			injected[res.Path+"#"+res.Slug] = true
		}
		limit := search.MaxInjected
		if f.Below {
			limit = 50
		}
		for _, res := range ix.Search(q, search.Options{Limit: limit, Now: now, All: f.Below}) {
			x := rows[byKey[res.Path+"#"+res.Slug]]
			x.Slug, x.Store, x.Name, x.Class = res.Slug, res.Store, res.Name, res.Class
			x.Score, x.Labels = res.Score, res.Labels
			x.Injected = injected[res.Path+"#"+res.Slug]
			all = append(all, x)
		}
	} else {
		all = rows
	}
	if f.Label == "forgotten" {
		all = nil
		// The index leaves forgotten memories out: read them from the files.
		forgotten, _, err := s.o.Repo.Forgotten(r.Context())
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, err)
			return
		}
		for _, e := range forgotten {
			all = append(all, row{Slug: e.Slug, Name: e.Name, Description: e.Description, Class: e.Class,
				Store: search.StoreProject, Path: e.Path, Modified: e.Modified, Tags: e.Tags,
				Labels: append([]string{"forgotten"}, labelsOf(e.SupersededBy, e.Unverified)...)})
		}
	}
	p.Total = len(all)

	// Facets count what each choice would show with the other filters kept.
	classes, stores, labels, tags := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	shown := make([]row, 0, len(all))
	noClass, noStore, noLabel := f, f, f
	noClass.Class, noStore.Store, noLabel.Label = "", "", ""
	for _, x := range all {
		if noClass.match(x, now) {
			classes[x.Class]++
		}
		if noStore.match(x, now) {
			stores[x.Store]++
		}
		if noLabel.match(x, now) {
			for _, l := range []string{"unverified", "superseded"} {
				for _, have := range x.Labels {
					if strings.HasPrefix(have, l) {
						labels[l]++
						break
					}
				}
			}
		}
		if !f.match(x, now) {
			continue
		}
		for _, t := range x.Tags {
			tags[t]++
		}
		if x.Injected {
			p.Injected++
		}
		shown = append(shown, x)
	}
	p.Classes = facets(classes, false)
	p.Stores = facets(stores, false)
	p.Labels = facets(labels, false)
	p.Tags = facets(tags, true)
	if len(p.Tags) > 40 {
		p.Tags = p.Tags[:40]
	}
	p.Shown = len(shown)
	p.Pages = max(1, (len(shown)+pageSize-1)/pageSize)
	f.Page = min(f.Page, p.Pages)
	p.F.Page = f.Page
	lo := (f.Page - 1) * pageSize
	p.Rows = shown[lo:min(len(shown), lo+pageSize)]
	s.render(w, r, "memories", "Memories", p)
}

func labelsOf(supersededBy string, unverified []string) []string {
	var out []string
	if supersededBy != "" {
		out = append(out, "superseded by "+supersededBy)
	}
	for _, u := range unverified {
		out = append(out, "unverified: "+u)
	}
	return out
}

// facets sorts counts by key, or by count (most first) when byCount.
func facets(m map[string]int, byCount bool) []facet {
	out := make([]facet, 0, len(m))
	for k, n := range m {
		out = append(out, facet{k, n})
	}
	slices.SortFunc(out, func(a, b facet) int {
		if byCount && a.Count != b.Count {
			return b.Count - a.Count
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}

// rowCache keeps the list's rows, newest first, for as long as the index
// is the same one (its Fingerprint, which a refresh's delta changes too,
// where the cache file stays as it was): a 10,000-memory store is decoded
// and sorted once per change, not once per page drawn. The index is still
// checked for freshness on every request (Repo.Index), so the rows are
// never stale.
type rowCache struct {
	mu    sync.Mutex
	key   string
	rows  []row
	byKey map[string]int // Path#Slug -> index in rows
}

// rows returns every document of ix as a row, newest first, and where each
// is by Path#Slug. The caller must not modify them.
func (s *Server) rows(ix *search.Index) ([]row, map[string]int) {
	key := ix.Fingerprint()
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows != nil && c.key == key {
		return c.rows, c.byKey
	}
	docs := ix.Docs()
	rows := make([]row, len(docs))
	for i, d := range docs {
		rows[i] = rowOf(d)
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return cmp.Compare(a.Slug, b.Slug)
	})
	byKey := make(map[string]int, len(rows))
	for i, x := range rows {
		byKey[x.key] = i
	}
	c.key, c.rows, c.byKey = key, rows, byKey
	return rows, byKey
}
