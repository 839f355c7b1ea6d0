// Command session times what a Claude Code session pays for mem: `claude -p`
// run in each of the given repositories in strict alternation, against a
// fake Messages API on loopback (internal/e2e/messagesapi) that answers
// every request at once, so what is timed is Claude Code and its hooks, not
// a model. Each run writes Claude Code's debug log, from which the hooks'
// and the MCP connection's own times are read (median per event), and the
// wait for the MCP servers to exit when the session ends (Claude Code
// 2.1.328 sends SIGINT and looks every 50 ms whether the process is gone).
// bench/session.sh sets the repositories up.
//
//	session [-rounds N] [-claude PATH] [-prompt TEXT] NAME=DIR[@BINDIR] ...
//
// The environment is the e2e suite's (internal/e2e/claudecode) but for the
// MCP connection, left to Claude Code's default (not waited for, as a user
// runs it): a home of its own per repository, nothing of the machine's
// ANTHROPIC_ variables, MEM_BACKGROUND=off (no detached pass, which would
// ask the fake API). PATH is kept, with BINDIR first when given, so the
// hooks run the mem and mem-hook found there.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/e2e/messagesapi"
)

type repo struct {
	name, dir, home string
	bin             string // put first on PATH
	ms              []float64
	phases          map[string][]float64 // debug log phase → ms per run
}

func main() {
	rounds := flag.Int("rounds", 7, "runs of each repository")
	warmup := flag.Int("warmup", 1, "untimed rounds first")
	claude := flag.String("claude", "claude", "the Claude Code binary")
	prompt := flag.String("prompt", "why are spanish orders one cent off after the VAT rounding in checkout?", "the prompt of every run")
	keep := flag.String("logs", "", "keep each run's debug log in this directory")
	ratio := flag.String("ratio", "new/base", "print the ratio of these two repositories' phases")
	flag.Parse()
	var repos []*repo
	for _, a := range flag.Args() {
		name, dir, ok := strings.Cut(a, "=")
		if !ok || dir == "" {
			fatal("%q is not NAME=DIR[@BINDIR]", a)
		}
		dir, bin, _ := strings.Cut(dir, "@")
		home, err := os.MkdirTemp("", "session-home-")
		if err != nil {
			fatal("%v", err)
		}
		defer os.RemoveAll(home)
		repos = append(repos, &repo{name: name, dir: dir, bin: bin, home: home, phases: map[string][]float64{}})
	}
	if len(repos) == 0 {
		fatal("usage: session [-rounds N] NAME=DIR[@BINDIR] ...")
	}
	api, err := messagesapi.Start(func(int, messagesapi.Request) messagesapi.Reply {
		return messagesapi.Reply{Text: "Per line."}
	})
	if err != nil {
		fatal("%v", err)
	}
	defer api.Close()
	logs, err := os.MkdirTemp("", "session-logs-")
	if err != nil {
		fatal("%v", err)
	}
	defer os.RemoveAll(logs)
	if *keep != "" {
		logs = *keep
	}
	for i := 0; i < *warmup+*rounds; i++ {
		for _, r := range repos {
			logFile := filepath.Join(logs, fmt.Sprintf("%s-%d.log", r.name, i))
			c := exec.Command(*claude, "-p", *prompt, "--permission-mode", "bypassPermissions", "--debug-file", logFile)
			c.Dir = r.dir
			c.Env = env(r.home, r.bin, api.URL)
			start := time.Now()
			out, err := c.CombinedOutput()
			d := time.Since(start)
			if err != nil {
				fatal("%s: claude -p: %v\n%s", r.name, err, out)
			}
			if i < *warmup {
				continue
			}
			r.ms = append(r.ms, float64(d.Microseconds())/1000)
			for k, v := range phases(logFile) {
				r.phases[k] = append(r.phases[k], v)
			}
		}
	}
	report(repos, *ratio)
}

