package search

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mem-dev/mem/internal/shareddata"
)

// The tuning diagnostics measure stores enriched the way a user's are: the
// real `mem enrich`, with a real model's recorded answers replayed through
// the shared replay command. The floors (TestDevBattery, TestUnseenStores)
// enrich in process instead; this package cannot import the enricher,
// which imports it.
var enriched struct {
	once sync.Once
	mem  string // the built binary, "" if it could not be built
	dir  string
	err  string
	done map[string]string // source store → enriched copy
	mu   sync.Mutex
}

// enrichedStore returns a copy of the store at src with the aliases `mem
// enrich` writes from the cassette (shareddata.EnrichCassette), made once per
// test binary. It skips the test when the shared data, python3 or the
// cassette's answers for this enrich prompt are missing.
func enrichedStore(t testing.TB, src string) string {
	t.Helper()
	replay := shareddata.Need(t, "cassettes", "replay")
	cassette, err := shareddata.EnrichCassette()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("skipping: the cassette replay needs python3")
	}
	enriched.once.Do(func() {
		dir, err := os.MkdirTemp("", "mem-enriched-")
		if err != nil {
			enriched.err = err.Error()
			return
		}
		enriched.dir, enriched.done = dir, map[string]string{}
		bin := filepath.Join(dir, "mem")
		if out, err := exec.Command("go", "build", "-o", bin, "../cmd/mem").CombinedOutput(); err != nil {
			enriched.err = "go build: " + err.Error() + "\n" + string(out)
			return
		}
		enriched.mem = bin
	})
	if enriched.err != "" {
		t.Fatal(enriched.err)
	}
	enriched.mu.Lock()
	defer enriched.mu.Unlock()
	if d, ok := enriched.done[src]; ok {
		return d
	}
	repo, err := os.MkdirTemp(enriched.dir, "repo-")
	if err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(repo, ".claude", "agent-memory")
	if err := os.CopyFS(store, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	run := func(name string, env []string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), append([]string{
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		}, env...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "the store as found"}} {
		if out, err := run("git", nil, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, err := run(enriched.mem, []string{"MEM_MODEL_CMD=" + replay, "MEM_CASSETTE=" + cassette}, "enrich")
	if err != nil {
		if strings.Contains(out, "replay: the cassette holds no answer") {
			t.Skip("skipping the enriched rows: the cassette was recorded for another enrich prompt (set " + shareddata.EnrichCassetteEnv + " to a recording of this one)")
		}
		t.Fatalf("mem enrich: %v\n%s", err, out)
	}
	enriched.done[src] = store
	return store
}

func TestMain(m *testing.M) {
	code := m.Run()
	if enriched.dir != "" {
		os.RemoveAll(enriched.dir)
	}
	os.Exit(code)
}

// enrichedDevIndex is the index of the dev store enriched (enrichedStore).
func enrichedDevIndex(t testing.TB) *Index {
	return Build(loadStore(t, enrichedStore(t, shareddata.Path("eval", "store")), "project"))
}
