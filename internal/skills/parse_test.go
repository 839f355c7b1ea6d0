package skills

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in, wantName, wantBody, wantErr string
	}{
		{"a draft", "---\nname: release\ndescription: Cut the weekly release\nmetadata:\n  procedure: git tag\n---\nTag it.\n", "release", "Tag it.", ""},
		{"CRLF line ends", "---\r\nname: release\r\ndescription: d\r\n---\r\nTag it.\r\n", "release", "Tag it.", ""},
		{"no frontmatter", "Just a body.\n", "", "", "no frontmatter"},
		{"unterminated", "---\nname: release\nTag it.\n", "", "", "not closed"},
		{"bad YAML", "---\nname: [unclosed\n---\nbody\n", "", "", "SKILL.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parse("x/SKILL.md", []byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tt.wantName || s.Body != tt.wantBody {
				t.Errorf("got name %q body %q", s.Name, s.Body)
			}
		})
	}
}
