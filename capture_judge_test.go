package mem_test

import "testing"

// TestJudgeKeywords holds the capture judge's reading of a label's keywords:
// a word or the start of one (a part of a snake_case name too), a lower-case word by its stem, a power or a
// sum however it is written, and a keyword of alternatives by any of them.
func TestJudgeKeywords(t *testing.T) {
	for _, c := range []struct {
		text, kw string
		want     bool
	}{
		{"run it dynamically", "dynamic", true},
		{"the noisy neighbour", "noise", true},
		{"a redirect loop", "Redis", false},
		{"limits are 1024² bytes", "1024**2", true},
		{"count rows + 2", "rows +2", true},
		{"`make test` in services/pick now pins TZ=UTC", "Makefile|make test", true},
		{"the Makefile's test target pins TZ=UTC", "Makefile|make test", true},
		{"go test by hand", "Makefile|make test", false},
		{"remake tests", "Makefile|make test", false},
		{"hl_selftest checks local hardware", "selftest", true},
		{"CONFIG_HL_SELFTEST_REQUIRE_CLOUD is off", "HL_SELFTEST_REQUIRE_CLOUD", true},
		{"the selftests pass", "test", false},
	} {
		if got := mentions(c.text, c.kw); got != c.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", c.text, c.kw, got, c.want)
		}
	}
	// A refuted claim is asserted only by a sentence that holds two of its
	// keywords and no denial.
	l := claimLabel{Keywords: []string{"acks=1|idempotence", "producer"}}
	for _, c := range []struct {
		text string
		want bool
	}{
		{"The producer runs with idempotence off, which causes the dupes.", true},
		{"It is not the producer's idempotence: the projector redelivers.", false},
		{"The projector redelivers after a rebalance.", false},
	} {
		if got := asserts(c.text, l) != ""; got != c.want {
			t.Errorf("asserts(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
