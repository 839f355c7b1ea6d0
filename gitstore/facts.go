package gitstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-dev/mem/internal/locate"
)

// Facts is what a repository's refs say, read once for the verifier's
// probes (branches that exist, remotes, a shallow clone), with the commits
// and history subjects it asks about later, through the same seam as every
// other git read of mem's.
type Facts struct {
	// Refs maps each branch to its full ref name: local branches by name,
	// remote-tracking ones as "origin/x" and, when no local branch has the
	// name, as "x".
	Refs     map[string]string
	Tracking bool // some refs/remotes/* exist
	Remotes  []Remote
	Shallow  bool

	s *Store
}

// Remote is a configured remote and its URLs.
type Remote struct {
	Name string
	URLs []string
}

// ReadFacts reads the refs of the repository enclosing dir.
func ReadFacts(ctx context.Context, dir string) (*Facts, error) {
	place, err := locate.Find(dir, "")
	if err != nil && !errors.Is(err, locate.ErrEscape) { // the store does not matter here
		return nil, fmt.Errorf("no git repository at %s: %w", dir, err)
	}
	s := &Store{Root: place.Store, WorkTree: place.WorkTree, GitDir: place.GitDir, CommonDir: place.CommonDir}
	if s.WorkTree == "" {
		return nil, fmt.Errorf("no git repository at %s", dir)
	}
	f := &Facts{Refs: map[string]string{}, s: s}
	out, err := s.git(ctx, nil, nil, "for-each-ref", "--format=%(refname)", "refs/heads", "refs/remotes")
	if err != nil {
		return nil, fmt.Errorf("read refs: %w", err)
	}
	var remotes []string
	for _, ref := range strings.Fields(string(out)) {
		if name, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			f.Refs[name] = ref
		} else if short, ok := strings.CutPrefix(ref, "refs/remotes/"); ok && !strings.HasSuffix(short, "/HEAD") {
			remotes = append(remotes, ref)
		}
	}
	for _, ref := range remotes {
		short := strings.TrimPrefix(ref, "refs/remotes/")
		f.Tracking = true
		if _, ok := f.Refs[short]; !ok {
			f.Refs[short] = ref
		}
		if _, b, ok := strings.Cut(short, "/"); ok {
			if _, ok := f.Refs[b]; !ok {
				f.Refs[b] = ref
			}
		}
	}
	// git config exits 1 when no remote has a URL.
	out, _ = s.git(ctx, nil, nil, "config", "--get-regexp", `^remote\..*\.url$`)
	byName := map[string]*Remote{}
	for line := range strings.Lines(string(out)) {
		key, url, ok := strings.Cut(strings.TrimSpace(line), " ")
		name := strings.TrimSuffix(strings.TrimPrefix(key, "remote."), ".url")
		if !ok || name == key {
			continue
		}
		if byName[name] == nil {
			byName[name] = &Remote{Name: name}
		}
		byName[name].URLs = append(byName[name].URLs, url)
	}
	for _, r := range byName {
		f.Remotes = append(f.Remotes, *r)
	}
	sort.Slice(f.Remotes, func(i, j int) bool { return f.Remotes[i].Name < f.Remotes[j].Name })
	out, err = s.git(ctx, nil, nil, "rev-parse", "--is-shallow-repository")
	f.Shallow = err == nil && strings.TrimSpace(string(out)) == "true"
	return f, nil
}

// CommitExists reports whether a commit whose name starts with prefix (4
// to 64 hex digits) exists; an ambiguous prefix counts as existing.
func (f *Facts) CommitExists(ctx context.Context, prefix string) (bool, error) {
	if len(prefix) < 4 || strings.Trim(strings.ToLower(prefix), "0123456789abcdef") != "" {
		return false, fmt.Errorf("%q is not a commit name", prefix)
	}
	if g, ok := f.s.objects().(*goGitObjects); ok {
		goGitMu.Lock()
		h, err := g.resolve(prefix)
		if err == nil {
			_, err = object.GetCommit(g.st, h)
		}
		goGitMu.Unlock()
		if err == nil && strings.HasPrefix(h.String(), strings.ToLower(prefix)) {
			return true, nil
		}
	}
	out, err := f.s.git(ctx, nil, nil, "rev-parse", "--disambiguate="+prefix)
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && strings.Contains(ge.stderr, "ambiguous") {
			return true, nil
		}
		return false, nil
	}
	for _, h := range strings.Fields(string(out)) {
		if typ, err := f.s.git(ctx, nil, nil, "cat-file", "-t", h); err == nil && strings.TrimSpace(string(typ)) == "commit" {
			return true, nil
		}
	}
	return false, nil
}

// Subjects calls fn with the name and subject of every commit reachable from
// any ref, newest first: git log --all, read as it comes.
func (f *Facts) Subjects(ctx context.Context, fn func(hash, subject string)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	gitSpawns.Add(1)
	cmd := exec.CommandContext(ctx, "git", "log", "--all", "-z", "--format=%H %s")
	cmd.Dir = f.s.WorkTree
	cmd.Env = append(RepoFreeEnv(), "LC_ALL=C", "GIT_DIR="+f.s.GitDir, "GIT_WORK_TREE="+f.s.WorkTree)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("read history: %w", err)
	}
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		rec, err := r.ReadString(0)
		if rec = strings.TrimSuffix(rec, "\x00"); rec != "" {
			h, subject, _ := strings.Cut(rec, " ")
			fn(h, subject)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read history: %w", err)
		}
	}
	if err := cmd.Wait(); err != nil {
		// An empty repository has no history to walk.
		if head, _, herr := f.s.objects().head(ctx); herr == nil && head == "" {
			return nil
		}
		return fmt.Errorf("read history: %w", err)
	}
	return nil
}
