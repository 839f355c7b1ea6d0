package gitstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mem-dev/mem/internal/text"
)

// Change is the new state of one store file.
type Change struct {
	Path   string // store-relative, slash-separated
	Data   []byte // new content (ignored when Delete)
	Delete bool   // remove the file instead
}

// CommitInfo describes the commit of a change.
type CommitInfo struct {
	Action   string    // required: store, forget, supersede, undo, ...
	Slug     string    // the memory concerned, if one
	Subject  string    // default "mem: <action> <slug>"; put on one line
	Body     string    // optional paragraph(s) between subject and trailers
	Trailers []Trailer // appended after "Mem-Action: <action>", each value put on one line
}

// Trailer is one "Key: value" line at the end of a commit message.
type Trailer struct{ Key, Value string }

// Result is what Apply and Undo did.
type Result struct {
	Commit    string // full hash of the new commit, when Committed
	Committed bool
	// Skipped says why no commit was made (the files were written), as a
	// phrase such as "a merge is in progress"; "" when Committed.
	Skipped string
	// Warning is set when the commit was made but the user's index could not
	// be brought in line (its lock stayed held); `git status` then shows the
	// store paths as changed until `git reset -- <paths>`.
	Warning string
}

// Reasons for not committing, in Result.Skipped.
const (
	SkipNoRepo     = "the store is not in a git repository"
	SkipNoChange   = "nothing changed"
	SkipMerge      = "a merge is in progress"
	SkipRebase     = "a rebase is in progress"
	SkipAm         = "git am is in progress"
	SkipCherryPick = "a cherry-pick is in progress"
	SkipRevert     = "a revert is in progress"
	SkipSequencer  = "a cherry-pick or revert is in progress"
	SkipBisect     = "a bisect is in progress"
	SkipDetached   = "HEAD is detached"
)

// gitSpawns counts git processes started, for tests and benchmarks.
var gitSpawns atomic.Int64

var trailerKey = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

// Apply writes the changes, each atomically, and commits exactly those store
// paths as one commit (see the package doc). The caller holds Lock. When the
// repository is busy (merge, rebase, ...), on a detached HEAD or outside git,
// the files are written and Result.Skipped says why there is no commit. A path
// that escapes the store fails the whole call before anything is written.
func (s *Store) Apply(ctx context.Context, changes []Change, info CommitInfo) (Result, error) {
	msg, subject, err := message(info)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	if len(changes) == 0 {
		return Result{}, errors.New("apply: no changes")
	}
	paths := make([]string, len(changes))
	seen := make(map[string]bool)
	for i, c := range changes {
		clean, err := s.confine(c.Path)
		if err != nil {
			return Result{}, fmt.Errorf("apply: %w", err)
		}
		if seen[clean] {
			return Result{}, fmt.Errorf("apply: %s is changed twice", clean)
		}
		seen[clean] = true
		paths[i] = clean
	}

	if err := os.MkdirAll(s.Root, 0o755); err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	r, err := os.OpenRoot(s.Root)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	defer r.Close()
	for i, c := range changes {
		if c.Delete {
			err = s.remove(r, paths[i])
		} else {
			err = s.writeAtomic(r, paths[i], c.Data)
		}
		if err != nil {
			return Result{}, fmt.Errorf("apply: %w", err)
		}
	}

	if s.WorkTree == "" {
		return Result{Skipped: SkipNoRepo}, nil
	}
	if why, err := s.busy(ctx); err != nil || why != "" {
		if err != nil {
			return Result{}, fmt.Errorf("apply: %w", err)
		}
		return Result{Skipped: why}, nil
	}
	gitPaths := make([]string, len(paths))
	for i, p := range paths {
		gitPaths[i] = s.GitPath(p)
	}
	res, err := s.commit(ctx, gitPaths, msg, subject)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	return res, nil
}

// message builds the commit message and returns it with its subject.
func message(info CommitInfo) (msg, subject string, err error) {
	action := strings.TrimSpace(info.Action)
	if action == "" || strings.ContainsAny(action, " \t\r\n") {
		return "", "", fmt.Errorf("commit action %q must be one word", info.Action)
	}
	subject = text.OneLine(info.Subject)
	if subject == "" {
		subject = text.OneLine("mem: " + action + " " + info.Slug)
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n\n")
	if body := strings.TrimSpace(info.Body); body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	b.WriteString("Mem-Action: " + action + "\n")
	for _, t := range info.Trailers {
		if !trailerKey.MatchString(t.Key) {
			return "", "", fmt.Errorf("trailer key %q is not a token", t.Key)
		}
		if strings.EqualFold(t.Key, "Mem-Action") {
			return "", "", errors.New("trailer Mem-Action is set from the action")
		}
		b.WriteString(t.Key + ": " + text.OneLine(t.Value) + "\n")
	}
	return b.String(), subject, nil
}

// busy says why the repository cannot take a commit now, or "".
func (s *Store) busy(ctx context.Context) (string, error) {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(s.GitDir, name))
		return err == nil
	}
	switch {
	case exists("MERGE_HEAD"):
		return SkipMerge, nil
	case exists("rebase-merge"):
		return SkipRebase, nil
	case exists("rebase-apply/applying"):
		return SkipAm, nil
	case exists("rebase-apply"):
		return SkipRebase, nil
	case exists("CHERRY_PICK_HEAD"):
		return SkipCherryPick, nil
	case exists("REVERT_HEAD"):
		return SkipRevert, nil
	case exists("sequencer"):
		return SkipSequencer, nil
	case exists("BISECT_LOG"):
		return SkipBisect, nil
	}
	head, err := os.ReadFile(filepath.Join(s.GitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	ref, symbolic := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
	if symbolic && ref == "refs/heads/.invalid" { // reftable: ask git
		_, err := s.git(ctx, nil, nil, "symbolic-ref", "-q", "HEAD")
		symbolic = err == nil
	}
	if !symbolic {
		return SkipDetached, nil
	}
	return "", nil
}

// head returns the commit and tree HEAD points to, both "" on an unborn branch.
func (s *Store) head(ctx context.Context) (commit, tree string, err error) {
	out, err := s.git(ctx, nil, []byte("HEAD^{commit}\nHEAD^{tree}\n"), "cat-file", "--batch-check=%(objectname)")
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("git cat-file: unexpected output %q", out)
	}
	if strings.HasSuffix(lines[0], " missing") {
		return "", "", nil
	}
	return lines[0], lines[1], nil
}

