// Command naive scores the reference prompt hook (../shared/bench/ref_fts5.py:
// SQLite FTS5, bm25, the top three of any match) on a battery, with the
// score mem eval gives mem (eval.Score), so that the two are read side by
// side. The reference sees the prompt alone, as it does in a session.
//
//	naive -ref REF_FTS5_PY -store STORE_DIR BATTERY...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mem-dev/mem/internal/eval"
)

func main() {
	ref := flag.String("ref", "", "the reference hook, ref_fts5.py")
	store := flag.String("store", "", "the store directory it indexes")
	flag.Parse()
	if *ref == "" || *store == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: naive -ref REF_FTS5_PY -store STORE_DIR BATTERY...")
		os.Exit(2)
	}
	if err := run(*ref, *store, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "naive: %v\n", err)
		os.Exit(1)
	}
}

func run(ref, store string, batteries []string) error {
	tmp, err := os.MkdirTemp("", "naive-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	db := filepath.Join(tmp, "fts.db")
	if out, err := exec.Command("python3", ref, "build", store, db).CombinedOutput(); err != nil {
		return fmt.Errorf("build the reference's database: %v\n%s", err, out)
	}
	slugs := map[string]bool{}
	mds, _ := filepath.Glob(filepath.Join(store, "*.md"))
	for _, p := range mds {
		slugs[strings.TrimSuffix(filepath.Base(p), ".md")] = true
	}
	for _, battery := range batteries {
		f, err := os.Open(battery)
		if err != nil {
			return err
		}
		cases, err := eval.ReadBattery(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", battery, err)
		}
		got := make([][]string, len(cases))
		for i, c := range cases {
			if got[i], err = injected(ref, db, c.Prompt, slugs); err != nil {
				return fmt.Errorf("%s %s: %w", battery, c.ID, err)
			}
		}
		r := eval.Score(cases, got)
		fmt.Printf("%-24s %s\n", filepath.Base(battery), r.Figures())
	}
	return nil
}

// listed is a line of the reference's context: "- <name> (<slug>): <description>".
var listed = regexp.MustCompile(` \(([^() ]+)\): `)

// injected runs the reference hook on prompt and returns the slugs it
// injects, best first. A name may hold parentheses too, so a line's slug is
// its first "(…): " that names a memory of the store.
func injected(ref, db, prompt string, slugs map[string]bool) ([]string, error) {
	in, _ := json.Marshal(map[string]string{"prompt": prompt})
	cmd := exec.Command("python3", ref, "hook", db)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil || len(strings.TrimSpace(string(out))) == 0 {
		return nil, err
	}
	var hook struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &hook); err != nil {
		return nil, err
	}
	var got []string
	for line := range strings.Lines(hook.HookSpecificOutput.AdditionalContext) {
		if !strings.HasPrefix(line, "- ") {
			continue
		}
		for _, m := range listed.FindAllStringSubmatch(line, -1) {
			if slugs[m[1]] {
				got = append(got, m[1])
				break
			}
		}
	}
	return got, nil
}
