package curator

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mem-dev/mem/internal/text"
	"github.com/mem-dev/mem/mdparse"
)

// MinConfidence is the least confidence a verdict needs to be applied,
// whatever the classes. It was fitted on the two tuning stores' recorded
// answers (the Larkspur dev store and fernhill; never the test store): the
// lowest bar, in steps of 0.05, above every verdict there that would have
// applied a wrong decision (one, at 0.55, a procedure taken to supersede a
// fact), and fitted on either store alone it is the same. A model sure of
// the relation but not that retiring loses nothing says so with a lower
// confidence; partial coverage is the merge's to make whole, and checkMerge
// holds it.
const MinConfidence = 0.6

// minShared is how many topics, or how many entities, two memories must
// share for a verdict about them to be applied.
const minShared = 2

// Relations a Verdict may name.
const (
	RelSupersedes = "supersedes"
	RelDuplicate  = "duplicate"
	RelPartial    = "partial"
	RelUnrelated  = "unrelated"
)

// Coverages a Verdict may name.
const (
	CoverageFull    = "full"
	CoveragePartial = "partial"
)

// Guards reports whether verdict v about memories a and b may be applied
// without a person looking at it, and which checks passed and failed, each
// as a short phrase ("confidence 0.86>=0.60", "overlap: topics checkout,vat",
// "class gotcha", "coverage full"; "class fact≠decision", "coverage partial").
// ok is true only when nothing failed:
//
//   - the verdict is well formed: relation supersedes or duplicate, keep and
//     retire exactly the two slugs, confidence within 0..1;
//   - the retired memory is neither superseded already nor forgotten;
//   - confidence >= MinConfidence;
//   - real subject overlap: the two share two topics or two entities (see
//     Overlap);
//   - the same class, or compatible classes (classFit): any compatible pair
//     for most, and for a rule beside a fact and the like only a duplicate,
//     with full coverage or merged;
//   - coverage full.
func Guards(a, b Memory, v Verdict) (ok bool, passed []string, failed []string) {
	return guards(a, b, v, featuresOf(a.M), featuresOf(b.M), false)
}

// guards is Guards on features already read. merge says that the kept
// memory is to be written again with the retired one's details folded in
// (checkMerge holds the rest): coverage partial then passes.
func guards(a, b Memory, v Verdict, fa, fb *features, merge bool) (ok bool, passed, failed []string) {
	pass := func(s string, args ...any) { passed = append(passed, fmt.Sprintf(s, args...)) }
	fail := func(s string, args ...any) { failed = append(failed, fmt.Sprintf(s, args...)) }

	switch v.Relation {
	case RelSupersedes, RelDuplicate:
		pass("relation %s", v.Relation)
	case RelPartial, RelUnrelated:
		fail("relation %s", v.Relation)
	default:
		fail("relation %q unknown", v.Relation)
	}
	var retired Memory
	switch {
	case v.Keep == a.Slug && v.Retire == b.Slug && a.Slug != b.Slug:
		retired = b
	case v.Keep == b.Slug && v.Retire == a.Slug && a.Slug != b.Slug:
		retired = a
	case v.Relation == RelPartial || v.Relation == RelUnrelated:
		// no direction is expected; the relation has failed already
	default:
		fail("keep %q and retire %q are not %s and %s", text.Clip(v.Keep, 60), text.Clip(v.Retire, 60), a.Slug, b.Slug)
	}
	if retired.M != nil {
		if s := retired.M.SupersededBy; s != "" {
			fail("%s is superseded by %s already", retired.Slug, s)
		}
		if retired.M.Status == mdparse.StatusForgotten {
			fail("%s is forgotten", retired.Slug)
		}
	}

	switch c := v.Confidence; {
	case math.IsNaN(c) || c < 0 || c > 1:
		fail("confidence %v out of range", c)
	case c >= MinConfidence:
		pass("confidence %.2f>=%.2f", c, MinConfidence)
	default:
		fail("confidence %.2f<%.2f", c, MinConfidence)
	}

	o := overlapOf(fa, fb)
	if o.ok() {
		pass("overlap: %s", o)
	} else {
		fail("overlap: %s", o)
	}

	ca, cb := a.M.EffectiveClass(), b.M.EffectiveClass()
	switch fit := classFit(ca, cb); {
	case ca == cb:
		pass("class %s", ca)
	case fit == fitNever:
		fail("class %s≠%s", ca, cb)
	case fit == fitRestated && (v.Relation != RelDuplicate || v.Coverage != CoverageFull && !merge):
		fail("class %s≠%s: only a duplicate across them, in full or merged", ca, cb)
	default:
		pass("class %s~%s", ca, cb)
	}

	switch {
	case v.Coverage == CoverageFull:
		pass("coverage full")
	case v.Coverage == CoveragePartial && merge:
		pass("coverage partial, merged")
	case v.Coverage == CoveragePartial:
		fail("coverage partial")
	default:
		fail("coverage %q unknown", v.Coverage)
	}
	return len(failed) == 0, passed, failed
}

