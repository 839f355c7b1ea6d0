package mdparse

import (
	"strings"
	"testing"
)

// TestSalvage: a file Parse refuses keeps what reads on its own, with
// Parse's error, which names the line.
func TestSalvage(t *testing.T) {
	tests := []struct {
		name, file          string
		wantName, wantClass string
		wantTags            string
		wantBody            string
		wantErr             string // "" when Parse accepts the file
	}{
		{"valid", "---\nname: Deploy rule\nclass: rule\n---\nNever on Fridays.\n",
			"Deploy rule", "rule", "", "Never on Fridays.\n", ""},
		{"one broken entry", "---\nname: Deploy rule\ndescription: [unclosed\nclass: rule\ntags: [deploy, friday]\n---\nNever on Fridays.\n",
			"Deploy rule", "rule", "deploy,friday", "Never on Fridays.\n", "m.md:3: frontmatter"},
		{"broken nesting", "---\nname: Deploy rule\nmetadata:\n  type: [x\nimportance: 8\n---\nNever on Fridays.\n",
			"Deploy rule", "", "", "Never on Fridays.\n", "m.md:"},
		{"no closing line", "---\nname: Staging host\ntags: [staging]\nThe staging host is atlas.\nIt moved in May.\n",
			"Staging host", "", "staging", "The staging host is atlas.\nIt moved in May.\n", "m.md:1: frontmatter: no closing --- line"},
		{"nothing readable", "---\n: : :\n---\nBody only.\n",
			"m", "", "", "Body only.\n", "m.md:"},
	}
	for _, tt := range tests {
		m, err := Salvage("m.md", []byte(tt.file))
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: err %v, want %q", tt.name, err, tt.wantErr)
		}
		if m == nil {
			t.Fatalf("%s: no memory", tt.name)
		}
		if m.Name != tt.wantName || m.Class != tt.wantClass || strings.Join(m.Tags, ",") != tt.wantTags || string(m.Body) != tt.wantBody {
			t.Errorf("%s: name %q class %q tags %v body %q", tt.name, m.Name, m.Class, m.Tags, m.Body)
		}
	}
}

func FuzzSalvage(f *testing.F) {
	f.Add("---\nname: x\ndescription: [\n---\nbody\n")
	f.Add("---\nname: x\n  bad: [\nno closing")
	f.Add("\xef\xbb\xbf---\r\na: b\r\n---\r\nbody")
	f.Fuzz(func(t *testing.T, file string) {
		m, err := Salvage("f.md", []byte(file))
		if m == nil {
			t.Fatalf("no memory (err %v)", err)
		}
		if _, perr := Parse("f.md", []byte(file)); (perr == nil) != (err == nil) {
			t.Fatalf("Salvage err %v, Parse err %v", err, perr)
		}
	})
}
