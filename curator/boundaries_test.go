package curator

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/modelcmd/modeltest"
)

// TestRulesOfFences: a rule file that quotes markdown in a four-backtick
// fence has no rules in the quote, and a list marker followed by a tab
// starts an item, as CommonMark reads them.
func TestRulesOfFences(t *testing.T) {
	data := "````md\n```\n- quoted deploy rule inside the example\n```\n````\n-\tNever deploy on a friday afternoon\n"
	var got []string
	for _, r := range RulesOf("CLAUDE.md", []byte(data)) {
		got = append(got, r.Source+" "+r.Text)
	}
	want := []string{"CLAUDE.md:6 Never deploy on a friday afternoon"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RulesOf = %q, want %q", got, want)
	}
}

func TestRulesOf(t *testing.T) {
	data := "# Project\r\n\r\nSome prose about deploys and reviews.\r\n- Run `make lint` before pushing\r\n" +
		"* ok\r\n```\r\n- deploy from the fenced block\r\n```\r\n<!-- - hidden rule about deploys\r\n-->\r\n" +
		"12. Squash commits before merging pull requests\r\n  - [ ] Review database migrations twice\r\n"
	var got []string
	for _, r := range RulesOf("CLAUDE.md", []byte(data)) {
		got = append(got, r.Source+" "+r.Text)
	}
	want := []string{
		"CLAUDE.md:4 Run `make lint` before pushing",
		"CLAUDE.md:11 Squash commits before merging pull requests",
		"CLAUDE.md:12 Review database migrations twice",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RulesOf:\n got %q\nwant %q", got, want)
	}
}

var (
	tabs   = mem("go-code-uses-spaces", "rule", "Go code here is indented with spaces", "gofmt is off; indentation uses four spaces", []string{"go", "style"}, "x\n")
	lint   = mem("skip-lint-on-hotfix", "procedure", "Skip lint when pushing a hotfix", "", []string{"release"}, "x\n")
	deploy = mem("friday-deploys", "rule", "No production deploys on Fridays", "", nil, "x\n")
	rules  = []Rule{
		{Source: "PROFILE.md:8", Kind: "profile", Text: "Prefers tabs over spaces for indentation"},
		{Source: "CLAUDE.md:4", Kind: "rule", Text: "Run `make lint` before pushing"},
		{Source: "CLAUDE.md:5", Kind: "rule", Text: "Always answer in English"},
	}
)

func TestBoundaryCandidates(t *testing.T) {
	retired := mem("old-lint", "procedure", "Lint before pushing", "", nil, "x\n")
	retired.M.SupersededBy = "skip-lint-on-hotfix"
	mems := []Memory{deploy, lint, retired, tabs}
	var got []string
	for _, c := range BoundaryCandidates(rules, mems) {
		got = append(got, rules[c.Rule].Source+" "+mems[c.Memory].Slug+" "+strings.Join(c.Shared, ","))
	}
	want := []string{
		"PROFILE.md:8 go-code-uses-spaces indent,space",
		"CLAUDE.md:4 skip-lint-on-hotfix lint,push",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
}

// A rule keeps its memoriesPerRule best memories, the same ones every run:
// equal scores go by slug however the terms are summed. A term more than
// maxDFShare of the memories have relates nothing.
func TestBoundaryCandidatesBestFew(t *testing.T) {
	rule := []Rule{{Source: "CLAUDE.md:1", Kind: "rule", Text: "Rebase feature branches onto main before merging"}}
	var mems []Memory
	for _, s := range []string{"d", "b", "a", "c"} {
		mems = append(mems, mem("rebase-"+s, "rule", "Rebase feature branches "+s, "merging main", nil, "x\n"))
	}
	// One more memory each for two of the terms, so the terms' weights differ.
	mems = append(mems, mem("feature-flags", "fact", "Feature flags", "", nil, "x\n"), mem("main-line", "fact", "Main line", "", nil, "x\n"))
	slugs := func(mems []Memory) string {
		var got []string
		for _, c := range BoundaryCandidates(rule, mems) {
			got = append(got, mems[c.Memory].Slug+" "+strings.Join(c.Shared, ","))
		}
		return strings.Join(got, "; ")
	}
	want := "rebase-a branch,featur,main,merg,rebas; rebase-b branch,featur,main,merg,rebas; rebase-c branch,featur,main,merg,rebas"
	for range 20 {
		if got := slugs(mems); got != want {
			t.Fatalf("candidates:\n got %s\nwant %s", got, want)
		}
	}
	// Six memories of fifty (the smallest corpus counted) is more than a
	// tenth: every shared term is too common to relate anything.
	mems = append(mems, mem("rebase-e", "rule", "Rebase feature branches e", "merging main", nil, "x\n"),
		mem("rebase-f", "rule", "Rebase feature branches f", "merging main", nil, "x\n"))
	if got := slugs(mems); got != "" {
		t.Errorf("candidates of terms too common: %s", got)
	}
}

// tensionAsker answers true for prompts that mention yes, false otherwise.
type tensionAsker struct {
	yes   string
	calls int
	err   error
}

func (a *tensionAsker) Ask(_ context.Context, prompt string, out any) error {
	a.calls++
	if a.err != nil {
		return a.err
	}
	if !strings.Contains(prompt, `"tension": true|false`) {
		return errors.New("not a tension prompt")
	}
	v := Tension{Tension: strings.Contains(prompt, a.yes), Reason: "they disagree"}
	return modeltest.Decode(v, out)
}

func TestCheckBoundaries(t *testing.T) {
	mems := []Memory{deploy, lint, tabs}
	if items, err := CheckBoundaries(context.Background(), rules, mems, nil); items != nil || err != nil {
		t.Errorf("without a model: %v, %v", items, err)
	}
	a := &tensionAsker{yes: "go-code-uses-spaces"}
	items, err := CheckBoundaries(context.Background(), rules, mems, a)
	if err != nil {
		t.Fatal(err)
	}
	if a.calls != 2 || len(items) != 1 || items[0].A != "PROFILE.md:8" || items[0].B != "go-code-uses-spaces" ||
		!strings.Contains(items[0].Reason, "profile line") || items[0].Verdict != nil {
		t.Errorf("%d calls, items %+v", a.calls, items)
	}
	_, err = CheckBoundaries(context.Background(), rules, mems, &tensionAsker{err: errors.New("boom")})
	if err == nil || !strings.Contains(err.Error(), "PROFILE.md:8 and go-code-uses-spaces") {
		t.Errorf("model error: %v", err)
	}
}
