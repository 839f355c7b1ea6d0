package search

// Signals are what a search knows of its best result beside its score,
// for measuring decisions to speak other than the one threshold
// (Options.Signals; internal/eval fits one from them). They are the few
// things a search already computes that might say, across stores, whether
// a prompt needs a memory.
type Signals struct {
	Score    float64 // the best result's score
	Second   float64 // the second's score as a share of the best's; 0 alone
	Cover    float64 // share of the prompt's idf mass that the best's name, description and tags hold
	Phrase   bool    // an alias of the best holds two or more of the prompt's words
	Words    int     // the prompt's own terms that the store knows
	Paste    float64 // share of the prompt's own term weight that is pasted (logs, code)
	Unknown  float64 // share of the prompt's prose weight in words the store never uses
	Rivals   int     // other memories within half the best's score
	Aliases  bool    // the best result has aliases (mem enrich ran)
	Previous bool    // the query holds terms of the previous turn
}

// signals measures what the decision to speak reads of a search whose
// ranked results are top (at least one).
func (ix *Index) signals(top []scored, stats []termStat, scores, cov []float32, phrases []uint8, unseenMass float64) Signals {
	first := top[0].doc
	s := Signals{Score: top[0].score, Aliases: len(ix.aliasesOf(first)) > 0}
	if len(top) > 1 { // ranked scores are positive
		s.Second = top[1].score / top[0].score
	}
	if phrases != nil {
		s.Phrase = phrases[first] != 0
	}
	var mass, pasted, prose float64
	for _, st := range stats {
		if !st.prompt {
			s.Previous = true
			continue
		}
		if st.expansion {
			continue
		}
		s.Words++
		mass += st.weight * st.idf
		if st.written() {
			prose += st.weight
		} else {
			pasted += st.weight
		}
	}
	if mass > 0 {
		s.Cover = min(1, float64(cov[first])/mass)
	}
	if own := prose + pasted; own > 0 {
		s.Paste = pasted / own
	}
	if all := prose + unseenMass; all > 0 {
		s.Unknown = unseenMass / all
	}
	half := scores[first] / 2
	for doc, v := range scores {
		if v >= half && v > 0 && doc != first {
			s.Rivals++
		}
	}
	return s
}
