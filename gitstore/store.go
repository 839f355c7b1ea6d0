package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/mem-dev/mem/internal/locate"
)

// ErrEscape is matched (errors.Is) by every error that refuses a path leading
// outside the store; such errors are *EscapeError.
var ErrEscape = errors.New("path escapes the store")

// EscapeError refuses a path that leads outside the store.
type EscapeError struct{ Path string }

func (e *EscapeError) Error() string        { return fmt.Sprintf("path %q escapes the store", e.Path) }
func (e *EscapeError) Is(target error) bool { return target == ErrEscape }

// Store is a memory store: a directory of markdown files and, when it lies in
// a git work tree, the repository that versions it.
type Store struct {
	Root      string // absolute store directory, symlinks resolved
	WorkTree  string // absolute work tree root; "" when the store is not in a git repository
	GitDir    string // absolute git directory of the work tree ("" outside git)
	CommonDir string // absolute common git directory, shared by linked worktrees ("" outside git)

	// Check, when set, vets the content of every file a write is about to
	// commit (its git path, from the top of the work tree) and the commit's
	// message (path ""): Apply calls it before anything is written, and the
	// commit again on the bytes it holds. Its error refuses the write as it
	// is. mem sets it to the secret scan, so that nothing it commits escapes
	// the scan, whoever wrote the bytes (a memory edited by hand and then
	// forgotten, a model's reason, an undo).
	Check func(path string, data []byte) error

	// Also, when set, returns changes that belong in the same commit as
	// changes: Apply (and so Undo) calls it once, under the caller's lock,
	// before anything is written. mem keeps a MEMORY.md it generated
	// current with the memories there.
	Also func(changes []Change) []Change
	// Derived, when set, reports whether the store file rel is derived
	// from the others, as Also writes it: Undo leaves such a file to Also
	// when the commit it reverts changed others too.
	Derived func(rel string) bool

	objOnce sync.Once
	obj     objects
	backend string // "go-git" or "cli" to choose one (tests); "" picks
}

// objects is how the store reads and writes git objects: in process with
// go-git when it can open the repository, else with the git command (for
// SHA-256 repositories, say, which go-git refuses).
func (s *Store) objects() objects {
	s.objOnce.Do(func() {
		if s.backend != "cli" {
			if g, err := openGoGit(s); err == nil {
				s.obj = g
				return
			}
		}
		s.obj = cliObjects{s}
	})
	return s.obj
}

// Open describes the store at the place locate.Find found; the store
// directory need not exist yet. locate is the one resolver of where a store
// and its repository are: Open runs no git, and refuses a place whose store
// lies outside its work tree or inside a git directory.
func Open(p locate.Place) (*Store, error) {
	if !filepath.IsAbs(p.Store) {
		return nil, fmt.Errorf("open store: %q is not an absolute path", p.Store)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	for existing := p.Store; ; existing = filepath.Dir(existing) {
		if fi, err := os.Stat(existing); err == nil {
			if !fi.IsDir() {
				return nil, fmt.Errorf("open store: %s is not a directory", existing)
			}
			break
		}
		if filepath.Dir(existing) == existing {
			break
		}
	}
	return &Store{Root: p.Store, WorkTree: p.WorkTree, GitDir: p.GitDir, CommonDir: p.CommonDir}, nil
}

// Init creates the store directory and, when no repository encloses it, a
// git repository at the store's root. It returns the store (located anew
// when it made the repository) and what it created (absolute paths); running
// it again creates nothing.
func Init(p locate.Place) (*Store, []string, error) {
	var created []string
	if _, err := os.Stat(p.Store); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(p.Store, 0o755); err != nil {
			return nil, nil, fmt.Errorf("init store: %w", err)
		}
		created = append(created, p.Store)
	}
	if p.WorkTree == "" {
		more, err := InitRepo(p.Store)
		if err != nil {
			return nil, nil, fmt.Errorf("init store: %w", err)
		}
		created = append(created, more...)
		if p, err = locate.Find(p.Store, p.Store); err != nil {
			return nil, nil, fmt.Errorf("init store: %w", err)
		}
	}
	s, err := Open(p)
	if err != nil {
		return nil, nil, fmt.Errorf("init store: %w", err)
	}
	return s, created, nil
}

