// Command alternate times commands in strict alternation and prints each
// one's median. hyperfine times one command's runs as a block, so drift on a
// shared machine (another process waking up, a frequency change) lands on
// whichever command was running; alternating spreads it over all of them.
// It execs directly, so no shell is timed, unless -shell runs each COMMAND
// through sh -c, as Claude Code runs a hook's command from settings.json.
//
//	alternate [-rounds N] [-prepare COMMAND] [-json FILE] [-shell] NAME=STDIN=COMMAND [ARGS...] ...
//
// Ratios are against the first command; -json writes the same table as a
// JSON array for a script to read. Beside wall time it prints each
// command's median CPU time (user and system) and, where the platform
// reports them, minor page faults: in a process that lives a millisecond
// or two, first touches of memory are a large and steady share of the cost.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

type spec struct {
	name, stdin string
	argv        []string
	ms, cpu     []float64
	faults      []int64
}

func main() {
	rounds := flag.Int("rounds", 200, "runs of each command")
	warmup := flag.Int("warmup", 10, "untimed rounds first")
	prepare := flag.String("prepare", "", "a command run, untimed, before each run (split on spaces, like COMMAND)")
	jsonOut := flag.String("json", "", "also write the table to this file as JSON")
	shell := flag.Bool("shell", false, "run each COMMAND through sh -c")
	flag.Parse()
	var specs []*spec
	for _, a := range flag.Args() {
		parts := strings.SplitN(a, "=", 3)
		if len(parts) != 3 || strings.TrimSpace(parts[2]) == "" {
			fmt.Fprintf(os.Stderr, "alternate: %q is not NAME=STDIN=COMMAND\n", a)
			os.Exit(2)
		}
		argv := strings.Fields(parts[2])
		if *shell {
			argv = []string{"sh", "-c", parts[2]}
		}
		specs = append(specs, &spec{name: parts[0], stdin: parts[1], argv: argv})
	}
	if len(specs) == 0 {
		fmt.Fprintln(os.Stderr, "usage: alternate [-rounds N] NAME=STDIN=COMMAND ...")
		os.Exit(2)
	}
	prep := strings.Fields(*prepare)
	for i := 0; i < *warmup+*rounds; i++ {
		for _, s := range specs {
			if len(prep) > 0 {
				if out, err := exec.Command(prep[0], prep[1:]...).CombinedOutput(); err != nil {
					fmt.Fprintf(os.Stderr, "alternate: -prepare: %v\n%s", err, out)
					os.Exit(1)
				}
			}
			d, ps, err := run(s)
			if err != nil {
				fmt.Fprintf(os.Stderr, "alternate: %s: %v\n", s.name, err)
				os.Exit(1)
			}
			if i >= *warmup {
				s.ms = append(s.ms, d)
				s.cpu = append(s.cpu, float64((ps.UserTime()+ps.SystemTime()).Microseconds())/1000)
				s.faults = append(s.faults, minorFaults(ps))
			}
		}
	}
	base := median(specs[0].ms)
	var rows []row
	fmt.Printf("%-16s %9s %9s %9s %8s %9s %7s\n", "command", "median", "p25", "p75", "ratio", "cpu", "faults")
	for _, s := range specs {
		slices.Sort(s.ms)
		n := len(s.ms)
		r := row{s.name, s.ms[n/2], s.ms[n/4], s.ms[3*n/4], s.ms[n/2] / base, median(s.cpu), median(s.faults)}
		rows = append(rows, r)
		fmt.Printf("%-16s %6.2f ms %6.2f ms %6.2f ms %7.2fx %6.2f ms %7d\n", r.Name, r.Median, r.P25, r.P75, r.Ratio, r.CPU, r.Faults)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(rows, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "alternate: %v\n", err)
			os.Exit(1)
		}
	}
}

// row is one command's line of the table, in milliseconds.
type row struct {
	Name   string  `json:"name"`
	Median float64 `json:"median_ms"`
	P25    float64 `json:"p25_ms"`
	P75    float64 `json:"p75_ms"`
	Ratio  float64 `json:"ratio"`
	CPU    float64 `json:"cpu_ms"`
	Faults int64   `json:"faults"`
}

func run(s *spec) (float64, *os.ProcessState, error) {
	in, err := os.Open(s.stdin)
	if err != nil {
		return 0, nil, err
	}
	defer in.Close()
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdin = in
	start := time.Now()
	err = cmd.Run()
	return float64(time.Since(start).Microseconds()) / 1000, cmd.ProcessState, err
}

func median[T int64 | float64](xs []T) T {
	c := slices.Clone(xs)
	slices.Sort(c)
	return c[len(c)/2]
}
