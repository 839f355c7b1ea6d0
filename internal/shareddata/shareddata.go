// Package shareddata finds the team's shared data for tests: ../shared beside
// the repository, with the evaluation store and battery, and real
// transcripts and memory files written by others. A user's fresh clone has
// none of it, so the tests that read it skip and say why.
package shareddata

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Path is elem under the shared data directory, which sits beside the
// module root.
func Path(elem ...string) string {
	return filepath.Join(append([]string{moduleRoot(), "..", "shared"}, elem...)...)
}

// moduleRoot is the first directory above the working directory (a test's
// package directory) that holds go.mod.
func moduleRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// EnrichCassetteEnv names a cassette of enrich answers to use in place of
// the recorded one, e.g. one recorded for a changed enrich prompt.
const EnrichCassetteEnv = "MEM_ENRICH_CASSETTE"

// EnrichCassette is the absolute path of the cassette of enrich answers:
// $MEM_ENRICH_CASSETTE, or the one recorded for this enrich prompt in
// internal/enrich/enrichtest/testdata (its README says how).
func EnrichCassette() (string, error) {
	if p := os.Getenv(EnrichCassetteEnv); p != "" {
		return filepath.Abs(p)
	}
	return filepath.Join(moduleRoot(), "internal", "enrich", "enrichtest", "testdata", "cassette.jsonl"), nil
}

// SecondEnrichCassette is the path of a second recording of answers to the
// same enrich prompts (internal/enrich/enrichtest/testdata/cassette-2.jsonl), and
// false when $MEM_ENRICH_CASSETTE names a recording of other prompts, which
// it would not fit.
func SecondEnrichCassette() (string, bool) {
	if os.Getenv(EnrichCassetteEnv) != "" {
		return "", false
	}
	return filepath.Join(moduleRoot(), "internal", "enrich", "enrichtest", "testdata", "cassette-2.jsonl"), true
}

// Need returns Path(elem...), or skips the test when it is not there.
func Need(tb testing.TB, elem ...string) string {
	tb.Helper()
	p := Path(elem...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("skipping: %s not present (the shared data lives beside the repository, not in a clone of it)", p)
	}
	return p
}

// Transcripts lists the real Claude Code transcripts (.jsonl) in the shared
// data, in path order, or skips the test when the shared data is absent.
// Shared data without transcripts fails the test: it is not what it was.
func Transcripts(tb testing.TB) []string {
	tb.Helper()
	root := Need(tb, "external", "transcripts")
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Fatalf("no transcripts in %s", root)
	}
	return paths
}