// How far two classes may be treated as one (package doc, "Classes").
type fit int

const (
	fitNever    fit = iota // never retire one for the other
	fitRestated            // only a duplicate with full coverage
	fitAny                 // as if one class
)

// classFits are the pairs of different classes that are not fitRestated,
// in either order; the package doc says why.
var classFits = map[[2]string]fit{
	{"rule", "decision"}: fitAny, {"rule", "preference"}: fitAny, {"decision", "preference"}: fitAny,
	{"fact", "gotcha"}: fitAny, {"fact", "procedure"}: fitAny, {"gotcha", "procedure"}: fitAny,
	{"fact", "reference"}: fitAny, {"decision", "fact"}: fitAny, {"event", "fact"}: fitAny,
	{"event", "rule"}: fitNever, {"event", "decision"}: fitNever, {"event", "preference"}: fitNever,
	{"event", "gotcha"}: fitNever, {"event", "procedure"}: fitNever, {"event", "reference"}: fitNever,
}

func classFit(a, b string) fit {
	if a == b {
		return fitAny
	}
	if f, ok := classFits[[2]string{a, b}]; ok {
		return f
	}
	if f, ok := classFits[[2]string{b, a}]; ok {
		return f
	}
	return fitRestated
}

// overlap is what two memories share, counted as Overlap describes.
type overlap struct {
	topics, entities []string // one representative of each group, sorted
}

func (o overlap) ok() bool { return len(o.topics) >= minShared || len(o.entities) >= minShared }

func (o overlap) String() string {
	var parts []string
	if len(o.topics) > 0 {
		parts = append(parts, "topics "+list(o.topics))
	}
	if len(o.entities) > 0 {
		parts = append(parts, "entities "+list(o.entities))
	}
	if len(parts) == 0 {
		return "nothing shared"
	}
	s := strings.Join(parts, "; ")
	if !o.ok() {
		s = "only " + s
	}
	return s
}

// overlapOf counts the subjects two memories share. Keys that name one thing
// count once: topics that are equal without hyphens ("atlas-web",
// "atlasweb"), where one is a part of the other's compound ("stripe",
// "stripe-webhook") or a prefix of four letters or more of the other
// ("postgr", "postgresql"); entities where one contains the other ("lrk-123",
// "refs: lrk-123"; a path and the code span that runs it).
func overlapOf(a, b *features) overlap {
	return overlap{
		topics: groups(shared(a.topics, b.topics), sameTopic),
		entities: groups(shared(a.entities, b.entities), func(x, y string) bool {
			return strings.Contains(x, y) || strings.Contains(y, x)
		}),
	}
}

func shared(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if b[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func sameTopic(x, y string) bool {
	if strings.ReplaceAll(x, "-", "") == strings.ReplaceAll(y, "-", "") {
		return true
	}
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(x) >= 4 && strings.HasPrefix(y, x) {
		return true
	}
	return slices.Contains(strings.Split(y, "-"), x) || slices.Contains(strings.Split(x, "-"), y)
}

// groups joins the keys that same links (transitively) and returns the
// shortest key of each group, sorted.
func groups(keys []string, same func(x, y string) bool) []string {
	parent := make([]int, len(keys))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if same(keys[i], keys[j]) {
				parent[find(j)] = find(i)
			}
		}
	}
	best := map[int]string{}
	for i, k := range keys {
		r := find(i)
		if b, ok := best[r]; !ok || len(k) < len(b) || len(k) == len(b) && k < b {
			best[r] = k
		}
	}
	out := make([]string, 0, len(best))
	for _, k := range best {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// list joins the first few keys of l by commas, each clipped.
func list(l []string) string {
	const most = 6
	var out []string
	for _, s := range l[:min(len(l), most)] {
		out = append(out, text.Clip(s, 40))
	}
	if len(l) > most {
		out = append(out, fmt.Sprintf("+%d", len(l)-most))
	}
	return strings.Join(out, ",")
}
