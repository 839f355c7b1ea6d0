package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

var (
	errRefMoved = errors.New("the branch moved")
	errRefBusy  = errors.New("another git process holds the branch's lock")
)

// updateRef moves HEAD's branch from old ("" for an unborn branch) to commit,
// with git's compare-and-swap (git update-ref, which also writes the reflogs
// of the branch and of HEAD). It runs update-ref's transaction on its
// standard input so that, between prepare and commit, the ref lock files git
// holds are noted in lock: should git be stopped there, the next writer
// knows them for mem's (see removeStaleLock). It fails with errRefMoved when
// the branch is no longer at old and errRefBusy when another process holds
// its lock.
func (s *Store) updateRef(ctx context.Context, lock *gitLock, subject, commit, old string) error {
	if old == "" {
		old = strings.Repeat("0", len(commit))
	}
	gitSpawns.Add(1)
	cmd := exec.CommandContext(ctx, "git", "-c", "core.hooksPath="+os.DevNull, "update-ref", "-m", subject, "--stdin")
	cmd.Dir = s.WorkTree
	cmd.Env = append(RepoFreeEnv(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_DIR="+s.GitDir, "GIT_WORK_TREE="+s.WorkTree)
	detach(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git update-ref: %w", err)
	}
	out := bufio.NewReader(stdout)
	ok := func(verb string) bool {
		line, err := out.ReadString('\n')
		return err == nil && line == verb+": ok\n"
	}
	fail := func() error {
		stdin.Close()
		io.Copy(io.Discard, out)
		werr := cmd.Wait()
		return s.refError(ctx, &gitError{args: []string{"update-ref"}, stderr: stderr.String(), err: werr}, old)
	}
	fmt.Fprintf(stdin, "start\nupdate HEAD %s %s\nprepare\n", commit, old)
	if !ok("start") || !ok("prepare") {
		return fail()
	}
	for _, ref := range s.refLocks() {
		if fi, err := os.Lstat(ref); err == nil {
			lock.note("ref-lock " + ref + " " + fileID(fi))
		}
	}
	io.WriteString(stdin, "commit\n")
	if !ok("commit") {
		return fail()
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return &gitError{args: []string{"update-ref"}, stderr: stderr.String(), err: err}
	}
	return nil
}

// refError classifies a failed update-ref.
func (s *Store) refError(ctx context.Context, err error, old string) error {
	now, _, herr := s.objects().head(ctx)
	if herr == nil && now != old && !(now == "" && strings.Trim(old, "0") == "") {
		return errRefMoved
	}
	var ge *gitError
	if errors.As(err, &ge) && strings.Contains(ge.stderr, ".lock': File exists") {
		return errRefBusy
	}
	return err
}

// refLocks are the lock files git's files backend takes to move HEAD's
// branch: HEAD.lock (for HEAD's reflog) and the branch's own.
func (s *Store) refLocks() []string {
	locks := []string{filepath.Join(s.GitDir, "HEAD.lock")}
	head, err := os.ReadFile(filepath.Join(s.GitDir, "HEAD"))
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); err == nil && ok && strings.HasPrefix(ref, "refs/") {
		locks = append(locks, filepath.Join(s.CommonDir, filepath.FromSlash(ref))+".lock")
	}
	return locks
}
