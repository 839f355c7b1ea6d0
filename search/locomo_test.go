package search

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// locomoSample is the part of one LoCoMo sample (../shared/external/locomo,
// CC BY-NC 4.0, read as test input only) that the retrieval measure needs.
type locomoSample struct {
	ID          string                                     `json:"sample_id"`
	Observation map[string]map[string][][2]json.RawMessage `json:"observation"`
	QA          []struct {
		Question string   `json:"question"`
		Evidence []string `json:"evidence"`
		Category int      `json:"category"`
	} `json:"qa"`
}

// locomoStore is one LoCoMo conversation as a store: each generated
// observation (a short fact about a speaker, citing the dialog turn it came
// from) is a memory, and each answerable question whose evidence some
// observation cites is a prompt that expects those observations.
type locomoStore struct {
	id    string
	docs  []Doc
	cases []battCase
}

func loadLocomo(t testing.TB) []locomoStore {
	shareddata.Need(t)
	data, err := os.ReadFile(shareddata.Path("external", "locomo", "locomo10.json"))
	if err != nil {
		t.Fatal(err)
	}
	var samples []locomoSample
	if err := json.Unmarshal(data, &samples); err != nil {
		t.Fatal(err)
	}
	var stores []locomoStore
	for _, s := range samples {
		st := locomoStore{id: s.ID}
		cites := map[string][]string{} // dialog turn → slugs of the observations citing it
		for session, bySpeaker := range s.Observation {
			for speaker, facts := range bySpeaker {
				for i, f := range facts {
					var text, ev string
					if json.Unmarshal(f[0], &text) != nil {
						continue
					}
					slug := fmt.Sprintf("%s-%s-%d", session, strings.ToLower(speaker), i)
					st.docs = append(st.docs, Doc{Slug: slug, Name: text, Class: "fact", Importance: 5})
					// The evidence is a turn id or, rarely, a list of them.
					var evs []string
					if json.Unmarshal(f[1], &ev) == nil {
						evs = strings.FieldsFunc(ev, func(r rune) bool { return r == ',' || r == ';' || r == ' ' })
					} else {
						json.Unmarshal(f[1], &evs)
					}
					for _, e := range evs {
						cites[e] = append(cites[e], slug)
					}
				}
			}
		}
		slices.SortFunc(st.docs, func(a, b Doc) int { return strings.Compare(a.Slug, b.Slug) })
		for i, q := range s.QA {
			if q.Category == 5 { // adversarial: asks what the conversation never said
				continue
			}
			var expect []string
			for _, e := range q.Evidence {
				expect = append(expect, cites[e]...)
			}
			if len(expect) > 0 {
				st.cases = append(st.cases, battCase{ID: fmt.Sprintf("%s-q%d", s.ID, i), Prompt: q.Question, Expect: expect})
			}
		}
		stores = append(stores, st)
	}
	return stores
}

// locomoMetrics sums measure over every conversation: its own questions,
// and, as prompts that must stay silent, a sample of the other
// conversations' questions (about other people's lives).
type locomoMetrics struct {
	topical, silent            int
	rank2, hit1, hit2, silence float64
}

func measureLocomo(stores []locomoStore, p *params) locomoMetrics {
	var lm locomoMetrics
	for i, st := range stores {
		ix := Build(st.docs)
		own := measure(ix, st.cases, p)
		n := float64(len(st.cases))
		lm.topical += len(st.cases)
		lm.rank2 += own.rank2 * n
		lm.hit1 += own.hit1 * n
		lm.hit2 += own.hit2 * n
		other := stores[(i+1)%len(stores)]
		var foreign []battCase
		for j, c := range other.cases {
			if j%3 == 0 {
				foreign = append(foreign, battCase{ID: c.ID, Prompt: c.Prompt})
			}
		}
		f := measure(ix, foreign, p)
		lm.silent += len(foreign)
		lm.silence += f.silence * float64(len(foreign))
	}
	t := float64(max(1, lm.topical))
	lm.rank2, lm.hit1, lm.hit2 = lm.rank2/t, lm.hit1/t, lm.hit2/t
	lm.silence /= float64(max(1, lm.silent))
	return lm
}

func (m locomoMetrics) String() string {
	return fmt.Sprintf("%d questions: rank@2 %.2f hit@1 %.2f hit@2 %.2f | silence on %d of other conversations %.2f",
		m.topical, m.rank2, m.hit1, m.hit2, m.silent, m.silence)
}

// TestLocomo holds the method to what it measured on a public benchmark it
// was not tuned on (ten stores of about 250 facts, 1,307 questions; see
// "A public benchmark" in doc.go): it finds and stays quiet there as it did
// when the floors were set.
func TestLocomo(t *testing.T) {
	m := measureLocomo(loadLocomo(t), &defaults)
	t.Log(m)
	if m.hit2 < 0.42 || m.silence < 0.92 {
		t.Errorf("LoCoMo: hit@2 %.2f, silence %.2f; want at least 0.42 and 0.92", m.hit2, m.silence)
	}
}

// TestTuneLocomo prints how the threshold trades LoCoMo's hits against
// silence, and what the thesaurus, joins and coverage do there.
func TestTuneLocomo(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	stores := loadLocomo(t)
	plain := defaults
	plain.expand, plain.join, plain.cover = 0, 0, 0
	t.Logf("%-30s %s", "no thesaurus, joins, coverage", measureLocomo(stores, &plain))
	for th := 0.12; th < 0.35; th += 0.02 {
		p := defaults
		p.threshold = th
		t.Logf("threshold %.2f %s", th, measureLocomo(stores, &p))
	}
}
