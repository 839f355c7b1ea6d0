package capture

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
	"github.com/mem-dev/mem/mdparse"
	"github.com/mem-dev/mem/search"
)

// TestHeldScoreOnEvalStore measures HeldScore on the eval store: each memory
// is left out of the index in turn, and searched for as a proposal would be
// (heldQuery: its name and description). A memory with a labelled duplicate
// should be found held; a distinct memory should not; a newer memory that
// supersedes an older one is an update and should not be skipped either.
// The table in HeldScore's doc comes from this test's log (go test -v).
func TestHeldScoreOnEvalStore(t *testing.T) {
	dir := shareddata.Need(t, "eval", "store")
	if testing.Short() {
		t.Skip("skipping: builds an index per memory (a few seconds)")
	}
	docs, mems := loadEvalStore(t, dir)
	raw, err := os.ReadFile(shareddata.Path("eval", "store-labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var labels struct {
		Identical [][2]string `json:"identical_dupes"`
		Near      [][2]string `json:"near_dupes"`
		Supersede []struct {
			Newer, Older string
		} `json:"supersedes"`
		Traps []struct{ A, B string } `json:"false_contradictions"`
	}
	if err := json.Unmarshal(raw, &labels); err != nil {
		t.Fatal(err)
	}
	group := map[string]string{} // slug → kind; unlabelled memories are distinct
	for _, p := range labels.Identical {
		group[p[0]], group[p[1]] = "reworded duplicates", "reworded duplicates"
	}
	for _, p := range labels.Near {
		group[p[0]], group[p[1]] = "near duplicates", "near duplicates"
	}
	for _, s := range labels.Supersede {
		group[s.Newer] = "updates"
	}
	for _, p := range labels.Traps {
		group[p.A], group[p.B] = "related, not the same", "related, not the same"
	}
	// A memory already written (an earlier capture of the same session,
	// PreCompact then SessionEnd) is found as itself.
	whole := search.Build(docs)
	self := 0
	for _, d := range docs {
		m := mems[d.Slug]
		rs := whole.Search(search.ParseQuery(heldQuery(Proposal{Name: m.Name, Description: m.Description}), ""), search.Options{Limit: 1})
		if len(rs) > 0 && rs[0].Slug == d.Slug && rs[0].Score >= HeldScore {
			self++
		}
	}
	t.Logf("a memory searched by its own name and description: held %d/%d", self, len(docs))
	if self*100 < len(docs)*95 {
		t.Errorf("only %d of %d memories are held when proposed again as they are", self, len(docs))
	}

	scores := map[string][]float64{}
	for i, d := range docs {
		rest := append(append([]search.Doc(nil), docs[:i]...), docs[i+1:]...)
		ix := search.Build(rest)
		m := mems[d.Slug]
		best := 0.0
		if rs := ix.Search(search.ParseQuery(heldQuery(Proposal{Name: m.Name, Description: m.Description}), ""), search.Options{All: true, Limit: 1}); len(rs) > 0 {
			best = rs[0].Score
		}
		g := group[d.Slug]
		if g == "" {
			g = "distinct"
		}
		scores[g] = append(scores[g], best)
	}
	for _, g := range []string{"distinct", "reworded duplicates", "updates"} {
		if len(scores[g]) == 0 {
			// The checks below count within these groups: empty, they pass.
			t.Fatalf("no %s memories in %s and its labels", g, dir)
		}
	}
	over := func(g string, bar float64) int {
		n := 0
		for _, s := range scores[g] {
			if s >= bar {
				n++
			}
		}
		return n
	}
	groups := []string{"distinct", "reworded duplicates", "near duplicates", "updates", "related, not the same"}
	t.Logf("skipped as held, per bar:")
	for _, bar := range []float64{2 * search.DefaultThreshold, 0.6, 0.7, 0.75, HeldScore} {
		var row []string
		for _, g := range groups {
			row = append(row, fmt.Sprintf("%s %d/%d", g, over(g, bar), len(scores[g])))
		}
		t.Logf("  %.2f  %s", bar, strings.Join(row, ", "))
	}
	if n, all := over("distinct", HeldScore), len(scores["distinct"]); n*100 > all*3 {
		t.Errorf("HeldScore skips %d of %d distinct memories (more than 3%%)", n, all)
	}
	if n := over("updates", HeldScore); n > 1 {
		t.Errorf("HeldScore skips %d updates of a stale fact", n)
	}
	if n, all := over("reworded duplicates", HeldScore), len(scores["reworded duplicates"]); n*2 < all {
		t.Errorf("HeldScore catches only %d of %d reworded duplicates", n, all)
	}
}

// loadEvalStore builds Docs as the product's indexer does (indexer.Doc).
func loadEvalStore(t *testing.T, dir string) ([]search.Doc, map[string]*mdparse.Memory) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var docs []search.Doc
	mems := map[string]*mdparse.Memory{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") || e.Name() == "MEMORY.md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := mdparse.Parse(e.Name(), data)
		if err != nil || m.Status == mdparse.StatusForgotten {
			continue
		}
		slug := strings.TrimSuffix(e.Name(), ".md")
		mems[slug] = m
		docs = append(docs, m.Document(slug, ".claude/agent-memory/"+e.Name(), "project"))
	}
	return docs, mems
}
