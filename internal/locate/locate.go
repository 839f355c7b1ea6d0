// Package locate finds, from a directory, the git work tree, its git
// directories and the memory store, without running git and without go-git.
//
// It is on the prompt path, so it only stats and reads a few small files:
// the `.git` entry of each ancestor, a worktree's `gitdir:` file and its
// `commondir`, and the Claude Code settings that may move the auto memory
// (settings.go). Everything mem caches lives under <CommonDir>/mem/, shared by
// all worktrees of one repository and never committed.
package locate

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-dev/mem/internal/rawfile"
)

// DefaultStore is the store's place in a work tree: the directory Claude
// Code uses for project-scoped agent memory, committed and shared.
const DefaultStore = ".claude/agent-memory"

// ErrNoRepo is returned when no git work tree encloses the directory.
var ErrNoRepo = errors.New("not inside a git work tree")

// Place is where a store lives.
type Place struct {
	WorkTree  string // absolute work tree root
	GitDir    string // absolute git dir of this work tree
	CommonDir string // absolute common git dir (differs from GitDir in linked worktrees)
	Store     string // absolute store root
}

// StateDir is the state directory: where mem keeps its caches, locks, logs
// and per-session state, <CommonDir>/mem, shared by every worktree and never
// committed (docs/architecture.md lists its files).
func (p Place) StateDir() string { return filepath.Join(p.CommonDir, "mem") }

// Rel returns path relative to the work tree, slash-separated, or path
// itself when it lies outside.
func (p Place) Rel(path string) string {
	rel, err := filepath.Rel(p.WorkTree, path)
	if err != nil || !Within(p.WorkTree, path) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// Within reports whether path is dir or lies below it, lexically: both are
// cleaned, nothing is resolved. A root directory contains every path.
func Within(dir, path string) bool {
	dir, path = filepath.Clean(dir), filepath.Clean(path)
	sep := string(filepath.Separator)
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, sep)+sep)
}

// ErrEscape is matched (errors.Is) by the error of a store that lies
// outside the work tree it belongs to once its symlinks are resolved.
var ErrEscape = errors.New("the store lies outside its work tree")

// Find locates the repository enclosing dir and the store in it, as git
// does from dir: the paths of the Place are absolute and canonical, with
// every symlink in their existing part resolved (git works from the
// physical directory), so that every caller that locates one store names
// it, and its cache, by the same path. store overrides the store root (a
// --store flag); when empty, MEM_STORE is consulted, then DefaultStore under
// the work tree. A relative override is taken relative to dir. GIT_DIR (with
// GIT_WORK_TREE, or dir as the top of the work tree when that is unset)
// names the repository as it does for git.
//
// A store in the default place must lie inside its work tree once its
// symlinks are resolved: a repository that commits .claude/agent-memory as
// a link to another repository or to any directory of the person's is
// refused with an error that wraps ErrEscape. An explicit store decides
// which repository counts: the one that encloses it, if any.
func Find(dir, store string) (Place, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Place{}, err
	}
	abs = Canonical(abs)
	if store == "" {
		store = os.Getenv("MEM_STORE")
	}
	if store != "" {
		if !filepath.IsAbs(store) {
			store = filepath.Join(abs, store)
		}
		store = Canonical(store)
		if sp, serr := findRepo(nearestExisting(store)); serr == nil {
			sp.Store = store
			return sp, sp.Check()
		}
		return Place{Store: store}, nil
	}
	p, err := findRepo(abs)
	if err != nil {
		return Place{}, err
	}
	lexical := filepath.Join(p.WorkTree, filepath.FromSlash(DefaultStore))
	p.Store = Canonical(lexical)
	if err := p.Check(); err != nil {
		if p.Store != lexical {
			return p, fmt.Errorf("%w: %s is a symbolic link to %s, outside the work tree %s; mem will not read or write there (name a store with --store to use one elsewhere)", ErrEscape, lexical, p.Store, p.WorkTree)
		}
		return p, err
	}
	return p, nil
}

