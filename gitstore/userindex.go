package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The user's index is changed the way git changes it: under
// <GitDir>/index.lock, replaced whole by a rename. mem prepares the new
// index without the lock (a hard link of the index, updated by `git
// update-index` through GIT_INDEX_FILE), then takes index.lock only to check
// that the index is still the one it started from, rename the new one into
// place and move the branch. So the index holds a memory before the branch
// does, and a `git commit` (which holds index.lock from start to end) never
// runs between the two: the user's next commit cannot delete what mem just
// committed, and mem holds the lock no longer than one update-ref.

// indexLockWait is how long a commit waits for another git process to
// release index.lock before it leaves the write pending.
var indexLockWait = 3 * time.Second

var (
	errIndexBusy  = errors.New("another git process holds the index (index.lock)")
	errIndexMoved = errors.New("the index changed while the commit was prepared")
)

// preparedIndex is a copy of the user's index with the store paths updated
// from the work tree, not yet in place. While git update-index still runs
// on it (startIndex), proc is that process, waiting for the paths.
type preparedIndex struct {
	index, tmp string
	had        bool        // the index existed when it was copied
	was        os.FileInfo // the index as it was copied
	proc       *exec.Cmd
	paths      io.WriteCloser // proc's standard input
	stderr     bytes.Buffer
	states     []pathState // of the paths Apply read before it wrote them
}

