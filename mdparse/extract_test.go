package mdparse

import (
	"reflect"
	"strings"
	"testing"
)

func TestExtractBody(t *testing.T) {
	body := "# Checkout tax\n\n" +
		"Rounding the **total** is off by one cent; see [the ADR](docs/adr/0003-rounding.md) and <https://example.com/vat>.\n" +
		"Run `make check` before pushing. Also https://bare.example.org/x works.\n\n" +
		"<!-- an html comment -->\n\n" +
		"## Steps\n\n" +
		"- [ ] edit shop/checkout/tax.py\n" +
		"- ![diagram](img/flow.png)\n\n" +
		"| file | why |\n|---|---|\n| `atlas-web/.nvmrc` | node |\n\n" +
		"```sh\ngo run ./cmd/migrate up\n```\n"
	x := ExtractBody([]byte(body))
	if want := []string{"Checkout tax", "Steps"}; !reflect.DeepEqual(x.Headings, want) {
		t.Errorf("headings %q, want %q", x.Headings, want)
	}
	if want := []string{"docs/adr/0003-rounding.md", "https://example.com/vat", "https://bare.example.org/x", "img/flow.png"}; !reflect.DeepEqual(x.Links, want) {
		t.Errorf("links %q, want %q", x.Links, want)
	}
	if want := []string{"make check", "atlas-web/.nvmrc", "go run ./cmd/migrate up"}; !reflect.DeepEqual(x.Code, want) {
		t.Errorf("code %q, want %q", x.Code, want)
	}
	if want := []string{"shop/checkout/tax.py", "atlas-web/.nvmrc", "./cmd/migrate", "docs/adr/0003-rounding.md", "img/flow.png"}; !reflect.DeepEqual(x.Paths, want) {
		t.Errorf("paths %q, want %q", x.Paths, want)
	}
	for _, bad := range []string{"**", "<!--", "html comment", "](", "```", "|", "[ ]"} {
		if strings.Contains(x.Text, bad) {
			t.Errorf("text has %q:\n%s", bad, x.Text)
		}
	}
	for _, good := range []string{"Checkout tax\n", "Rounding the total is off by one cent; see the ADR and https://example.com/vat.", "Run make check before pushing.", "file why\natlas-web/.nvmrc node", "go run ./cmd/migrate up"} {
		if !strings.Contains(x.Text, good) {
			t.Errorf("text lacks %q:\n%s", good, x.Text)
		}
	}
}

func TestPaths(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"see shop/checkout/tax.py.", []string{"shop/checkout/tax.py"}},
		{"(atlas-web/.nvmrc), ./x.go: and migrations/0142_x.sql;", []string{"atlas-web/.nvmrc", "./x.go", "migrations/0142_x.sql"}},
		{"at atlas-api/cmd/worker/main.go:42:7 it panics", []string{"atlas-api/cmd/worker/main.go"}},
		{"dirs infra/scripts/ and ../shared/eval", []string{"infra/scripts/", "../shared/eval"}},
		{"Next.js route src/app/(public)/page.tsx and /s/[slug]", []string{"src/app/(public)/page.tsx"}},
		{".github/workflows/ci.yml e2e/login.cy.ts", []string{".github/workflows/ci.yml", "e2e/login.cy.ts"}},
		// Not paths: URLs, home and absolute paths, API routes, globs,
		// templates, and slash words without an extension.
		{"https://x.io/a/b.go www.x.io/a.html github.com/x/y.go", nil},
		{"~/.pgpass /etc/hosts POST /v1/bookings /webhooks/stripe", nil},
		{"renovate/* studios/<id>/<ulid>.<ext> $HOME/x.sh", nil},
		{"the agent/ prefix, docs/ and/or linux/arm64 next/image refs/heads/main tl/lrk-377-fix internal/store", nil},
		{"internal/clock.Clock v1.2/3.4 1/2 e.g./i.e. a//b.go", nil},
		{"`cfg=infra/observability/alerts.yaml` \"quoted/path.md\"", []string{"infra/observability/alerts.yaml", "quoted/path.md"}},
	}
	for _, tt := range tests {
		var got []string
		scanPaths(tt.in, func(p string) { got = append(got, p) })
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: paths %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestExtractAsWritten holds that text and paths are the body's characters
// as written: emphasis delimiters inside a word or a path are not emphasis,
// and markup between two pieces never joins them into a path.
func TestExtractAsWritten(t *testing.T) {
	tests := []struct {
		body  string
		text  string
		paths []string
	}{
		{"run sqlc after changing db/queries/*.sql; output lands in internal/store/*.sql.go",
			"run sqlc after changing db/queries/*.sql; output lands in internal/store/*.sql.go", nil},
		{"changing *.sql, then internal/*.go", "changing *.sql, then internal/*.go", nil},
		{"keep pkg/__init__.py empty; see __init__.py", "keep pkg/__init__.py empty; see __init__.py", []string{"pkg/__init__.py"}},
		{"the marker is **pkg/__init__.py**.", "the marker is pkg/__init__.py.", []string{"pkg/__init__.py"}},
		{"see **db/x.go** and *shop/tax.py*, (*sic*) and __bold__", "see db/x.go and shop/tax.py, (sic) and bold", []string{"db/x.go", "shop/tax.py"}},
		{"***x***", "x", nil},
		{"a_b_c and 2*3*4 and foo*bar*", "a_b_c and 2*3*4 and foo*bar*", nil},
		{"run `*.go` once", "run *.go once", nil},
		{"# Globs: src/**/*.ts and lib/*/x.go", "Globs: src/**/*.ts and lib/*/x.go", nil},
		{"db/`x`.go and a/b<!-- c -->c.go and a/[b](https://x.io)c.go", "db/x.go and a/bc.go and a/bc.go", nil},
		{"wrapped\nsrc/a.go line", "wrapped src/a.go line", []string{"src/a.go"}},
	}
	for _, tt := range tests {
		x := ExtractBody([]byte(tt.body))
		if x.Text != tt.text {
			t.Errorf("%q: text %q, want %q", tt.body, x.Text, tt.text)
		}
		if !reflect.DeepEqual(x.Paths, tt.paths) {
			t.Errorf("%q: paths %q, want %q", tt.body, x.Paths, tt.paths)
		}
	}
	if x := ExtractBody([]byte("# see db/queries/*.sql and internal/store/*.sql.go\n")); !reflect.DeepEqual(x.Headings, []string{"see db/queries/*.sql and internal/store/*.sql.go"}) {
		t.Errorf("headings %q", x.Headings)
	}
}
