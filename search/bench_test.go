package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mem-dev/mem/internal/shareddata"
)

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs fn b.N times and also reports CPU time per op, which a busy
// machine does not inflate the way it inflates wall time.
func loop(b *testing.B, fn func()) {
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		fn()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// corpus generates a synthetic store of n memories with the shared
// generator, in a directory removed when the benchmark ends.
func corpus(b *testing.B, n int) string {
	shareddata.Need(b)
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("skipping: python3 is needed to generate the corpus")
	}
	dir := b.TempDir()
	out, err := exec.Command("python3", shareddata.Path("bench", "gencorpus.py"),
		shareddata.Path("external", "memory-files"), dir, itoa(n)).CombinedOutput()
	if err != nil {
		b.Fatalf("gencorpus: %v\n%s", err, out)
	}
	return dir
}

func itoa(n int) string { return fmtInt(n) }

func BenchmarkBuild500(b *testing.B) {
	docs := loadStore(b, corpus(b, 500), "project")
	loop(b, func() { Build(docs) })
}

func BenchmarkBuild10k(b *testing.B) {
	docs := loadStore(b, corpus(b, 10000), "project")
	loop(b, func() { Build(docs) })
}

const benchPrompt = "the release config path keeps failing in the deploy hook, can you check the server timeout setting and the data file"

func benchOpenAndSearch(b *testing.B, n int) {
	docs := loadStore(b, corpus(b, n), "project")
	path := filepath.Join(b.TempDir(), "index")
	if err := Build(docs).WriteFile(path, nil); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/1e6, "MB-cache")
	loop(b, func() {
		ix, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ix.Search(ParseQuery(benchPrompt, ""), Options{All: true})
		ix.Close()
	})
}

func BenchmarkOpenAndSearch500(b *testing.B) { benchOpenAndSearch(b, 500) }
func BenchmarkOpenAndSearch10k(b *testing.B) { benchOpenAndSearch(b, 10000) }

// A long prompt (pasted log, URL, image marker, path) and a previous turn
// with prose, a code block and markup, as the hook meets them.
const (
	benchLongPrompt = "ok so two things. first, after I merged https://github.com/acme/shop/pull/412 the nightly job started failing again, here is the log:\n" +
		"```\n2026-11-20T03:12:09Z ERROR worker.go:88 release pipeline: timeout after 30s waiting for server config (retry 3/3)\n" +
		"2026-11-20T03:12:09Z WARN  data file cache/state.json is stale, rebuilding\n```\n" +
		"[Image #1] shows the dashboard at that time. second, can you look at src/deploy/hooks/pre_release.py and figure out why the server timeout setting is ignored when the env var is set, and whether the data file path in the config is relative to the repo root or the working directory? dont change the public API, and please keep the fix small so we can backport it to the 2.x branch"
	benchPrevious = "I've updated the release workflow so that the **nightly build** waits for the config server before it starts.\n\n" +
		"### What changed\n- `deploy/hooks/pre_release.py`: the timeout now reads `SERVER_TIMEOUT` from the environment, falling back to 30 seconds.\n" +
		"- `cache/state.json` is rebuilt only when its checksum differs, instead of on every run.\n\n" +
		"```python\ndef server_timeout(env):\n    return int(env.get(\"SERVER_TIMEOUT\", \"30\"))\n```\n\n" +
		"I ran the unit tests (`pytest tests/deploy -q`: 42 passed) and a dry run of the pipeline against staging. Let me know if you want the retry count raised as well, or the log level lowered for the stale-cache warning."
)

// A long prompt has topic enough: the previous turn is not read.
func BenchmarkParseQueryLong(b *testing.B) {
	b.ReportAllocs()
	loop(b, func() { ParseQuery(benchLongPrompt, benchPrevious) })
}

// A short prompt is refined by the previous turn.
func BenchmarkParseQueryRefined(b *testing.B) {
	b.ReportAllocs()
	loop(b, func() { ParseQuery("why is the nightly timeout ignored again?", benchPrevious) })
}