// InitRepo makes dir a git repository (git init) and returns what it
// created.
func InitRepo(dir string) ([]string, error) {
	if _, err := runGit(context.Background(), dir, nil, nil, "init", "--quiet"); err != nil {
		return nil, err
	}
	return []string{filepath.Join(dir, ".git")}, nil
}

// StateDir is where mem keeps the lock and caches: <CommonDir>/mem, or
// <Root>/.mem when the store is not in a git repository. It may not exist yet.
func (s *Store) StateDir() string {
	if s.CommonDir == "" {
		return filepath.Join(s.Root, ".mem")
	}
	return filepath.Join(s.CommonDir, "mem")
}

// GitPath is the slash-separated path of a store-relative path from the top of
// the work tree, as git names it. It is meaningless outside a repository.
func (s *Store) GitPath(rel string) string {
	prefix, err := filepath.Rel(s.WorkTree, s.Root)
	if err != nil || prefix == "." {
		return rel
	}
	return path.Join(filepath.ToSlash(prefix), rel)
}

// ReadFile reads a store file.
func (s *Store) ReadFile(rel string) ([]byte, error) {
	clean, err := s.confine(rel)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(s.Root)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", clean, err)
	}
	defer r.Close()
	data, err := r.ReadFile(filepath.FromSlash(clean))
	if err != nil {
		return nil, s.pathErr("read", clean, err)
	}
	return data, nil
}

// Exists reports whether rel names something in the store. A path that escapes
// the store does not exist.
func (s *Store) Exists(rel string) bool {
	clean, err := s.confine(rel)
	if err != nil {
		return false
	}
	r, err := os.OpenRoot(s.Root)
	if err != nil {
		return false
	}
	defer r.Close()
	_, err = r.Stat(filepath.FromSlash(clean))
	return err == nil
}

// Walk lists every *.md file under Root, MEMORY.md included, as sorted
// store-relative slash-separated paths. It skips dot directories and dot files
// (so temporary files are never listed), does not descend into symlinked
// directories, and lists a symlinked file only when it resolves to a regular
// file inside the store. A store that does not exist yet is empty.
func (s *Store) Walk() ([]string, error) {
	r, err := os.OpenRoot(s.Root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("walk store: %w", err)
	}
	defer r.Close()
	var paths []string
	// The names are listed outside the Root: inside it, Go lstats every
	// entry of every directory it reads (the type alone is not trusted
	// there), a quarter of a mem store's time at 500 memories. A listing
	// only names files; every read goes through the Root, which refuses a
	// path that leads out, as does the Stat of a link below.
	err = filepath.WalkDir(s.Root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p, rerr := filepath.Rel(s.Root, abs)
		if rerr != nil {
			return rerr
		}
		p = filepath.ToSlash(p)
		name := d.Name()
		if p != "." && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".md") {
			return nil
		}
		switch {
		case d.Type().IsRegular():
		case d.Type()&fs.ModeSymlink != 0:
			fi, err := r.Stat(filepath.FromSlash(p)) // refuses links leading out
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		default:
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk store: %w", err)
	}
	sort.Strings(paths)
	return paths, nil
}

// confine checks rel lexically and returns it cleaned and slash-separated.
// Symlinks are then enforced by os.Root on every access.
func (s *Store) confine(rel string) (string, error) {
	if rel == "" {
		return "", errors.New("empty path")
	}
	if strings.IndexByte(rel, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", rel)
	}
	native := filepath.FromSlash(rel)
	if filepath.IsAbs(native) || strings.HasPrefix(rel, "/") || !filepath.IsLocal(native) {
		return "", &EscapeError{Path: rel}
	}
	clean := filepath.ToSlash(filepath.Clean(native))
	if clean == "." {
		return "", fmt.Errorf("path %q names the store itself", rel)
	}
	if hasGitComponent(clean) {
		return "", fmt.Errorf("path %q is inside a .git directory", rel)
	}
	return clean, nil
}

// pathErr wraps an error from an os.Root operation, turning os.Root's refusal
// of a path that leads out (through a symlink) into an ErrEscape error.
func (s *Store) pathErr(op, rel string, err error) error {
	if isRootEscape(err) || s.resolvesOutside(rel) {
		return &EscapeError{Path: rel}
	}
	return fmt.Errorf("%s %s: %w", op, rel, err)
}

// isRootEscape reports whether err is os.Root's "path escapes from parent".
func isRootEscape(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return err != nil && err.Error() == "path escapes from parent"
}