// Check reports whether the store may be used where it is: inside its work
// tree (when it has one) and not inside a git directory. Paths are compared
// as they are; Find makes them canonical.
func (p Place) Check() error {
	if p.WorkTree == "" {
		return nil
	}
	if !Within(p.WorkTree, p.Store) {
		return fmt.Errorf("%w: %s is outside the work tree %s", ErrEscape, p.Store, p.WorkTree)
	}
	rel, _ := filepath.Rel(p.WorkTree, p.Store)
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(c, ".git") {
			return fmt.Errorf("%w: %s is inside a .git directory", ErrEscape, p.Store)
		}
	}
	if Within(p.GitDir, p.Store) || Within(p.CommonDir, p.Store) {
		return fmt.Errorf("%w: %s is inside the git directory", ErrEscape, p.Store)
	}
	return nil
}

// Canonical returns path, absolute and cleaned, with the symlinks of its
// longest existing prefix resolved and the rest kept as it is.
func Canonical(path string) string {
	path = filepath.Clean(path)
	existing, tail := path, ""
	for {
		if resolved, err := filepath.EvalSymlinks(existing); err == nil {
			return filepath.Join(resolved, tail)
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return path
		}
		tail = filepath.Join(filepath.Base(existing), tail)
		existing = parent
	}
}

// nearestExisting returns path or its closest ancestor that exists.
func nearestExisting(path string) string {
	for {
		if _, err := os.Stat(path); err == nil {
			return path
		}
		parent := filepath.Dir(path)
		if parent == path {
			return path
		}
		path = parent
	}
}

// findRepo finds the repository of dir (canonical): GIT_DIR when set, else
// the nearest ancestor with a .git directory or gitdir file.
func findRepo(dir string) (Place, error) {
	if gd := os.Getenv("GIT_DIR"); gd != "" {
		return envRepo(dir, gd, os.Getenv("GIT_WORK_TREE"))
	}
	for d := dir; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			if fi.IsDir() {
				gitDir := Canonical(dotgit)
				return Place{WorkTree: d, GitDir: gitDir, CommonDir: commonDir(gitDir)}, nil
			}
			if gd, ok := readGitFile(dotgit); ok {
				gitDir := Canonical(gd)
				return Place{WorkTree: d, GitDir: gitDir, CommonDir: commonDir(gitDir)}, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return Place{}, ErrNoRepo
		}
		d = parent
	}
}

// envRepo is the repository GIT_DIR names, relative to dir, with the work
// tree GIT_WORK_TREE names or, as git takes it when that is unset, dir.
func envRepo(dir, gitDir, workTree string) (Place, error) {
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(dir, gitDir)
	}
	gitDir = Canonical(gitDir)
	if fi, err := os.Stat(gitDir); err != nil || !fi.IsDir() {
		return Place{}, ErrNoRepo
	}
	if workTree == "" {
		workTree = dir
	} else if !filepath.IsAbs(workTree) {
		workTree = filepath.Join(dir, workTree)
	}
	return Place{WorkTree: Canonical(workTree), GitDir: gitDir, CommonDir: commonDir(gitDir)}, nil
}

// readGitFile reads a `gitdir: PATH` file (linked worktrees, submodules).
func readGitFile(path string) (string, bool) {
	b, err := rawfile.ReadFile(path)
	if err != nil {
		return "", false
	}
	line, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", false
	}
	gd := strings.TrimSpace(line)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(path), gd)
	}
	return filepath.Clean(gd), true
}

// commonDir follows a linked worktree's `commondir` file to the shared git dir.
func commonDir(gitDir string) string {
	b, err := rawfile.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	cd := strings.TrimSpace(string(b))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitDir, cd)
	}
	return Canonical(cd)
}

// MainWorkTree is the work tree of the repository's main checkout, which
// names Claude Code's per-repository directories for every worktree.
func (p Place) MainWorkTree() string {
	if filepath.Base(p.CommonDir) == ".git" {
		return filepath.Dir(p.CommonDir)
	}
	return p.WorkTree
}

// ClaudeDir returns Claude Code's configuration directory: CLAUDE_CONFIG_DIR
// when set, else ~/.claude.
func ClaudeDir() (string, error) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".claude"), nil
}

