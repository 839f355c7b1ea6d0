package enrich

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// MaxLearned is how many of a memory's aliases may be learned from use; the
// rest of MaxAliases stays the model's.
const MaxLearned = 4

// Why a memory needs the model's aliases (Needs).
const (
	NeedMissing = "missing" // the model never wrote aliases for it
	NeedStale   = "stale"   // its name, description or body changed since
)

// Where an alias came from (Source).
const (
	SourceModel   = "model"   // written by `mem enrich` for the memory's current text
	SourceLearned = "learned" // the words a person typed before the agent found the memory
	SourceHand    = "hand"    // in the file with no record: written by a person, or before records
)

// ReasonLearnedFull refuses a learned alias when a memory has MaxLearned.
const ReasonLearnedFull = "the memory has 4 learned aliases already"

// Fingerprint identifies what a memory's aliases were written for: a hash
// of its name, description and body (white space around the body aside).
// Metadata (tags, class, importance, labels, the aliases themselves) does
// not count: changing it does not change what a person would type.
func Fingerprint(m *mdparse.Memory) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", m.Name, m.Description)
	h.Write([]byte(strings.TrimSpace(string(m.Body))))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Needs reports why a memory needs the model's aliases, or "" when it does
// not: NeedMissing when the model never wrote any (a memory with only
// learned aliases included), NeedStale when its name, description or body
// changed since they were written. Aliases written by hand, with no record,
// are never stale. Superseded and forgotten memories need nothing.
func Needs(m *mdparse.Memory) string {
	if m.SupersededBy != "" || m.Status == mdparse.StatusForgotten {
		return ""
	}
	if m.AliasesFor == "" {
		for _, a := range m.Aliases {
			if !slices.Contains(m.LearnedAliases, a) {
				return "" // by hand
			}
		}
		return NeedMissing
	}
	if m.AliasesFor != Fingerprint(m) {
		return NeedStale
	}
	return ""
}

// Source says where one of m's aliases came from.
func Source(m *mdparse.Memory, alias string) string {
	switch {
	case slices.Contains(m.LearnedAliases, alias):
		return SourceLearned
	case m.AliasesFor != "":
		return SourceModel
	}
	return SourceHand
}

// Record writes the model's aliases (already filtered) on m for its current
// text: the learned aliases stay, first, then the model's, through Filter
// again so that the two do not repeat each other; aliases_for records the
// Fingerprint, even when no alias was kept, so that the model is not asked
// again until the memory changes. It returns the aliases m now has.
func Record(m *mdparse.Memory, model []string) ([]string, error) {
	learned := learnedOf(m)
	kept, _ := Filter(m, append(slices.Clone(learned), model...))
	learned = slices.DeleteFunc(learned, func(a string) bool { return !slices.Contains(kept, a) })
	if err := setAliases(m, kept, learned); err != nil {
		return nil, err
	}
	if err := m.Set(mdparse.KeyAliasesFor, Fingerprint(m)); err != nil {
		return nil, err
	}
	return kept, nil
}

// Learn adds alias, learned from use, to m's aliases. It passes through
// Filter with m's other aliases (so a copy of m's own words, a repeat or a
// secret is refused) and is ranked before the model's; reason says why it
// was refused ("" when it was added). At most MaxLearned are kept.
func Learn(m *mdparse.Memory, alias string) (reason string, err error) {
	learned := learnedOf(m)
	if len(learned) >= MaxLearned {
		return ReasonLearnedFull, nil
	}
	var others []string
	for _, a := range m.Aliases {
		if !slices.Contains(learned, a) {
			others = append(others, a)
		}
	}
	order := append(append(slices.Clone(learned), alias), others...)
	kept, dropped := Filter(m, order)
	if why, ok := dropped[alias]; ok {
		return why, nil
	}
	learned = append(learned, text.OneLine(alias)) // as Filter cleaned it
	learned = slices.DeleteFunc(learned, func(a string) bool { return !slices.Contains(kept, a) })
	return "", setAliases(m, kept, learned)
}

// learnedOf lists m's learned aliases that are still among its aliases.
func learnedOf(m *mdparse.Memory) []string {
	var out []string
	for _, a := range m.LearnedAliases {
		if slices.Contains(m.Aliases, a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

func setAliases(m *mdparse.Memory, aliases, learned []string) error {
	var err error
	if len(aliases) == 0 {
		err = m.Unset(mdparse.KeyAliases)
	} else {
		err = m.Set(mdparse.KeyAliases, aliases)
	}
	if err != nil {
		return err
	}
	if len(learned) == 0 {
		return m.Unset(mdparse.KeyAliasesLearned)
	}
	return m.Set(mdparse.KeyAliasesLearned, learned)
}
