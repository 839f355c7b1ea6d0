package enrich

import (
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem/mdparse"
)

// reparse reads m back from its bytes, as the next run would.
func reparse(t *testing.T, m *mdparse.Memory) *mdparse.Memory {
	t.Helper()
	out, err := mdparse.Parse("m.md", m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNeeds(t *testing.T) {
	recorded := func(edit func(m *mdparse.Memory)) *mdparse.Memory {
		m := vatMemory()
		if _, err := Record(m, []string{"why is my basket a cent off"}); err != nil {
			t.Fatal(err)
		}
		m = reparse(t, m)
		if edit != nil {
			edit(m)
		}
		return reparse(t, m)
	}
	set := func(key string, v any) func(*mdparse.Memory) {
		return func(m *mdparse.Memory) {
			if err := m.Set(key, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	handWritten := vatMemory()
	if err := handWritten.Set(mdparse.KeyAliases, []string{"penny short"}); err != nil {
		t.Fatal(err)
	}
	onlyLearned := vatMemory()
	if why, err := Learn(onlyLearned, "basket is a penny short"); err != nil || why != "" {
		t.Fatal(why, err)
	}
	tests := []struct {
		name string
		m    *mdparse.Memory
		want string
	}{
		{"never enriched", vatMemory(), NeedMissing},
		{"enriched for its text", recorded(nil), ""},
		{"name changed", recorded(set(mdparse.KeyName, "VAT rounds per order line in Spain")), NeedStale},
		{"description changed", recorded(set(mdparse.KeyDescription, "rounded per line")), NeedStale},
		{"body changed", recorded(func(m *mdparse.Memory) { m.Body = append(m.Body, "More.\n"...) }), NeedStale},
		{"tags changed", recorded(set(mdparse.KeyTags, []string{"tax"})), ""},
		{"labelled unverified", recorded(set(mdparse.KeyUnverified, []string{"path gone"})), ""},
		{"superseded", recorded(set(mdparse.KeySupersededBy, "other")), ""},
		{"forgotten", recorded(set(mdparse.KeyStatus, mdparse.StatusForgotten)), ""},
		{"aliases by hand", reparse(t, handWritten), ""},
		{"only learned aliases", reparse(t, onlyLearned), NeedMissing},
	}
	for _, tt := range tests {
		if got := Needs(tt.m); got != tt.want {
			t.Errorf("%s: Needs = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A rewrite for changed text keeps the learned aliases, first, replaces the
// model's, records the new fingerprint and keeps keys it does not know.
func TestRecordKeepsLearned(t *testing.T) {
	m := vatMemory()
	if err := m.Set("owner", "finance"); err != nil {
		t.Fatal(err)
	}
	if _, err := Record(m, []string{"invoice a cent out", "why is my basket a cent off"}); err != nil {
		t.Fatal(err)
	}
	if why, err := Learn(m, "basket is a penny short"); err != nil || why != "" {
		t.Fatal(why, err)
	}
	m = reparse(t, m)
	m.Body = append(m.Body, "Also for Portugal.\n"...)
	m = reparse(t, m)
	if Needs(m) != NeedStale {
		t.Fatalf("Needs = %q after a body change", Needs(m))
	}
	got, err := Record(m, []string{"portugal checkout off by a cent", "basket penny short"})
	if err != nil {
		t.Fatal(err)
	}
	m = reparse(t, m)
	// "basket penny short" repeats the learned alias's words: dropped.
	want := []string{"basket is a penny short", "portugal checkout off by a cent"}
	if !slices.Equal(got, want) || !slices.Equal(m.Aliases, want) {
		t.Errorf("aliases %q (file %q), want %q", got, m.Aliases, want)
	}
	if !slices.Equal(m.LearnedAliases, []string{"basket is a penny short"}) {
		t.Errorf("learned %q", m.LearnedAliases)
	}
	if m.AliasesFor != Fingerprint(m) || Needs(m) != "" {
		t.Errorf("aliases_for %q, fingerprint %q", m.AliasesFor, Fingerprint(m))
	}
	if !strings.Contains(string(m.Bytes()), "owner: finance\n") {
		t.Errorf("unknown key lost:\n%s", m.Bytes())
	}
	for alias, want := range map[string]string{"basket is a penny short": SourceLearned, "portugal checkout off by a cent": SourceModel} {
		if got := Source(m, alias); got != want {
			t.Errorf("Source(%q) = %q, want %q", alias, got, want)
		}
	}
}

// The model may find nothing that passes the filter: the fingerprint is
// still recorded, so the memory is not asked about again until it changes.
func TestRecordNothingKept(t *testing.T) {
	m := vatMemory()
	got, err := Record(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	m = reparse(t, m)
	if len(got) != 0 || len(m.Aliases) != 0 || strings.Contains(string(m.Bytes()), "aliases:") {
		t.Errorf("aliases %q:\n%s", got, m.Bytes())
	}
	if Needs(m) != "" {
		t.Errorf("Needs = %q after a run that kept nothing", Needs(m))
	}
}

func TestLearn(t *testing.T) {
	full := vatMemory()
	for _, a := range []string{"basket penny short", "invoice cent out", "checkout total wrong", "tax line mismatch"} {
		if why, err := Learn(full, a); err != nil || why != "" {
			t.Fatal(a, why, err)
		}
	}
	modelFull := vatMemory()
	var eight []string
	for _, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"} {
		eight = append(eight, w+" problem")
	}
	if _, err := Record(modelFull, eight); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, alias, want string
		m                 *mdparse.Memory
	}{
		{"a paraphrase", "my basket is a penny short", "", vatMemory()},
		{"the memory's own words", "spanish vat rounds per line", ReasonCopy, vatMemory()},
		{"filler only", "how do I do this?", ReasonNoWords, vatMemory()},
		{"a secret", "token ghp_gLKOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtH", ReasonSecret, vatMemory()},
		{"too long", strings.Repeat("basket ", 20), ReasonTooLong, vatMemory()},
		{"four learned already", "cart rounding issue", ReasonLearnedFull, full},
		{"a model alias makes room", "cart rounding issue", "", modelFull},
	}
	for _, tt := range tests {
		why, err := Learn(tt.m, tt.alias)
		if err != nil {
			t.Fatal(err)
		}
		if why != tt.want {
			t.Errorf("%s: Learn(%q) = %q, want %q", tt.name, tt.alias, why, tt.want)
			continue
		}
		m := reparse(t, tt.m)
		if learned := slices.Contains(m.LearnedAliases, tt.alias) && slices.Contains(m.Aliases, tt.alias); learned != (tt.want == "") {
			t.Errorf("%s: aliases %q, learned %q", tt.name, m.Aliases, m.LearnedAliases)
		}
	}
	if m := reparse(t, modelFull); len(m.Aliases) != MaxAliases || m.Aliases[0] != "cart rounding issue" {
		t.Errorf("a learned alias on a full memory: %q", m.Aliases)
	}
}