// PersonalStore returns Claude Code's auto-memory directory for a work tree
// (~/.claude/projects/<encoded work tree>/memory, CLAUDE_CONFIG_DIR moves
// ~/.claude, and an autoMemoryDirectory setting moves the whole path), and
// whether it exists.
func PersonalStore(workTree string) (string, bool) {
	dir := personalDir(workTree)
	if dir == "" {
		return "", false
	}
	fi, err := os.Stat(dir)
	return dir, err == nil && fi.IsDir()
}

// Local is where Claude Code keeps the memories of subagents whose memory
// scope is "local" (not checked in): <store>-local beside a store named
// agent-memory (.claude/agent-memory-local for the default place); "" for
// a store by any other name. Derived from the store, it shares the store's
// cache.
func (p Place) Local() string {
	if filepath.Base(p.Store) != path.Base(DefaultStore) {
		return ""
	}
	return p.Store + "-local"
}

// Default reports whether the store is the work tree's own, in its default
// place (DefaultStore), rather than a directory named by --store or
// MEM_STORE elsewhere.
func (p Place) Default() bool {
	return p.WorkTree != "" && p.Store == filepath.Join(p.WorkTree, filepath.FromSlash(DefaultStore))
}

// UserAgents is where Claude Code keeps the memories of subagents whose
// memory scope is "user": <ClaudeDir>/agent-memory, one directory per
// agent, shared by every project. "" when there is no Claude directory to
// name.
func UserAgents() string {
	dir, err := ClaudeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "agent-memory")
}

// MemoryDirs are the directories whose markdown mem searches for this
// place: its store, Claude Code's auto memory for the repository and the
// local and user scopes of subagents' memory; those that cannot be named
// are left out. A file an agent writes under one of them is a memory.
func (p Place) MemoryDirs() []string {
	personal, _ := PersonalStore(p.MainWorkTree())
	var dirs []string
	for _, d := range [...]string{p.Store, personal, p.Local(), UserAgents()} {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// personalDir is PersonalStore's path, without looking whether it exists;
// "" when there is no Claude directory to name. Claude Code's settings may
// move it (autoMemoryDirectory).
func personalDir(workTree string) string {
	base, err := ClaudeDir()
	if err != nil {
		return ""
	}
	if dir := autoMemoryDir(base); dir != "" {
		return dir
	}
	return filepath.Join(base, "projects", EncodeProject(workTree), "memory")
}

// ProjectDir is Claude Code's folder for a work tree, which holds its
// session transcripts and its auto memory:
// ~/.claude/projects/<EncodeProject(workTree)> (CLAUDE_CONFIG_DIR moves
// ~/.claude).
func ProjectDir(workTree string) (string, error) {
	base, err := ClaudeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "projects", EncodeProject(workTree)), nil
}

// EncodeProject turns a directory into Claude Code's project folder name:
// every character that is not an ASCII letter or digit becomes '-'.
func EncodeProject(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// IndexPath is the search cache of this place's store. Caches are keyed by
// the store's path, so a --store override never reads another store's
// cache, and by the personal store's path it also indexes, so that moving
// the auto memory (CLAUDE_CONFIG_DIR, autoMemoryDirectory) gives a cache
// not yet built rather than one that still looks fresh because it only
// stamped the old directory.
func (p Place) IndexPath() string {
	h := fnv.New64a()
	h.Write([]byte(p.Store))
	if p.WorkTree != "" {
		h.Write([]byte{0})
		h.Write([]byte(personalDir(p.MainWorkTree())))
	}
	return filepath.Join(p.StateDir(), fmt.Sprintf("index-%016x.bin", h.Sum64()))
}

// ExpandHome turns a leading ~/ into the home directory; any other path,
// or any path when the home directory is unknown, is returned as it is.
func ExpandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// ShortHome writes a path under the home directory as ~/…, the way a
// person reads it: ExpandHome's inverse.
func ShortHome(abs string) string {
	if home, err := os.UserHomeDir(); err == nil && Within(home, abs) {
		if rel, err := filepath.Rel(home, abs); err == nil {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}