// commit makes one commit of HEAD's tree with paths (work-tree relative)
// updated from the work tree, moves the branch with compare-and-swap, and
// updates the user's index for those paths.
func (s *Store) commit(ctx context.Context, paths []string, msg, subject string) (Result, error) {
	if err := os.MkdirAll(s.StateDir(), 0o755); err != nil {
		return Result{}, err
	}
	var rnd [6]byte
	rand.Read(rnd[:])
	tmpIndex := filepath.Join(s.StateDir(), fmt.Sprintf("index.%d.%s.tmp", os.Getpid(), hex.EncodeToString(rnd[:])))
	defer os.Remove(tmpIndex)
	defer os.Remove(tmpIndex + ".lock")
	tmpEnv := []string{"GIT_INDEX_FILE=" + tmpIndex}

	var stdinPaths bytes.Buffer
	for _, p := range paths {
		stdinPaths.WriteString(p)
		stdinPaths.WriteByte(0)
	}

	var (
		old, commit string
		err         error
	)
	// The branch can move under us (a user's commit is not under our lock):
	// update-ref then refuses, and the commit is rebuilt on the new HEAD.
	for attempt := 0; ; attempt++ {
		var tree string
		old, tree, err = s.head(ctx)
		if err != nil {
			return Result{}, err
		}
		os.Remove(tmpIndex)
		if old != "" {
			if _, err := s.git(ctx, tmpEnv, nil, "read-tree", old); err != nil {
				return Result{}, err
			}
		}
		if _, err := s.git(ctx, tmpEnv, stdinPaths.Bytes(), "update-index", "--add", "--remove", "-z", "--stdin"); err != nil {
			return Result{}, err
		}
		out, err := s.git(ctx, tmpEnv, nil, "write-tree")
		if err != nil {
			return Result{}, err
		}
		newTree := strings.TrimSpace(string(out))
		if newTree == tree {
			s.syncIndex(ctx, stdinPaths.Bytes()) // the user may have had other content staged
			return Result{Skipped: SkipNoChange}, nil
		}
		commit, err = s.commitTree(ctx, newTree, old, msg)
		if err != nil {
			return Result{}, err
		}
		_, err = s.git(ctx, nil, nil, "update-ref", "-m", subject, "HEAD", commit, old)
		if err == nil {
			break
		}
		if now, _, herr := s.head(ctx); herr != nil || now == old || attempt == 2 {
			return Result{}, err
		}
	}
	res := Result{Commit: commit, Committed: true}
	if err := s.syncIndex(ctx, stdinPaths.Bytes()); err != nil {
		res.Warning = fmt.Sprintf("committed, but the index was not updated (%v)", err)
	}
	return res, nil
}

// commitTree writes the commit object. The repository's identity is used;
// when none is configured (git's guessing is turned off), mem's own.
func (s *Store) commitTree(ctx context.Context, tree, parent, msg string) (string, error) {
	args := []string{"-c", "user.useConfigOnly=true", "commit-tree", tree}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	out, err := s.git(ctx, nil, []byte(msg), args...)
	if err != nil {
		var ge *gitError
		if !errors.As(err, &ge) || !strings.Contains(ge.stderr, "auto-detection is disabled") {
			return "", err
		}
		var env []string
		for _, kv := range []string{"GIT_AUTHOR_NAME=mem", "GIT_COMMITTER_NAME=mem", "GIT_AUTHOR_EMAIL=mem@localhost", "GIT_COMMITTER_EMAIL=mem@localhost"} {
			if k, _, _ := strings.Cut(kv, "="); os.Getenv(k) == "" {
				env = append(env, kv)
			}
		}
		if out, err = s.git(ctx, env, []byte(msg), args...); err != nil {
			return "", err
		}
	}
	return strings.TrimSpace(string(out)), nil
}

// syncIndex brings the user's index in line with the work tree for exactly
// paths (NUL-terminated, work-tree relative), retrying while another git
// process holds index.lock.
func (s *Store) syncIndex(ctx context.Context, stdinPaths []byte) error {
	wait := 5 * time.Millisecond
	deadline := time.Now().Add(2 * time.Second)
	for {
		_, err := s.git(ctx, nil, stdinPaths, "update-index", "--add", "--remove", "-z", "--stdin")
		var ge *gitError
		if err == nil || !errors.As(err, &ge) || !strings.Contains(ge.stderr, "index.lock") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