// resolvesOutside follows the symlinks along rel as far as they exist and
// reports whether they lead outside Root. Dangling links are followed by
// reading them.
func (s *Store) resolvesOutside(rel string) bool {
	p := filepath.Join(s.Root, filepath.FromSlash(rel))
	for hops := 0; hops < 40; hops++ {
		resolved, err := filepath.EvalSymlinks(p)
		if err == nil {
			return !locate.Within(s.Root, resolved)
		}
		// Find the deepest existing prefix; if it is a dangling link, follow it.
		q := p
		for {
			fi, err := os.Lstat(q)
			if err == nil {
				if fi.Mode()&fs.ModeSymlink == 0 {
					resolved, err := filepath.EvalSymlinks(q)
					return err != nil || !locate.Within(s.Root, resolved)
				}
				target, err := os.Readlink(q)
				if err != nil {
					return true
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(q), target)
				}
				rest, _ := filepath.Rel(q, p)
				p = filepath.Join(target, rest)
				break
			}
			parent := filepath.Dir(q)
			if parent == q {
				return true
			}
			q = parent
		}
	}
	return true
}

func hasGitComponent(slashPath string) bool {
	for _, c := range strings.Split(slashPath, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// gitError is a failed git command with its standard error.
type gitError struct {
	args   []string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	msg = strings.TrimPrefix(msg, "fatal: ")
	sub := e.args[0]
	for i := 0; i+2 < len(e.args) && e.args[i] == "-c"; i += 2 {
		sub = e.args[i+2]
	}
	return fmt.Sprintf("git %s: %s", sub, msg)
}

func (e *gitError) Unwrap() error { return e.err }

// localEnv lists the variables that tie git to one repository; they are dropped
// from the environment so that git finds the repository of the store, even when
// mem runs inside a git hook (which sets GIT_DIR and GIT_INDEX_FILE).
var localEnv = map[string]bool{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": true,
	"GIT_COMMON_DIR":                   true,
	"GIT_DIR":                          true,
	"GIT_GRAFT_FILE":                   true,
	"GIT_IMPLICIT_WORK_TREE":           true,
	"GIT_INDEX_FILE":                   true,
	"GIT_INTERNAL_SUPER_PREFIX":        true,
	"GIT_NO_REPLACE_OBJECTS":           true,
	"GIT_OBJECT_DIRECTORY":             true,
	"GIT_PREFIX":                       true,
	"GIT_QUARANTINE_PATH":              true,
	"GIT_REPLACE_REF_BASE":             true,
	"GIT_SHALLOW_FILE":                 true,
	"GIT_WORK_TREE":                    true,
}

// RepoFreeEnv returns the process environment without the variables that
// tie git to one repository (localEnv): what any git command mem runs
// should inherit, so that it finds the repository of the directory it is
// given even inside a git hook.
func RepoFreeEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !localEnv[k] {
			env = append(env, kv)
		}
	}
	return env
}

// runGit runs git in dir with the inherited environment, minus localEnv, plus
// env. Hooks are disabled. It returns standard output.
func runGit(ctx context.Context, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := gitCommand(ctx, dir, env, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &gitError{args: args, stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

// gitCommand is the git process runGit runs, for a caller that talks to it
// while it runs: counted, hooks disabled, in a process group of its own.
func gitCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	gitSpawns.Add(1)
	full := append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	detach(cmd)
	cmd.Env = RepoFreeEnv()
	// English messages: a few are matched (identity, index.lock, no repository).
	cmd.Env = append(cmd.Env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// git runs git in the store's work tree, pinned to its repository.
func (s *Store) git(ctx context.Context, env []string, stdin []byte, args ...string) ([]byte, error) {
	return runGit(ctx, s.WorkTree, s.pinned(env), stdin, args...)
}

// gitCommand is the git process s.git runs, for a caller that talks to it.
func (s *Store) gitCommand(ctx context.Context, env []string, args ...string) *exec.Cmd {
	return gitCommand(ctx, s.WorkTree, s.pinned(env), args...)
}

// pinned is env with the store's repository and work tree first.
func (s *Store) pinned(env []string) []string {
	return append([]string{"GIT_DIR=" + s.GitDir, "GIT_WORK_TREE=" + s.WorkTree}, env...)
}