// prepareIndex copies the user's index and brings paths (git paths) in line
// with the work tree in the copy.
func (s *Store) prepareIndex(ctx context.Context, paths []string) (*preparedIndex, error) {
	p, err := s.startIndex(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.stage(paths); err != nil {
		p.discard()
		return nil, err
	}
	return p, nil
}

// startIndex copies the user's index and starts git update-index on the
// copy, which starts and reads it while the caller goes on; stage gives it
// the paths. Apply starts one before it writes and syncs the files.
func (s *Store) startIndex(ctx context.Context) (*preparedIndex, error) {
	p := &preparedIndex{
		index: s.indexPath(),
		tmp:   filepath.Join(s.GitDir, tempName("mem-index", ".tmp")),
	}
	if err := os.Link(p.index, p.tmp); err == nil {
		// The link is the index's own file: git replaces the index by a
		// rename, never in place, so this file stays as it was.
		if p.was, err = os.Stat(p.tmp); err != nil {
			p.discard()
			return nil, fmt.Errorf("copy the index: %w", err)
		}
		p.had = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		// A file system without hard links: copy, and check that the index
		// did not change while it was copied.
		was, err := os.Stat(p.index)
		if err == nil {
			err = copyFile(p.index, p.tmp)
		}
		if err != nil {
			p.discard()
			return nil, fmt.Errorf("copy the index: %w", err)
		}
		p.was, p.had = was, true
		if p.changed() {
			p.discard()
			return nil, errIndexMoved
		}
	}
	p.proc = s.gitCommand(ctx, []string{"GIT_INDEX_FILE=" + p.tmp}, updateIndex...)
	p.proc.Stderr = &p.stderr
	var err error
	if p.paths, err = p.proc.StdinPipe(); err == nil {
		err = p.proc.Start()
	}
	if err != nil {
		p.proc = nil
		p.discard()
		return nil, fmt.Errorf("git update-index: %w", err)
	}
	return p, nil
}

// updateIndex is the update-index that stages the paths it reads.
var updateIndex = []string{"update-index", "--add", "--remove", "-z", "--stdin"}

// stage gives the started update-index the paths and waits for it.
func (p *preparedIndex) stage(paths []string) error {
	var b bytes.Buffer
	for _, path := range paths {
		b.WriteString(path)
		b.WriteByte(0)
	}
	_, werr := p.paths.Write(b.Bytes())
	p.paths.Close()
	err := p.proc.Wait()
	p.proc = nil
	if err != nil {
		return &gitError{args: updateIndex, stderr: p.stderr.String(), err: err}
	}
	if werr != nil {
		return fmt.Errorf("git update-index: %w", werr)
	}
	return nil
}

func sameStamp(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// changed reports whether the user's index is no longer the one copied.
func (p *preparedIndex) changed() bool {
	fi, err := os.Stat(p.index)
	if !p.had {
		return err == nil
	}
	return err != nil || !os.SameFile(fi, p.was) || !sameStamp(fi, p.was)
}

// install puts the prepared index in place and returns the file it put
// there; the caller holds index.lock.
func (p *preparedIndex) install() (os.FileInfo, error) {
	fi, err := os.Stat(p.tmp)
	if err == nil {
		err = os.Rename(p.tmp, p.index)
	}
	if err != nil {
		return nil, fmt.Errorf("update the index: %w", err)
	}
	return fi, nil
}

func (p *preparedIndex) discard() {
	if p.proc != nil { // started, never given paths: it stages none
		p.paths.Close()
		p.proc.Wait()
		p.proc = nil
	}
	os.Remove(p.tmp)
	os.Remove(p.tmp + ".lock")
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		os.Remove(to)
		return err
	}
	return dst.Close()
}

// gitLock is a git lock file that mem holds: <path>.lock, created whole
// with a hard link so that it never exists without its content, which names
// mem's process ("mem-lock pid=N start=S"). Git never reads the content of
// an index.lock it did not take, and git's own lock files never hold this
// line, so a lock with it is provably mem's; when its process is gone it is
// stale and the next writer removes it.
type gitLock struct {
	path     string
	released bool
}

const lockMagic = "mem-lock"

// lockLine is what mem writes in a lock it holds.
func lockLine() string {
	return fmt.Sprintf("%s pid=%d start=%s\n", lockMagic, os.Getpid(), processStart(os.Getpid()))
}

// takeLock takes <target>.lock, waiting while another process holds it,
// until until; a stale lock of mem's is removed on the way. It fails with
// errIndexBusy when the lock stayed held.
func (s *Store) takeLock(ctx context.Context, target string, until time.Time) (*gitLock, error) {
	l := &gitLock{path: target + ".lock"}
	tmp := filepath.Join(filepath.Dir(target), tempName("mem-lock", ".tmp"))
	if err := os.WriteFile(tmp, []byte(lockLine()), 0o644); err != nil {
		return nil, fmt.Errorf("lock %s: %w", target, err)
	}
	defer os.Remove(tmp)
	wait := time.Millisecond
	for {
		err := os.Link(tmp, l.path)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", target, err)
		}
		if removeStaleLock(l.path) {
			continue
		}
		if time.Now().After(until) {
			return nil, errIndexBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait/2 + rand.N(wait)):
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// note appends a line to the lock's content: what mem is doing under it.
func (l *gitLock) note(line string) {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return
	}
	f.WriteString(line + "\n")
	f.Close()
}

// release removes the lock, once: a second call must not remove the lock
// another process has taken since.
func (l *gitLock) release() {
	if !l.released {
		l.released = true
		os.Remove(l.path)
	}
}

// lockRecord is what a lock of mem's says: its process and the ref lock
// files taken under it, each as "path dev:ino:mtime".
type lockRecord struct {
	pid   int
	start string
	refs  map[string]string
}

func parseLockRecord(data []byte) (lockRecord, bool) {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	f := strings.Fields(lines[0])
	if len(f) != 3 || f[0] != lockMagic {
		return lockRecord{}, false
	}
	pid, err := strconv.Atoi(strings.TrimPrefix(f[1], "pid="))
	if err != nil || pid <= 0 {
		return lockRecord{}, false
	}
	r := lockRecord{pid: pid, start: strings.TrimPrefix(f[2], "start="), refs: map[string]string{}}
	for _, line := range lines[1:] {
		if path, id, ok := strings.Cut(strings.TrimPrefix(line, "ref-lock "), " "); ok && strings.HasPrefix(line, "ref-lock ") {
			r.refs[path] = id
		}
	}
	return r, true
}

// removeStaleLock removes the lock at path when it is mem's and its process
// is gone, with the ref lock files it records that are still the same
// files (git's update-ref took them under it and was stopped before it could
// remove them). It reports whether it removed the lock. A lock of git's,
// or of a live mem, is never touched.
func removeStaleLock(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist) // gone meanwhile: try again
	}
	rec, ok := parseLockRecord(data)
	if !ok || processAlive(rec.pid, rec.start) {
		return false
	}
	for ref, id := range rec.refs {
		if fi, err := os.Lstat(ref); err == nil && fileID(fi) == id {
			os.Remove(ref)
		}
	}
	return os.Remove(path) == nil
}
