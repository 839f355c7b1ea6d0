package search

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// judge logs how ranking params p do on the dev battery (at the shipped
// threshold, and at the one calibrated for p), on two stores the method was
// not tuned on (application-pipeline and bga-assistant, with prompts of our
// own), how often each of the three stores stays silent for prompts typed
// on other projects, how it does on LoCoMo (a public benchmark), how the dev
// battery does with a log pasted under every prompt and with other things
// people put around a question, and how small stores cut from the dev store
// do, so that a change is never judged on the dev battery alone.
func judge(t *testing.T, name string, p params) {
	_, cases := devIndex(t)
	dev := shareddata.Path("eval", "store")
	pipeline := shareddata.Path("external", "memory-files", "4444J99__application-pipeline", ".claude", "memory")
	bga := shareddata.Path("external", "memory-files", "AnotherSava__bga-assistant", ".claude", "memory")
	ucases := loadBattery(t, filepath.Join("..", "internal", "eval", "testdata", "application-pipeline.jsonl"))
	u2cases := loadBattery(t, filepath.Join("..", "internal", "eval", "testdata", "bga-assistant.jsonl"))
	foreign := foreignPrompts(t)
	row := func(t *testing.T, label string, load func(dir string) *Index) {
		ix, unseen, unseen2 := load(dev), load(pipeline), load(bga)
		u, u2 := measure(unseen, ucases, &p), measure(unseen2, u2cases, &p)
		t.Log(fmt.Sprintf("%-22s dev %s | cal %s | unseen h2 %.2f sil %.2f prec %.2f score %d | unseen2 h2 %.2f sil %.2f prec %.2f score %d | foreign silence dev %.2f unseen %.2f unseen2 %.2f",
			label, measure(ix, cases, &p), calibrate(ix, cases, &p), u.hit2, u.silence, u.precision, u.score,
			u2.hit2, u2.silence, u2.precision, u2.score, measure(ix, foreign, &p).silence, measure(unseen, foreign, &p).silence, measure(unseen2, foreign, &p).silence))
	}
	row(t, name, func(dir string) *Index { return Build(loadStore(t, dir, "project")) })
	// The same stores with the aliases a real model wrote for them. LoCoMo
	// has no cassette, and the shapes below are of the dev store as found.
	t.Run("enriched", func(t *testing.T) {
		row(t, name+", enriched", func(dir string) *Index { return Build(loadStore(t, enrichedStore(t, dir), "project")) })
	})
	ix, _ := devIndex(t)
	t.Logf("%-22s LoCoMo %s", "", measureLocomo(loadLocomo(t), &p))
	for _, n := range []int{10, 40, 200} {
		t.Logf("%-22s dev with a %d-line log pasted: %s", "", n, measure(ix, withPastedLog(cases, n), &p))
	}
	for _, v := range perturbations {
		t.Logf("%-22s dev with %s: %s", "", v.name, measure(ix, perturbed(cases, v.before, v.after), &p))
	}
	for _, size := range []int{10, 25, 60, 120} {
		s := smallStores(t, p, size, 40)
		t.Logf("%-22s %3d memories: hit@2 %.2f silence %.2f precision %.2f score %d | foreign silence %.2f",
			"", size, s.hit2, s.silence, s.precision, s.score, s.foreign)
	}
}

func TestTuneAll(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	judge(t, "defaults", defaults)
}
