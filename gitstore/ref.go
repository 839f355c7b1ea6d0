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

// refTxn is one compare-and-swap of HEAD's branch with git update-ref's
// transaction on its standard input (update-ref also writes the reflogs of
// the branch and of HEAD). It is started before the user's index.lock is
// taken, so that the lock is held for the transaction only, not for git's
// start; between prepare and commit, the ref lock files git holds are noted
// in mem's lock, so that should git be stopped there, the next writer knows
// them for mem's (see removeStaleLock).
type refTxn struct {
	s      *Store
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	ended  bool
}

// beginRef starts git update-ref and its transaction.
func (s *Store) beginRef(ctx context.Context, subject string) (*refTxn, error) {
	t := &refTxn{s: s}
	t.cmd = s.gitCommand(ctx, nil, "update-ref", "-m", subject, "--stdin")
	t.cmd.Stderr = &t.stderr
	var err error
	if t.stdin, err = t.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t.out = bufio.NewReader(stdout)
	if err := t.cmd.Start(); err != nil {
		return nil, fmt.Errorf("git update-ref: %w", err)
	}
	io.WriteString(t.stdin, "start\n")
	if !t.ok("start") {
		return nil, t.fail()
	}
	return t, nil
}

func (t *refTxn) ok(verb string) bool {
	line, err := t.out.ReadString('\n')
	return err == nil && line == verb+": ok\n"
}

// fail ends the process and returns its error.
func (t *refTxn) fail() error {
	t.ended = true
	t.stdin.Close()
	io.Copy(io.Discard, t.out)
	err := t.cmd.Wait()
	if err == nil {
		err = errors.New("unexpected answer")
	}
	return &gitError{args: []string{"update-ref"}, stderr: t.stderr.String(), err: err}
}

// update moves HEAD's branch from old ("" for an unborn branch) to commit.
// It fails with errRefMoved when the branch is no longer at old and
// errRefBusy when another process holds its lock. The transaction is over
// either way.
func (t *refTxn) update(ctx context.Context, lock *gitLock, commit, old string) error {
	if old == "" {
		old = strings.Repeat("0", len(commit))
	}
	fmt.Fprintf(t.stdin, "update HEAD %s %s\nprepare\n", commit, old)
	if !t.ok("prepare") {
		return t.s.refError(ctx, t.fail(), old)
	}
	for _, ref := range t.s.refLocks() {
		if fi, err := os.Lstat(ref); err == nil {
			lock.note("ref-lock " + ref + " " + fileID(fi))
		}
	}
	io.WriteString(t.stdin, "commit\n")
	if !t.ok("commit") {
		return t.fail()
	}
	t.end()
	return nil
}

// end closes the transaction: an open one is aborted, as update-ref does
// at the end of its input.
func (t *refTxn) end() {
	if t.ended {
		return
	}
	t.ended = true
	t.stdin.Close()
	io.Copy(io.Discard, t.out)
	t.cmd.Wait()
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
