package search

import (
	"fmt"
	"path/filepath"
	"testing"
)

// unseenSets are stores the method was not tuned on, with prompts written
// for them: a change is judged on these and the dev battery together.
func unseenSets(t *testing.T) [][2]any {
	ap := filepath.Join(sharedDir, "external", "memory-files", "4444J99__application-pipeline", ".claude", "memory")
	return [][2]any{
		{Build(loadStore(t, ap, "project")), loadBattery(t, filepath.Join("..", "eval", "testdata", "application-pipeline.jsonl"))},
	}
}

// judge prints the dev battery (at its calibrated threshold and at the
// shipped one) and the unseen battery at the shipped threshold.
func judge(t *testing.T, name string, p params) {
	ix, cases := devIndex(t)
	un := unseenSets(t)
	m := measure(ix, cases, &p, false)
	u := measure(un[0][0].(*Index), un[0][1].([]battCase), &p, false)
	t.Log(fmt.Sprintf("%-22s dev %s | cal %s | unseen h2 %.2f sil %.2f prec %.2f score %d", name, m, calibrate(ix, cases, &p), u.hit2, u.silence, u.precision, u.score))
}

func TestTuneAll(t *testing.T) {
	if !*tune {
		t.Skip("diagnostics: run with -tune")
	}
	needShared(t)
	judge(t, "defaults", defaults)
}
