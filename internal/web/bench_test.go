//go:build unix

package web

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mem-dev/mem"
)

// BenchmarkMemoriesPage draws the memories page of a 10,000-memory store:
// the list (its first page, with every facet counted over all 10,000) and
// a search with the threshold toggle on. The budget is 100 ms of server
// time. MEM_BENCH_CORPUS names a directory of memories to use instead of
// the generated ones, e.g. one that ../shared/bench/gencorpus.py made:
//
//	python3 ../shared/bench/gencorpus.py ../shared/eval/store /tmp/corpus10k 10000
//	MEM_BENCH_CORPUS=/tmp/corpus10k go test ./internal/web -run '^$' -bench MemoriesPage -benchtime 20x
func BenchmarkMemoriesPage(b *testing.B) {
	dir := b.TempDir()
	git(b, dir, "init", "-q")
	repo, _, err := mem.Init(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	if src := os.Getenv("MEM_BENCH_CORPUS"); src != "" {
		entries, err := os.ReadDir(src)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			write(b, filepath.Join(repo.Place.Store, e.Name()), string(data))
		}
	} else {
		generate(b, repo.Place.Store, 10000)
	}
	git(b, dir, "add", "-A")
	git(b, dir, "commit", "-q", "-m", "corpus")
	ix, err := repo.Index(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	n := ix.Len()
	ix.Close()
	f := newFixtureServer(b, dir, repo)
	for _, c := range []struct{ name, target string }{
		{"list", "/"},
		{"filtered", "/?class=gotcha&age=365d"},
		{"search", "/?q=" + strings.ReplaceAll("why does the deploy fail on staging after the migration", " ", "+") + "&below=1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(n), "memories")
			// CPU time as well as wall time: on a shared machine the wall
			// clock also counts other processes' turns.
			start := cpuTime()
			for b.Loop() {
				w := f.do("GET", c.target, nil)
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", c.target, w.Code)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// generate writes n memories of Zipf-distributed words, as gencorpus.py
// does, for when no corpus is given.
func generate(b *testing.B, store string, n int) {
	words := strings.Fields(`deploy staging migration checkout vat rounding order line total cent payment invoice
customer stripe webhook retry queue worker redis cache index search token session login oauth cookie header proxy
nginx docker compose kubernetes pod helm chart release branch main merge rebase commit hook test fixture table mock
database postgres alembic schema column enum constraint foreign key timeout latency metric alert pager oncall runbook
feature flag rollout canary rollback config env secret vault key rotate cert tls domain dns email template render
frontend react component state store reducer api endpoint route handler middleware auth role permission admin audit
log trace span error panic crash memory leak cpu profile benchmark build ci pipeline cache artifact lint format`)
	rnd := rand.New(rand.NewPCG(7, 7))
	pick := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = words[int(float64(len(words))*rnd.Float64()*rnd.Float64())]
		}
		return strings.Join(out, " ")
	}
	classes := []string{"rule", "fact", "event", "gotcha", "reference", "procedure", "preference", "decision"}
	if err := os.MkdirAll(store, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		var body strings.Builder
		for range 2 + rnd.IntN(10) {
			body.WriteString(pick(6+rnd.IntN(12)) + ".\n")
		}
		data := fmt.Sprintf("---\nname: %s\ndescription: %s\nclass: %s\nimportance: %d\nmodified: 2026-%02d-%02dT12:00:00Z\ntags: [%s, %s]\n---\n%s",
			pick(3+rnd.IntN(5)), pick(6+rnd.IntN(8)), classes[rnd.IntN(len(classes))], 3+rnd.IntN(6), 1+rnd.IntN(11), 1+rnd.IntN(28),
			words[rnd.IntN(40)], words[rnd.IntN(40)], body.String())
		if err := os.WriteFile(filepath.Join(store, fmt.Sprintf("m%06d.md", i)), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
