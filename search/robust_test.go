package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// smallStores judges p on small stores cut at random from the dev store:
// each holds size memories, and is met with the dev prompts whose memory it
// holds, the dev battery's silence prompts and the prompts of other
// projects. A small store's idf differs from a large one's, and the dev
// battery alone cannot show what a rule does to a new user's store.
func smallStores(t *testing.T, p params, size, rounds int) smallMetrics {
	shareddata.Need(t)
	cases := loadBattery(t, shareddata.Path("eval", "battery-dev.jsonl"))
	docs := loadStore(t, shareddata.Path("eval", "store"), "project")
	foreignCases := foreignPrompts(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var topical, quietN float64
	var h2, quiet, fq, fn, prec float64
	score := 0
	for range rounds {
		pick := slices.Clone(docs)
		rng.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
		pick = pick[:size]
		has := map[string]bool{}
		for _, d := range pick {
			has[d.Slug] = true
		}
		var in []battCase
		var nt, ns float64
		for _, c := range cases {
			switch {
			case len(c.Expect) == 0:
				ns++
			case slices.ContainsFunc(c.Expect, func(s string) bool { return has[s] }):
				nt++
			default:
				continue
			}
			in = append(in, c)
		}
		ix := Build(pick)
		m := measure(ix, in, &p)
		topical += nt
		h2 += m.hit2 * nt
		quiet += m.silence * ns
		quietN += ns
		prec += m.precision // a mean over the stores
		score += m.score
		f := measure(ix, foreignCases, &p)
		fq += f.silence * float64(len(foreignCases))
		fn += float64(len(foreignCases))
	}
	if topical == 0 || quietN == 0 || fn == 0 {
		t.Fatalf("stores of %d memories met %v topical, %v silence and %v foreign prompts: nothing to measure", size, topical, quietN, fn)
	}
	return smallMetrics{metrics{hit2: h2 / topical, silence: quiet / quietN, precision: prec / float64(rounds), score: score}, fq / fn}
}

// TestSmallStoresSilentOnOtherProjects: a store of 25 memories cannot tell
// a generic word from a topical one by idf, yet meets prompts typed on other
// projects with silence and still finds its memories for the dev prompts
// about them. The floors are below what the method measured when it was
// last changed (0.90 and 0.87; silence 0.76 without the unseen-word rule).
func TestSmallStoresSilentOnOtherProjects(t *testing.T) {
	m := smallStores(t, defaults, 25, 20)
	t.Logf("25-memory stores: hit@2 %.2f, silence %.2f, silence on prompts of other projects %.2f", m.hit2, m.silence, m.foreign)
	if m.foreign < 0.85 {
		t.Errorf("silence on prompts of other projects = %.2f, want >= 0.85", m.foreign)
	}
	if m.hit2 < 0.8 {
		t.Errorf("hit@2 = %.2f, want >= 0.80", m.hit2)
	}
}

// smallMetrics are the dev battery's measures over many small stores, and
// silence on prompts of other projects.
type smallMetrics struct {
	metrics
	foreign float64
}

// withPastedLog returns cases with a log of n lines pasted under each prompt,
// in a fence as people paste them: timestamps, request ids, durations and
// paths that change from line to line, words that repeat. A pasted log
// carries the prompt's topic only through the prose around it; the rest is
// noise that a query must not drown in.
func withPastedLog(cases []battCase, n int) []battCase {
	rng := rand.New(rand.NewPCG(3, 4))
	levels := []string{"INFO", "INFO", "INFO", "WARN", "ERROR"}
	msgs := []string{"request handled", "retrying upstream call", "cache miss", "slow query", "connection reset by peer", "context deadline exceeded"}
	var log strings.Builder
	log.WriteString("\n```\n")
	for range n {
		fmt.Fprintf(&log, "2026-11-%02dT%02d:%02d:%02d.%03dZ %s [%s] req=%08x path=/api/v%d/items/%d status=%d dur=%dms\n",
			1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000), levels[rng.IntN(len(levels))],
			msgs[rng.IntN(len(msgs))], rng.Uint32(), 1+rng.IntN(3), rng.IntN(100000), []int{200, 200, 201, 404, 500}[rng.IntN(5)], rng.IntN(3000))
	}
	log.WriteString("```\n")
	return perturbed(cases, "", log.String())
}

