package capture

import (
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/secrets"
)

func TestMaskSecrets(t *testing.T) {
	tests := []struct {
		line     string
		want     string // "" when only "no finding is left" is checked
		withheld bool
	}{
		{line: "go test ./... passed in 3.2s", want: "go test ./... passed in 3.2s"},
		{line: "aws_access_key_id = AKIAQ7RZ4XW2PLM3NBVC", want: "aws_access_key_id = " + Masked},
		{line: "token: ghp_8fK2mQ9xL3vR7tY1wZ5nB6cD4eG0hJ2kP9sA (expires tomorrow)", want: "token: " + Masked + " (expires tomorrow)"},
		// The word before a secret is never what is masked.
		{line: "password hunter2-Zq81xLm29fKd", want: "password " + Masked},
		{line: "psql postgres://atlas:Xk29fLq81zR@db.internal:5432/atlas -c 'select 1'"},
		// Kinds that print inside a URL, a YAML file or a JSON config.
		{line: "curl -s https://api.telegram.org/bot6893417250:AAFq8ZtL0rem1psumD0l0r5itAm3tC0nxY3/getMe", want: "curl -s " + Masked},
		{line: "    token: kvj50ce9uvw53efr4edt2sywb3wkh5dnsipzz5fk", want: "token: " + Masked},
		{line: `{"auths":{"ghcr.io":{"auth":"Y2k6WHE3cEwydlI5"}}}`, want: Masked},
		{line: "export HEROKU_API_KEY=8d3f1c2a-6b7e-4f90-a1d2-3c4b5e6f7a80", want: "export " + Masked},
		{line: "-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA7q8XkPzQ3mV5nR2tY8wL1cF6hJ9bG4dS0aE", want: Withheld, withheld: true},
	}
	for _, tt := range tests {
		got, masked, withheld := maskSecrets(tt.line)
		if tt.want != "" && got != tt.want {
			t.Errorf("maskSecrets(%q) = %q, want %q", tt.line, got, tt.want)
		}
		if fs := secrets.Scan(got); len(fs) > 0 {
			t.Errorf("maskSecrets(%q) = %q still holds %s", tt.line, got, fs[0].Pattern)
		}
		if withheld != tt.withheld || masked != (got != tt.line && !withheld) {
			t.Errorf("maskSecrets(%q): masked %v withheld %v", tt.line, masked, withheld)
		}
	}
}

// A secret a tool printed never reaches the digest, hence never the model.
func TestDigestMasksSecrets(t *testing.T) {
	key := "sk_live_51Hq8ZtL0rem1psumD0l0r5itAm3tC0nsect3tur"
	p := writeTranscript(t,
		userLine("why does the webhook fail on staging?"),
		mustJSON(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": "toolu_9", "name": "Bash", "input": map[string]any{"command": "cat .env"}}}}}),
		mustJSON(map[string]any{"type": "user", "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_9", "content": "STRIPE_KEY=" + key + "\nPORT=8080"}}}}),
		textLine("The .env has a live key ("+key+"); staging must use a test key."),
	)
	s := readSession(t, p)
	d := s.Digest(0)
	if strings.Contains(d, key) || strings.Contains(d, key[:16]) {
		t.Fatalf("the key reached the digest:\n%s", d)
	}
	if s.Masked != 2 || !strings.Contains(d, "PORT=8080") || !strings.Contains(d, Masked) {
		t.Errorf("masked %d lines; digest:\n%s", s.Masked, d)
	}
}
