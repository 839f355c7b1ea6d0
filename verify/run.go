package verify

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mem-dev/mem/internal/modelcmd"
	"github.com/mem-dev/mem/mdparse"
)

// Report is the outcome of a run over a set of memories.
type Report struct {
	Memories      int          `json:"memories"`
	Claims        int          `json:"claims"` // claims probed: passed + unknown + failed
	Passed        int          `json:"passed"`
	Unknown       int          `json:"unknown"`
	Failed        []Finding    `json:"failed"`
	Rejected      []Rejected   `json:"rejected"`
	PassedClaims  []Finding    `json:"passed_claims"`
	UnknownClaims []Finding    `json:"unknown_claims"`
	ModelErrors   []ModelError `json:"model_errors,omitempty"` // memories whose model extraction failed
}

// ModelError is a memory whose model extraction failed; its text claims
// were still probed.
type ModelError struct {
	Memory string `json:"memory"`
	Error  string `json:"error"`
}

// Finding is one probed claim of one memory.
type Finding struct {
	Memory string `json:"memory"`
	Kind   Kind   `json:"kind"`
	Arg    string `json:"arg"`
	Reason string `json:"reason"`
}

// workers is how many memories Run checks at once: URL probes and model calls
// wait on the network; git access is serialized inside the Prober.
const workers = 4

// Run extracts, validates and probes the claims of every memory (slug →
// memory). a may be nil (no model); a modelcmd.Asker with an Available() error method
// that reports an error counts as no model. progress, when not nil, is called after
// each memory with the number done and the total; calls never overlap.
// Findings are sorted by memory, then by claim kind and argument.
func Run(ctx context.Context, p *Prober, a modelcmd.Asker, memories map[string]*mdparse.Memory, progress func(done, total int)) Report {
	if av, ok := a.(interface{ Available() error }); ok && av.Available() != nil {
		a = nil // a model runner that cannot run (a nil *modelcmd.Runner means --no-model)
	}
	slugs := make([]string, 0, len(memories))
	for s := range memories {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)

	type memResult struct {
		results  []Result
		rejected []Rejected
		modelErr error
	}
	out := make([]memResult, len(slugs))
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < min(workers, max(len(slugs), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res, rej, err := check(ctx, p, a, slugs[i], memories[slugs[i]])
				out[i] = memResult{res, rej, err}
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(slugs))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range slugs {
		next <- i
	}
	close(next)
	wg.Wait()

	r := Report{
		Memories:      len(slugs),
		Failed:        []Finding{},
		Rejected:      []Rejected{},
		PassedClaims:  []Finding{},
		UnknownClaims: []Finding{},
	}
	for i, mr := range out {
		if mr.modelErr != nil {
			r.ModelErrors = append(r.ModelErrors, ModelError{Memory: slugs[i], Error: mr.modelErr.Error()})
		}
		r.Rejected = append(r.Rejected, mr.rejected...)
		for _, res := range mr.results {
			f := Finding{Memory: res.Memory, Kind: res.Claim.Kind, Arg: res.Claim.Arg, Reason: res.Reason}
			r.Claims++
			switch res.Outcome {
			case Passed:
				r.Passed++
				r.PassedClaims = append(r.PassedClaims, f)
			case Failed:
				r.Failed = append(r.Failed, f)
			default:
				r.Unknown++
				r.UnknownClaims = append(r.UnknownClaims, f)
			}
		}
	}
	for _, fs := range [][]Finding{r.Failed, r.PassedClaims, r.UnknownClaims} {
		sortFindings(fs)
	}
	return r
}

// check runs one memory: deterministic claims, then the model's, each
// validated against the repository before it is probed.
func check(ctx context.Context, p *Prober, a modelcmd.Asker, slug string, m *mdparse.Memory) ([]Result, []Rejected, error) {
	claims := Extract(m)
	var rejected []Rejected
	var modelErr error
	if a != nil && m != nil {
		mc, rej, err := ModelClaims(ctx, a, m)
		modelErr = err
		seen := map[[2]string]bool{}
		for _, c := range claims {
			seen[[2]string{string(c.Kind), c.Arg}] = true
		}
		for _, c := range mc {
			if k := [2]string{string(c.Kind), c.Arg}; !seen[k] {
				seen[k] = true
				claims = append(claims, c)
			}
		}
		for _, r := range rej {
			r.Memory = slug
			rejected = append(rejected, r)
		}
	}
	var results []Result
	for _, c := range claims {
		if err := Validate(c, p.Repo); err != nil {
			rejected = append(rejected, Rejected{Memory: slug, Claim: c.String(), Reason: err.Error()})
			continue
		}
		o, why := p.Probe(ctx, c)
		results = append(results, Result{Memory: slug, Claim: c, Outcome: o, Reason: why})
	}
	return results, rejected, modelErr
}

func sortFindings(fs []Finding) {
	rank := map[Kind]int{}
	for i, k := range Kinds {
		rank[k] = i
	}
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Memory != b.Memory {
			return a.Memory < b.Memory
		}
		if a.Kind != b.Kind {
			return rank[a.Kind] < rank[b.Kind]
		}
		return a.Arg < b.Arg
	})
}

// Labels turns failed findings into "unverified" entries, by memory slug:
// "path shop/tax.py does not exist (2026-11-21)". Each memory's entries are
// sorted and unique. Memories without a failure are absent.
func Labels(failed []Finding, date time.Time) map[string][]string {
	day := date.Format(time.DateOnly)
	out := map[string][]string{}
	for _, f := range failed {
		out[f.Memory] = append(out[f.Memory], fmt.Sprintf("%s (%s)", labelReason(f), day))
	}
	for slug, l := range out {
		slices.Sort(l)
		out[slug] = slices.Compact(l)
	}
	return out
}

// labelReason is what a label says about a failure, built from the claim so
// that the same failure always reads the same (Merge relies on it).
func labelReason(f Finding) string {
	switch f.Kind {
	case PathExists, BranchExists, CommitExists:
		return fmt.Sprintf("%s %s does not exist", noun(f.Kind), f.Arg)
	case PRMerged:
		if repo, n, err := parsePR(f.Arg); err == nil && repo == "" {
			return fmt.Sprintf("PR #%d is not merged", n)
		}
		return fmt.Sprintf("PR %s is not merged", f.Arg)
	}
	return fmt.Sprintf("%s %s failed", noun(f.Kind), f.Arg)
}

// Merge combines a memory's current "unverified" entries with a run's fresh
// ones: a failure that persists keeps the date it was first found, one that
// no longer fails is dropped, and a new one is added. The result is sorted;
// it is empty when fresh is. Apply it to every memory of a run, those without
// failures too (fresh nil), so that labels clear when claims pass again.
func Merge(current, fresh []string) []string {
	since := map[string]string{}
	for _, e := range current {
		since[labelKey(e)] = e
	}
	out := make([]string, 0, len(fresh))
	for _, e := range fresh {
		if old, ok := since[labelKey(e)]; ok {
			e = old
		}
		out = append(out, e)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// labelKey is an entry without its trailing " (date)".
func labelKey(e string) string {
	if i := strings.LastIndex(e, " ("); i > 0 && strings.HasSuffix(e, ")") {
		return e[:i]
	}
	return e
}