// TestPromptShapesOnDevBattery: with a log, a stack trace or a diff pasted
// under every dev prompt, or politeness around it, the right memory is
// still among the first two about as often as without (0.72), and the
// silence prompts stay silent but for those with a diff, which inject what
// the diff is about. The floors are below what the method measured when it
// was last changed: hit@2 0.68, 0.64, 0.64, 0.72 (before, 0.04, 0.22, 0.34,
// 0.62); silence 1.00 but 0.60 with a diff.
func TestPromptShapesOnDevBattery(t *testing.T) {
	ix, cases := devIndex(t)
	type shape struct {
		name          string
		cases         []battCase
		hit2, silence float64
	}
	shapes := []shape{{"a 40-line log", withPastedLog(cases, 40), 0.64, 1}}
	for _, v := range perturbations {
		if v.hit2 > 0 {
			shapes = append(shapes, shape{v.name, perturbed(cases, v.before, v.after), v.hit2, v.silence})
		}
	}
	for _, c := range shapes {
		m := measure(ix, c.cases, &defaults)
		t.Logf("dev battery with %s: %s", c.name, m)
		if m.hit2 < c.hit2 || m.silence < c.silence {
			t.Errorf("with %s: hit@2 = %.2f, silence = %.2f; want >= %.2f and %.2f", c.name, m.hit2, m.silence, c.hit2, c.silence)
		}
	}
}

// perturbations are what people put around a question: a stack trace or a
// diff pasted without a fence, a one-line JSON response, politeness, an
// image marker and a URL. Each is applied to every dev prompt; what it
// costs is how much of the method's answer depends on the prompt's shape
// rather than its topic. TestPromptShapesOnDevBattery holds the dev battery
// to the floors given (hit@2 and silence); those without are measured by
// TestTuneAll only.
var perturbations = []struct {
	name, before, after string
	hit2, silence       float64
}{
	{"bare Python traceback", "", "\nTraceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.12/site-packages/celery/app/trace.py\", line 453, in trace_task\n    R = retval = fun(*args, **kwargs)\n" +
		"  File \"/srv/app/tasks/sync.py\", line 88, in run_sync\n    result = client.fetch_batch(cursor=cursor, limit=500)\n" +
		"  File \"/srv/app/clients/http.py\", line 142, in fetch_batch\n    resp.raise_for_status()\n" +
		"requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: http://10.0.3.17:8080/v1/batch\n", 0.60, 1},
	{"bare diff", "", "\ndiff --git a/src/components/Button.tsx b/src/components/Button.tsx\nindex 3b18e51..a9f4c2d 100644\n" +
		"--- a/src/components/Button.tsx\n+++ b/src/components/Button.tsx\n" +
		"@@ -12,9 +12,11 @@ export function Button({ variant = \"primary\", size = \"md\", ...props }: ButtonProps) {\n" +
		"-  const cls = clsx(\"btn\", `btn-${variant}`, `btn-${size}`);\n" +
		"+  const cls = clsx(\"btn\", `btn-${variant}`, `btn-${size}`, props.disabled && \"btn-disabled\");\n" +
		"+  if (props.loading) {\n+    return <Spinner size={size} />;\n+  }\n   return <button className={cls} {...props} />;\n }\n", 0.60, 0.56},
	{"JSON response", "", "\n{\"id\": \"obj_1Q8xLm2\", \"object\": \"list\", \"data\": [{\"id\": 4412, \"name\": \"alpha\", \"enabled\": true, " +
		"\"created\": 1732870000, \"tags\": [\"a\", \"b\"]}], \"has_more\": false, \"url\": \"/v1/items\"}\n", 0, 0},
	{"politeness", "Hey Claude, hope you're doing well! Quick question for you: ", " Thanks so much, really appreciate it!", 0.68, 1},
	{"image and URL", "[Image #1] ", " see https://github.com/acme/widgets/pull/1234 for context", 0, 0},
}

func perturbed(cases []battCase, before, after string) []battCase {
	out := make([]battCase, len(cases))
	for i, c := range cases {
		c.Prompt = before + c.Prompt + after
		out[i] = c
	}
	return out
}