// report prints the sessions' medians against the first repository's, and
// the phases of the debug log side by side, with the ratio of the two
// repositories named by ratio ("new/base") where both are there.
func report(repos []*repo, ratio string) {
	base := median(repos[0].ms)
	fmt.Printf("%-10s %10s %10s\n", "repository", "median ms", "added ms")
	for _, r := range repos {
		fmt.Printf("%-10s %10.1f %+10.1f\n", r.name, median(r.ms), median(r.ms)-base)
	}
	byName := map[string]*repo{}
	keys := map[string]bool{}
	for _, r := range repos {
		byName[r.name] = r
		for k := range r.phases {
			keys[k] = true
		}
	}
	num, den, _ := strings.Cut(ratio, "/")
	a, b := byName[num], byName[den]
	fmt.Printf("\nfrom Claude Code's debug log, median ms per session:\n%-20s", "phase")
	for _, r := range repos {
		fmt.Printf(" %9s", r.name)
	}
	if a != nil && b != nil {
		fmt.Printf(" %9s", ratio)
	}
	fmt.Println()
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		fmt.Printf("%-20s", k)
		for _, r := range repos {
			if v, ok := r.phases[k]; ok {
				fmt.Printf(" %9.1f", median(v))
			} else {
				fmt.Printf(" %9s", "-")
			}
		}
		if a != nil && b != nil && len(a.phases[k]) > 0 && len(b.phases[k]) > 0 {
			fmt.Printf(" %9.2f", median(a.phases[k])/median(b.phases[k]))
		}
		fmt.Println()
	}
}

func env(home, bin, url string) []string {
	path := os.Getenv("PATH")
	if bin != "" {
		path = bin + string(os.PathListSeparator) + path
	}
	return []string{
		"PATH=" + path,
		"HOME=" + home,
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@example.com",
		"ANTHROPIC_BASE_URL=" + url,
		"ANTHROPIC_API_KEY=sk-test",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"IS_SANDBOX=1",
		"MEM_BACKGROUND=off",
	}
}

// Lines of Claude Code's debug log (2.1.328) that time a phase: a hook's
// "Hooks: Stop [COMMAND] finished with status 0 (64ms)", an MCP server's
// "MCP server "mem": Successfully connected (transport: stdio) in 32ms";
// and the two that bound an MCP server's exit, timed by their stamps.
var (
	hookDone = regexp.MustCompile(`Hooks: (\w+)(?::\w+)? \[.*\] finished with status \d+ \((\d+)ms\)`)
	mcpDone  = regexp.MustCompile(`MCP server "([^"]+)": Successfully connected .* in (\d+)ms`)
	mcpStop  = regexp.MustCompile(`^(\S+) .*MCP server "([^"]+)": Sending SIGINT`)
	mcpGone  = regexp.MustCompile(`^(\S+) .*MCP server "([^"]+)": MCP server process exited`)
)

// phases reads the hooks' and MCP servers' times from one debug log.
func phases(path string) map[string]float64 {
	out := map[string]float64{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	stopped := map[string]time.Time{} // MCP server → when SIGINT was sent
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := hookDone.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[2], 64); err == nil {
				out[m[1]] += v // a hook that runs twice in a session counts twice
			}
		} else if m := mcpDone.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[2], 64); err == nil {
				out["MCP "+m[1]+" connect"] += v
			}
		} else if m := mcpStop.FindStringSubmatch(line); m != nil {
			if t, err := time.Parse(time.RFC3339Nano, m[1]); err == nil {
				stopped[m[2]] = t
			}
		} else if m := mcpGone.FindStringSubmatch(line); m != nil {
			if t, err := time.Parse(time.RFC3339Nano, m[1]); err == nil && !stopped[m[2]].IsZero() {
				out["MCP "+m[2]+" exit"] += float64(t.Sub(stopped[m[2]]).Microseconds()) / 1000
			}
		}
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "session: "+format+"\n", args...)
	os.Exit(1)
}
