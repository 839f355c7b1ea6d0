package locate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	must(t, os.MkdirAll(filepath.Join(root, ".git", "worktrees", "wt"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755))
	// A linked worktree: .git is a file pointing into the main git dir.
	wt := filepath.Join(root, "wt")
	must(t, os.MkdirAll(wt, 0o755))
	must(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../.git/worktrees/wt\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, ".git", "worktrees", "wt", "commondir"), []byte("../..\n"), 0o644))
	t.Setenv("MEM_STORE", "")

	tests := []struct {
		name, dir, store string
		want             Place
	}{
		{"top", root, "", Place{WorkTree: root, GitDir: root + "/.git", CommonDir: root + "/.git", Store: root + "/.claude/agent-memory"}},
		{"subdir", root + "/sub/deep", "", Place{WorkTree: root, GitDir: root + "/.git", CommonDir: root + "/.git", Store: root + "/.claude/agent-memory"}},
		{"worktree", wt, "", Place{WorkTree: wt, GitDir: root + "/.git/worktrees/wt", CommonDir: root + "/.git", Store: wt + "/.claude/agent-memory"}},
		{"override", root + "/sub", "notes", Place{WorkTree: root, GitDir: root + "/.git", CommonDir: root + "/.git", Store: root + "/sub/notes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Find(tt.dir, tt.store)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Find(%q, %q)\n got %+v\nwant %+v", tt.dir, tt.store, got, tt.want)
			}
		})
	}
}

func TestFindNoRepo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MEM_STORE", "")
	if _, err := Find(dir, ""); err != ErrNoRepo {
		// /tmp itself might sit inside a repository on odd machines; only
		// the error kind matters here.
		if _, statErr := os.Stat(filepath.Join(filepath.Dir(dir), ".git")); statErr != nil {
			t.Fatalf("Find outside a repo: err = %v, want ErrNoRepo", err)
		}
	}
	// An explicit store outside any repository is still a place.
	p, err := Find(dir, filepath.Join(dir, "store"))
	if err != nil || p.Store != filepath.Join(dir, "store") {
		t.Fatalf("explicit store: %+v, %v", p, err)
	}
}

func TestEncodeProject(t *testing.T) {
	for in, want := range map[string]string{
		"/Users/dain/workspace/foo": "-Users-dain-workspace-foo",
		"/home/a.b/c_d":             "-home-a-b-c-d",
		"/tmp/café":                 "-tmp-caf-",
	} {
		if got := EncodeProject(in); got != want {
			t.Errorf("EncodeProject(%q) = %q, want %q", in, got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		dir, path string
		want      bool
	}{
		{"/repo/store", "/repo/store", true},
		{"/repo/store", "/repo/store/a.md", true},
		{"/repo/store/", "/repo/store/sub/a.md", true},
		{"/repo/store", "/repo/store/../other/a.md", false},
		{"/repo/store", "/repo/storefront/a.md", false},
		{"/repo/store", "/repo", false},
		{"/", "/etc/passwd", true},
	} {
		if got := Within(c.dir, c.path); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.dir, c.path, got, c.want)
		}
	}
}

func TestLocal(t *testing.T) {
	for _, c := range []struct{ store, want string }{
		{"/repo/.claude/agent-memory", "/repo/.claude/agent-memory-local"},
		{"/repo/notes", ""}, // a store elsewhere has no local neighbour
		{"/repo", ""},
	} {
		if got := (Place{Store: c.store}).Local(); got != c.want {
			t.Errorf("Local of %q = %q, want %q", c.store, got, c.want)
		}
	}
}

func TestProjectDir(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg")
	got, err := ProjectDir("/work/repo")
	if err != nil || got != filepath.FromSlash("/cfg/projects/-work-repo") {
		t.Errorf("ProjectDir = %q, %v", got, err)
	}
}

func TestDefault(t *testing.T) {
	for _, c := range []struct {
		workTree, store string
		want            bool
	}{
		{"/repo", "/repo/.claude/agent-memory", true},
		{"/repo", "/repo/examples/agent-memory", false}, // named with --store
		{"/repo", "/elsewhere/.claude/agent-memory", false},
		{"", "/notes/.claude/agent-memory", false}, // no work tree
	} {
		if got := (Place{WorkTree: c.workTree, Store: c.store}).Default(); got != c.want {
			t.Errorf("Default of store %q in %q = %v, want %v", c.store, c.workTree, got, c.want)
		}
	}
}

func TestUserAgents(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg")
	if got := UserAgents(); got != filepath.FromSlash("/cfg/agent-memory") {
		t.Errorf("UserAgents = %q, want /cfg/agent-memory", got)
	}
}

func TestPersonalStoreSettings(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	claude := filepath.Join(home, ".claude")
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	work := filepath.Join(home, "repo")
	def := filepath.Join(claude, "projects", EncodeProject(work), "memory")
	for _, c := range []struct {
		name                       string
		local, project, user, want string
	}{
		{name: "no setting", want: def},
		{name: "user settings, under ~/", user: `{"model":"x","autoMemoryDirectory":"~/notes/memory"}`, want: filepath.Join(home, "notes", "memory")},
		{name: "committed project settings are not followed", project: `{"autoMemoryDirectory":"~/.ssh"}`, want: def},
		// settings.local.json can be committed as well: a clone must not
		// point mem at the person's files through it (issue 20, item 6).
		{name: "the work tree's local settings are not followed", local: `{"autoMemoryDirectory":"~/.ssh"}`, want: def},
		{name: "nor do they win over the user's", local: `{"autoMemoryDirectory":"/srv/mem"}`, user: `{"autoMemoryDirectory":"~/notes"}`, want: filepath.Join(home, "notes")},
		{name: "a relative value is not taken", user: `{"autoMemoryDirectory":".claude/memory"}`, want: def},
		{name: "a file that is not JSON is passed over", user: `{"autoMemoryDirectory":`, want: def},
		{name: "a value that is not a string", user: `{"autoMemoryDirectory":["~/x"],"hooks":{"autoMemoryDirectory":"~/y"}}`, want: def},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(claude)
			os.RemoveAll(work)
			for path, data := range map[string]string{
				filepath.Join(work, ".claude", "settings.local.json"): c.local,
				filepath.Join(work, ".claude", "settings.json"):       c.project,
				filepath.Join(claude, "settings.json"):                c.user,
			} {
				if data == "" {
					continue
				}
				must(t, os.MkdirAll(filepath.Dir(path), 0o755))
				must(t, os.WriteFile(path, []byte(data), 0o644))
			}
			if got, _ := PersonalStore(work); got != c.want {
				t.Errorf("PersonalStore = %q, want %q", got, c.want)
			}
		})
	}
}

func TestHomePaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct{ short, abs string }{
		{"~/notes/memory", filepath.Join(home, "notes", "memory")},
		{"~/..claude/x.md", filepath.Join(home, "..claude", "x.md")},
		{"/srv/mem", "/srv/mem"},
	} {
		if got := ExpandHome(c.short); got != c.abs {
			t.Errorf("ExpandHome(%q) = %q, want %q", c.short, got, c.abs)
		}
		if got := ShortHome(c.abs); got != filepath.ToSlash(c.short) {
			t.Errorf("ShortHome(%q) = %q, want %q", c.abs, got, c.short)
		}
	}
}
