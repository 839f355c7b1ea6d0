package mem_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mem-dev/mem"
	"github.com/mem-dev/mem/gitstore"
)

// TestResolve: a memory is named by its slug, its file name, the paths
// search, list and the hook print, or the start of its slug; what names
// none says the nearest, and a start several share names them.
func TestResolve(t *testing.T) {
	r := newRepo(t)
	for _, name := range []string{"Database migrations", "Database seeding", "Checkout VAT"} {
		store(t, r, mem.Note{Name: name, Body: name + " matter."})
	}
	sub := filepath.Join(r.Place.Store, "reviewer")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "conventions.md"), []byte("---\nname: Conventions\n---\nTabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref, want string
		near      []string // for a *mem.NotFoundError
		err       string   // for any other error
	}{
		{ref: "checkout-vat", want: "checkout-vat"},
		{ref: "checkout-vat.md", want: "checkout-vat"},
		{ref: ".claude/agent-memory/checkout-vat.md", want: "checkout-vat"},
		{ref: filepath.Join(r.Place.Store, "checkout-vat.md"), want: "checkout-vat"},
		{ref: "conventions", want: "conventions"},
		{ref: "reviewer/conventions.md", want: "conventions"},
		{ref: ".claude/agent-memory/reviewer/conventions.md", want: "conventions"},
		{ref: "chec", want: "checkout-vat"},
		{ref: "database-s", want: "database-seeding"},
		{ref: "reviewer/con", want: "conventions"},
		{ref: "datab", err: "datab is the start of 2 memories' slugs: database-migrations, database-seeding; give more of it"},
		{ref: "databse-migrations", near: []string{"database-migrations"}},
		{ref: "migrations", near: []string{"database-migrations"}},
		{ref: "other/conventions.md", near: []string{"conventions"}},
		{ref: "zzz", near: []string{}},
		{ref: "", err: `"" is not a memory slug`},
	}
	for _, tt := range tests {
		got, err := r.Resolve(tt.ref)
		var nf *mem.NotFoundError
		switch {
		case tt.near != nil:
			if !errors.As(err, &nf) || !errors.Is(err, mem.ErrNotFound) || !slices.Equal(nf.Near, tt.near) && len(nf.Near)+len(tt.near) > 0 {
				t.Errorf("Resolve(%q) = %q, %v; want not found, near %q", tt.ref, got, err, tt.near)
			}
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("Resolve(%q) = %q, %v; want error %q", tt.ref, got, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
	}
	for _, ref := range []string{"../outside", "reviewer/../../outside.md", "/etc/passwd"} {
		if _, err := r.Resolve(ref); err == nil || !strings.Contains(err.Error(), "is not a memory slug") {
			t.Errorf("Resolve(%q) = %v, want it refused", ref, err)
		}
	}
	if err := os.Symlink("../../../outside.md", filepath.Join(r.Place.Store, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve("leak"); !errors.Is(err, gitstore.ErrEscape) {
		t.Errorf("Resolve(leak) = %v, want the link out refused", err)
	}
	nf := &mem.NotFoundError{Slug: "databse", Near: []string{"database-migrations", "database-seeding"}}
	if got, want := nf.Error(), "no memory databse; did you mean database-migrations, database-seeding?"; got != want {
		t.Errorf("NotFoundError = %q, want %q", got, want)
	}
}

// TestResolvedWrites: what a person names is resolved, and the commit names
// the memory; what a pass names is taken exactly, never as a start.
func TestResolvedWrites(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	store(t, r, mem.Note{Name: "Database migrations", Body: "Run goose migrations before seeding."})
	w, err := r.Forget(ctx, ".claude/agent-memory/database-migrations.md")
	if err != nil || w.Slug != "database-migrations" {
		t.Fatalf("Forget by path = %+v, %v", w, err)
	}
	log, err := r.Log(ctx, 1)
	if err != nil || len(log) != 1 || log[0].Subject != "mem: forget database-migrations" {
		t.Fatalf("the forget's commit: %+v, %v", log, err)
	}
	if _, _, err := r.Show(ctx, "database"); err != nil {
		t.Errorf("Show by the start of the slug: %v", err)
	}
	store(t, r, mem.Note{Name: "Checkout VAT", Body: "VAT rounds per line."})
	if _, _, err := r.LearnAlias(ctx, "checkout", "one cent off", "test"); !errors.Is(err, mem.ErrNotFound) {
		t.Errorf("LearnAlias(checkout) = %v, want not found: a pass names a memory whole", err)
	}
	if data, _, _ := r.Raw(ctx, "checkout-vat"); strings.Contains(string(data), "one cent off") {
		t.Error("LearnAlias wrote to the memory its slug starts")
	}
}
