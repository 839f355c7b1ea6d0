package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/locate"
)

// PathSource is the PATH Claude Code gives its hooks and MCP servers, and
// where it comes from. Claude Code passes on the environment it was started
// with, except that an "env" object in its settings sets variables for
// every hook: a PATH there (managed settings, then the repository's
// settings.local.json, its settings.json, the user's settings.json, the
// first that sets one) replaces the environment's. Measured with Claude
// Code 2.1.328: a hook printed the PATH of the shell that started claude,
// and the settings' env.PATH once one was set.
type PathSource struct {
	Dirs []string
	From string // "the environment's PATH" or "env.PATH in <file>"
}

// managedSettings is where Claude Code reads managed settings on Linux.
var managedSettings = "/etc/claude-code/managed-settings.json"

// HookPath finds the PATH Claude Code gives the hooks of o's work tree.
func HookPath(o Options) PathSource {
	files := []string{managedSettings}
	if o.Place.WorkTree != "" {
		files = append(files, filepath.Join(o.Place.WorkTree, ".claude", "settings.local.json"), settingsPath(o))
	}
	if dir, err := locate.ClaudeDir(); err == nil {
		files = append(files, filepath.Join(dir, "settings.json"))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		d, err := parseObject(f, src)
		if err != nil {
			continue
		}
		if env := d.root.member("env"); env != nil {
			if p, ok := d.str(env.member("PATH")); ok {
				return PathSource{filepath.SplitList(p), "env.PATH in " + locate.ShortHome(f)}
			}
		}
	}
	return PathSource{filepath.SplitList(os.Getenv("PATH")), "the environment's PATH"}
}

// find returns the executable a hook's program name runs on this PATH, or
// "": a bare name is looked up in the directories, a path (after $VAR
// expansion, CLAUDE_PROJECT_DIR as the work tree) is taken as it is.
func (p PathSource) find(bin, workTree string) string {
	bin = os.Expand(bin, func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return workTree
		}
		return os.Getenv(k)
	})
	if strings.ContainsRune(bin, '/') {
		if executable(bin) {
			return bin
		}
		return ""
	}
	for _, dir := range p.Dirs {
		if dir == "" {
			dir = "."
		}
		if c := filepath.Join(dir, bin); executable(c) {
			return c
		}
	}
	return ""
}

// Hint says how to put mem on this PATH, naming the mem binary at hand.
func (p PathSource) Hint(mem string) string {
	abs := mem
	if !filepath.IsAbs(abs) {
		found, err := exec.LookPath(mem)
		if err != nil {
			return "install mem and mem-hook into a directory on that PATH"
		}
		abs, _ = filepath.Abs(found)
	}
	dir := filepath.Dir(abs)
	for _, d := range p.Dirs {
		if d == "/usr/local/bin" || strings.HasSuffix(d, "/.local/bin") {
			links := shellQuote(abs)
			if hook := filepath.Join(dir, "mem-hook"); executable(hook) {
				links += " " + shellQuote(hook)
			}
			return "ln -s " + links + " " + d + "/ (or add " + dir + " to that PATH)"
		}
	}
	return "add " + dir + " to that PATH"
}
