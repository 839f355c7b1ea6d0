package agents

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var binDir string

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "mem-agents-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	root, _ := os.Getwd()
	for ; root != filepath.Dir(root); root = filepath.Dir(root) {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
	}
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/mem", "./cmd/mem-hook")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build mem: %v\n%s", err, out)
		return 1
	}
	binDir = dir
	return m.Run()
}

// repo makes a git repository with a store and mem installed for agents,
// under a fresh home; it returns the repository and the environment every
// command gets (mem on PATH, nothing of the machine's agent config).
func repo(t *testing.T, client string, agents string) (string, []string) {
	t.Helper()
	dir, _, env := newRepo(t, client)
	run(t, dir, env, filepath.Join(binDir, "mem"), "install", "--agents", agents)
	return dir, env
}

// newRepo makes a git repository with a store under a fresh home, mem not
// yet installed; it returns the repository, the home and the environment.
// It skips the test when client is not on PATH.
func newRepo(t *testing.T, client string) (dir, home string, env []string) {
	t.Helper()
	bin, err := exec.LookPath(client)
	if err != nil {
		t.Skipf("skipping: %s is not on PATH (.ci/run installs it from npm)", client)
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, dir = filepath.Join(base, "home"), filepath.Join(base, "repo")
	for _, d := range []string{home, dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{
		"PATH=" + binDir + ":" + filepath.Dir(bin) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"TMPDIR=" + os.TempDir(), "LANG=C.UTF-8", "GIT_CONFIG_NOSYSTEM=1", "MEM_BACKGROUND=off",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "NO_COLOR=1",
	}
	run(t, dir, env, "git", "init", "-q")
	run(t, dir, env, filepath.Join(binDir, "mem"), "init")
	return dir, home, env
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	c := exec.Command(name, args...)
	c.Dir, c.Env = dir, env
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// OpenCode reads the project's opencode.json and connects to mem mcp.
func TestOpenCode(t *testing.T) {
	dir, env := repo(t, "opencode", "opencode")
	out := run(t, dir, env, "opencode", "mcp", "list")
	t.Logf("opencode mcp list:\n%s", out)
	if !strings.Contains(out, "mem") || !strings.Contains(out, "connected") || strings.Contains(out, "failed") {
		t.Fatalf("opencode mcp list does not show mem connected:\n%s", out)
	}
}

// Codex does not read an untrusted project's .codex/config.toml; mem
// install puts the server in the user's config too, which Codex reads in
// every project (this fresh home trusts nothing), and `codex mcp get` shows
// it as mem wrote it. TestCodexExec holds that Codex connects to it.
func TestCodex(t *testing.T) {
	dir, env := repo(t, "codex", "codex")
	out := run(t, dir, env, "codex", "mcp", "list")
	t.Logf("codex mcp list:\n%s", out)
	if !strings.Contains(out, "mem") || strings.Contains(out, "No MCP servers configured") {
		t.Fatalf("codex mcp list does not show mem:\n%s", out)
	}
	get := run(t, dir, env, "codex", "mcp", "get", "mem")
	t.Logf("codex mcp get mem:\n%s", get)
	// mem is on PATH, so mem install named it by its bare name.
	// And mem's variables reach it: Codex passes on only those env_vars names.
	if !strings.Contains(get, "command: mem\n") || !strings.Contains(get, "args: mcp") || !strings.Contains(get, "MEM_BACKGROUND=") {
		t.Fatalf("codex mcp get mem:\n%s", get)
	}
}
