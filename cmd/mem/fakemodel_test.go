package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// fakeModel is the model executable the scripts put behind MEM_MODEL_CMD:
// a real process that reads the prompt on stdin and answers with Claude's
// JSON envelope, so the runner's process boundary is exercised end to end.
//
// It answers a curation pair from FAKE_MODEL_LABELS (store-labels.json):
// true supersessions confidently and fully, the false-contradiction traps
// confidently but "partial", anything else "unrelated". FAKE_MODEL_ANSWER,
// when set, is returned as the answer to any prompt.
//
// FAKE_MODEL_ALIASES ("a;b") answers an enrich prompt with those aliases
// for every memory it asks about; FAKE_MODEL_CLAIMS answers a verify claims
// prompt. They come before FAKE_MODEL_ANSWER. FAKE_MODEL_MERGE answers a
// curator's merge prompt, before FAKE_MODEL_ANSWER too; without it the
// merge keeps both bodies whole and finds nothing outdated. FAKE_MODEL_FOLD
// answers a second reading of a pair (curator.FoldPrompt), before it too;
// without it the answer is two notes.
//
// FAKE_MODEL_CALLS, a file, counts the calls: each appends a line "call".
// FAKE_MODEL_FIRST, with it, is the answer to the first call alone (a
// malformed one, say), before all the others.
//
// FAKE_MODEL_GATE, a directory, makes it a model that takes as long as the
// script wants: each call touches <gate>/started and answers only once
// <gate>/release exists; a call that starts while another runs touches
// <gate>/overlap.
func fakeModel() int {
	prompt, _ := io.ReadAll(os.Stdin)
	if gate := os.Getenv("FAKE_MODEL_GATE"); gate != "" {
		running := filepath.Join(gate, "running")
		if f, err := os.OpenFile(running, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err != nil {
			os.WriteFile(filepath.Join(gate, "overlap"), nil, 0o644)
		} else {
			f.Close()
			defer os.Remove(running)
		}
		os.WriteFile(filepath.Join(gate, "started"), nil, 0o644)
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(filepath.Join(gate, "release")); err == nil {
				break
			}
		}
	}
	answer := os.Getenv("FAKE_MODEL_ANSWER")
	if a := os.Getenv("FAKE_MODEL_ALIASES"); a != "" && enrichTarget.MatchString(string(prompt)) {
		out := map[string][]string{}
		for _, m := range enrichTarget.FindAllStringSubmatch(string(prompt), -1) {
			out[m[1]] = strings.Split(a, ";")
		}
		b, _ := json.Marshal(map[string]any{"aliases": out})
		answer = string(b)
	}
	if a := os.Getenv("FAKE_MODEL_CLAIMS"); a != "" && strings.Contains(string(prompt), `{"claims":[`) {
		answer = a
	}
	if strings.Contains(string(prompt), "one note written twice or two notes") {
		answer = os.Getenv("FAKE_MODEL_FOLD")
		if answer == "" {
			answer = `{"notes":"two","keep":"","confidence":0.9,"reason":"two notes"}`
		}
	}
	if strings.Contains(string(prompt), "=== kept memory ") {
		answer = os.Getenv("FAKE_MODEL_MERGE")
		if answer == "" {
			answer = keepingBoth(string(prompt))
		}
	}
	if answer == "" {
		answer = curationVerdict(string(prompt))
	}
	if calls := os.Getenv("FAKE_MODEL_CALLS"); calls != "" {
		before, _ := os.ReadFile(calls)
		if first := os.Getenv("FAKE_MODEL_FIRST"); first != "" && len(before) == 0 {
			answer = first
		}
		f, err := os.OpenFile(calls, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, "call")
			f.Close()
		}
	}
	env, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": answer})
	fmt.Println(string(env))
	return 0
}

var mergeBody = regexp.MustCompile(`(?s)\nbody:\n(.*?)\n=== end of (?:kept|retired) memory`)

// keepingBoth answers a merge prompt with both bodies, one after the other.
func keepingBoth(prompt string) string {
	var bodies []string
	for _, m := range mergeBody.FindAllStringSubmatch(prompt, -1) {
		bodies = append(bodies, m[1])
	}
	b, _ := json.Marshal(map[string]any{"body": strings.Join(bodies, "\n\n"), "outdated": []any{}})
	return string(b)
}

// enrichTarget finds the memories an enrich prompt asks about.
var enrichTarget = regexp.MustCompile(`(?m)^\[\d+\] slug: (\S+)$`)

var pairSlug = regexp.MustCompile(`(?m)^=== memory "([^"]+)" ===$`)

func curationVerdict(prompt string) string {
	m := pairSlug.FindAllStringSubmatch(prompt, -1)
	unrelated := `{"relation":"unrelated","keep":"","retire":"","confidence":0.9,"coverage":"partial","reason":"different subjects"}`
	if len(m) != 2 {
		return unrelated
	}
	a, b := m[0][1], m[1][1]
	var labels struct {
		Supersedes []struct{ Newer, Older, Why string }
		Traps      []struct{ A, B string } `json:"false_contradictions"`
	}
	data, err := os.ReadFile(os.Getenv("FAKE_MODEL_LABELS"))
	if err == nil {
		json.Unmarshal(data, &labels)
	}
	same := func(x, y string) bool { return x == a && y == b || x == b && y == a }
	for _, s := range labels.Supersedes {
		if same(s.Newer, s.Older) {
			v, _ := json.Marshal(map[string]any{"relation": "supersedes", "keep": s.Newer, "retire": s.Older,
				"confidence": 0.9, "coverage": "full", "reason": strings.TrimSpace(s.Why)})
			return string(v)
		}
	}
	for _, t := range labels.Traps {
		if same(t.A, t.B) {
			v, _ := json.Marshal(map[string]any{"relation": "supersedes", "keep": t.B, "retire": t.A,
				"confidence": 0.9, "coverage": "partial", "reason": "looks like a replacement"})
			return string(v)
		}
	}
	return unrelated
}
