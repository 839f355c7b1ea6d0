// Command alternate times commands in strict alternation and prints each
// one's median. hyperfine times one command's runs as a block, so drift on a
// shared machine (another process waking up, a frequency change) lands on
// whichever command was running; alternating spreads it over all of them.
// It execs directly, so no shell is timed.
//
//	alternate [-rounds N] NAME=STDIN=COMMAND [ARGS...] ...
//
// Ratios are against the first command.
package main

import (
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
	ms          []float64
}

func main() {
	rounds := flag.Int("rounds", 200, "runs of each command")
	warmup := flag.Int("warmup", 10, "untimed rounds first")
	flag.Parse()
	var specs []*spec
	for _, a := range flag.Args() {
		parts := strings.SplitN(a, "=", 3)
		if len(parts) != 3 || strings.TrimSpace(parts[2]) == "" {
			fmt.Fprintf(os.Stderr, "alternate: %q is not NAME=STDIN=COMMAND\n", a)
			os.Exit(2)
		}
		specs = append(specs, &spec{name: parts[0], stdin: parts[1], argv: strings.Fields(parts[2])})
	}
	if len(specs) == 0 {
		fmt.Fprintln(os.Stderr, "usage: alternate [-rounds N] NAME=STDIN=COMMAND ...")
		os.Exit(2)
	}
	for i := 0; i < *warmup+*rounds; i++ {
		for _, s := range specs {
			d, err := run(s)
			if err != nil {
				fmt.Fprintf(os.Stderr, "alternate: %s: %v\n", s.name, err)
				os.Exit(1)
			}
			if i >= *warmup {
				s.ms = append(s.ms, d)
			}
		}
	}
	base := median(specs[0].ms)
	fmt.Printf("%-16s %9s %9s %9s %8s\n", "command", "median", "p25", "p75", "ratio")
	for _, s := range specs {
		slices.Sort(s.ms)
		n := len(s.ms)
		fmt.Printf("%-16s %6.2f ms %6.2f ms %6.2f ms %7.2fx\n", s.name, s.ms[n/2], s.ms[n/4], s.ms[3*n/4], s.ms[n/2]/base)
	}
}

func run(s *spec) (float64, error) {
	in, err := os.Open(s.stdin)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Stdin = in
	start := time.Now()
	err = cmd.Run()
	return float64(time.Since(start).Microseconds()) / 1000, err
}

func median(ms []float64) float64 {
	c := slices.Clone(ms)
	slices.Sort(c)
	return c[len(c)/2]
}
