package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mem-dev/mem/internal/lazyregexp"
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
	Action   string    // required: one of the Action constants (ActionStore, ...)
	Slug     string    // the memory concerned, if one
	Subject  string    // default "mem: <action> <slug>"; put on one line
	Body     string    // optional paragraph(s) between subject and trailers
	Trailers []Trailer // appended after "Mem-Action: <action>", each value put on one line

	// Meanwhile, when set, runs once the files are on disk, beside their
	// commit, which mostly waits on git processes; Apply returns after
	// both. It is not called when the files could not be written. mem
	// refreshes its search cache there: that needs the files, not the
	// commit.
	Meanwhile func()
}

// Trailer is one "Key: value" line at the end of a commit message.
type Trailer struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Result is what Apply and Undo did.
type Result struct {
	Commit    string `json:"commit,omitempty"` // full hash of the new commit, when Committed
	Committed bool   `json:"committed"`
	// Skipped says why no commit was made (the files were written), as a
	// phrase such as "a merge is in progress"; "" when Committed.
	Skipped string `json:"skipped,omitempty"`
	// Pending is set with Skipped when the write is kept to be committed,
	// with its own message, by the next Apply or Flush (git was busy, or
	// the repository could not take a commit).
	Pending bool `json:"pending,omitempty"`
	// Earlier lists the commits made first, of writes an earlier Apply had
	// left pending.
	Earlier []string `json:"earlier,omitempty"`
	// Warning says what the user should know although the write went
	// through, e.g. an earlier pending write that could not be committed.
	Warning string `json:"warning,omitempty"`
}

// Reasons for not committing, in Result.Skipped.
const (
	SkipNoRepo      = "the store is not in a git repository"
	SkipNoChange    = "nothing changed"
	SkipMerge       = "a merge is in progress"
	SkipRebase      = "a rebase is in progress"
	SkipAm          = "git am is in progress"
	SkipCherryPick  = "a cherry-pick is in progress"
	SkipRevert      = "a revert is in progress"
	SkipSequencer   = "a cherry-pick or revert is in progress"
	SkipBisect      = "a bisect is in progress"
	SkipDetached    = "HEAD is detached"
	SkipIndexLocked = "another git process holds the index (.git/index.lock)"
	SkipBranchBusy  = "the branch kept moving under mem (other commits or a held ref lock)"
)

// gitSpawns counts git processes started, for tests and benchmarks.
var gitSpawns atomic.Int64

var trailerKey = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

// optimisticAttempts is how many times a commit prepares the user's index
// without holding its lock before it holds the lock throughout.
const optimisticAttempts = 6

// commitTimeout bounds the retries of one commit while the branch moves
// under it (the user committing meanwhile) or git holds a ref lock.
var commitTimeout = 10 * time.Second

// Apply writes the changes, each atomically, and commits exactly those store
// paths as one commit (see the package doc). The caller holds Lock. When the
// repository is busy (merge, rebase, ...), on a detached HEAD or while another
// git process keeps the index locked, the files are written, the write is kept
// pending (Result.Pending) and Result.Skipped says why there is no commit; the
// next Apply or Flush commits it. Outside git the files are written and never
// committed. A path that escapes the store, or content that Check refuses,
// fails the whole call before anything is written; so does a file or the
// journal that cannot be written (each file's content is written and synced
// beside it before any is put in place).
func (s *Store) Apply(ctx context.Context, changes []Change, info CommitInfo) (Result, error) {
	msg, subject, err := message(info)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	if len(changes) == 0 {
		return Result{}, errors.New("apply: no changes")
	}
	if err := precondition(ctx); err != nil {
		return Result{}, err
	}
	if s.Also != nil {
		changes = append(changes[:len(changes):len(changes)], s.Also(changes)...)
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
	for i, c := range changes {
		if !c.Delete {
			if err := s.vet(s.GitPath(paths[i]), c.Data); err != nil {
				return Result{}, err
			}
		}
	}
	if s.Check != nil {
		if err := s.Check("", []byte(msg)); err != nil {
			return Result{}, err
		}
	}
	if s.WorkTree != "" {
		// Without git nothing can be committed: refuse before anything is
		// written, so that no write waits on a git that is not there.
		if _, err := exec.LookPath("git"); err != nil {
			return Result{}, errors.New("git is not on PATH: mem commits every write with git; install git or put it on PATH")
		}
	}

	if err := os.MkdirAll(s.Root, 0o755); err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	r, err := os.OpenRoot(s.Root)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	defer r.Close()
	// The new contents are written and synced beside their files while the
	// journal is: only putting them in place waits for it.
	staging := inBackground(func() ([]staged, error) { return s.stageAll(r, changes, paths) })
	var mine string
	var early earlyIndex
	var cleaned func()
	if s.WorkTree != "" {
		// git update-index starts, and reads the index, meanwhile too.
		early.wait = inBackground(func() (*preparedIndex, error) { return s.startIndex(ctx) })
		defer early.discard()
		// So does the removal of what a killed mem left (it lists the
		// store's directory), which must be done before the commit takes
		// index.lock; it leaves this process's own files alone.
		cleaned = alongside(func() { s.removeStale(touchedDirs(s.Root, paths)) })
		p := pending{Root: s.Root, Message: msg, Subject: subject}
		for i, c := range changes {
			pp := pendingPath{Path: paths[i], Delete: c.Delete, Before: s.sumOf(r, paths[i])}
			if !c.Delete {
				pp.Data = c.Data
			}
			p.Paths = append(p.Paths, pp)
		}
		// The journal first: a write is never in place without it.
		if mine, err = s.addPending(p); err != nil {
			if sts, err := staging(); err == nil {
				discardAll(r, sts)
			}
			return Result{}, fmt.Errorf("apply: %w", err)
		}
	}
	sts, err := staging()
	if err == nil && s.WorkTree != "" {
		err = s.refuseIndexState(ctx, r, changes, paths, &early)
		if err != nil {
			discardAll(r, sts)
		}
	}
	if err != nil {
		if mine != "" {
			s.removePending(mine) // nothing was written
		}
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	for i, c := range changes {
		if c.Delete {
			err = s.remove(r, paths[i])
		} else {
			err = s.install(r, sts[i])
		}
		if err != nil {
			if mine != "" && i == 0 {
				s.removePending(mine) // nothing was written
			}
			discardAll(r, sts[i+1:])
			return Result{}, fmt.Errorf("apply: %w", err)
		}
	}
	if info.Meanwhile != nil {
		defer alongside(info.Meanwhile)() // started now, waited for on return
	}
	if s.WorkTree == "" {
		return Result{Skipped: SkipNoRepo}, nil
	}
	cleaned()
	res, err := s.commitPending(ctx, mine, &early)
	if err != nil {
		return Result{}, fmt.Errorf("apply: %w", err)
	}
	return res, nil
}

// stageAll stages the new content of each change that is no deletion (see
// stage), at the change's index; on an error it leaves none staged.
func (s *Store) stageAll(r *os.Root, changes []Change, paths []string) ([]staged, error) {
	sts := make([]staged, len(changes))
	for i, c := range changes {
		if c.Delete {
			continue
		}
		st, err := s.stage(r, paths[i], c.Data)
		if err != nil {
			discardAll(r, sts[:i])
			return nil, err
		}
		sts[i] = st
	}
	return sts, nil
}

func discardAll(r *os.Root, sts []staged) {
	for _, st := range sts {
		st.discard(r)
	}
}

// earlyIndex hands the index copy that Apply started before it wrote the
// files (startIndex) to the first commit attempt.
type earlyIndex struct {
	wait func() (*preparedIndex, error)
}

// take returns the started copy the first time, nil after that, when none
// was started, or when it could not be.
func (e *earlyIndex) take() *preparedIndex {
	if e == nil || e.wait == nil {
		return nil
	}
	ix, err := e.wait()
	e.wait = nil
	if err != nil {
		return nil // the attempt prepares its own
	}
	return ix
}

// peek returns the started copy without taking it, nil when there is none.
func (e *earlyIndex) peek() *preparedIndex {
	if e == nil || e.wait == nil {
		return nil
	}
	ix, err := e.wait()
	if err != nil {
		return nil
	}
	return ix
}

// discard ends a copy that no attempt took.
func (e *earlyIndex) discard() {
	if ix := e.take(); ix != nil {
		ix.discard()
	}
}

// Flush commits the writes that earlier calls of Apply left pending, each
// as the commit it was meant to be. The caller holds Lock. With nothing
// pending it does nothing and returns a zero Result.
func (s *Store) Flush(ctx context.Context) (Result, error) {
	if s.WorkTree == "" {
		return Result{}, nil
	}
	res, err := s.commitPending(ctx, "", nil)
	if err != nil {
		return Result{}, fmt.Errorf("flush: %w", err)
	}
	return res, nil
}

// touchedDirs lists the store directories that hold paths, once each.
func touchedDirs(root string, paths []string) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range paths {
		d := filepath.Join(root, filepath.FromSlash(path.Dir(p)))
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// commitPending commits the store's pending writes, oldest first, and
// returns the Result of the one named mine (all of them when mine is ""). The
// first attempt uses early's index copy, if one was started. A write that
// cannot be committed stays pending, its files in place, and the Result says
// why (Skipped, for mine; Warning, for an earlier one): it is committed once
// the cause is gone, and dropped never.
func (s *Store) commitPending(ctx context.Context, mine string, early *earlyIndex) (Result, error) {
	ps, err := s.loadPending()
	if err != nil {
		return Result{}, err
	}
	if len(ps) == 0 {
		return Result{}, nil
	}
	if why, err := s.busy(ctx); err != nil || why != "" {
		if err != nil {
			why = "git's state cannot be read: " + err.Error()
		}
		return Result{Skipped: why, Pending: true}, nil
	}
	last := mine // whose Result is returned
	if last == "" {
		last = ps[len(ps)-1].name
	}
	var res Result
	var earlier, warnings []string
	for _, p := range ps {
		r, err := s.commitOne(ctx, p, early)
		if err != nil {
			if ctx.Err() != nil {
				return Result{Skipped: "interrupted: " + ctx.Err().Error(), Pending: true, Earlier: earlier, Warning: strings.Join(warnings, "; ")}, nil
			}
			if p.name == last {
				res = Result{Skipped: "it could not be committed: " + err.Error(), Pending: true}
			} else {
				warnings = append(warnings, fmt.Sprintf("a write left uncommitted earlier (%s) still cannot be committed and stays pending: %v", p.Subject, err))
			}
			continue
		}
		if r.Warning != "" {
			warnings = append(warnings, r.Warning)
		}
		if r.Pending {
			// Git is busy: this write and every later one stay pending, in order.
			res = Result{Skipped: r.Skipped, Pending: true}
			break
		}
		s.removePending(p.name)
		if p.name == last {
			res = r
		} else if r.Committed {
			earlier = append(earlier, r.Commit)
		}
	}
	res.Earlier = earlier
	res.Warning = strings.Join(warnings, "; ")
	return res, nil
}

// commitOne makes the commit of one pending write from the files as they are
// on disk: a path written is committed if it exists, a path removed if it does
// not (whatever else happened to it is not this write's). A path that git put
// back as it was before the write (git reset --hard, git rebase --abort, a
// checkout) gets the write again first, and the Result's Warning says so.
func (s *Store) commitOne(ctx context.Context, p pending, early *earlyIndex) (Result, error) {
	redone, err := s.redo(p)
	if err != nil {
		return Result{}, err
	}
	var gitPaths []string
	for _, pp := range p.Paths {
		_, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(pp.Path)))
		if exists := err == nil; exists != pp.Delete {
			gitPaths = append(gitPaths, s.GitPath(pp.Path))
		}
	}
	res, err := s.commitPaths(ctx, p, gitPaths, early)
	if err == nil && len(redone) > 0 {
		res.Warning = fmt.Sprintf("git had undone a write that was not committed yet (%s: %s), as git reset --hard or git rebase --abort do; mem wrote it again", p.Subject, strings.Join(redone, ", "))
	}
	return res, err
}

// redo writes again each path of p that git has put back to what it was
// before p's write, and returns them (store-relative).
func (s *Store) redo(p pending) ([]string, error) {
	r, err := os.OpenRoot(s.Root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var redone []string
	for _, pp := range p.Paths {
		if pp.Before == "" || (!pp.Delete && pp.Data == nil) {
			continue // a new file, or a record without its content
		}
		cur, err := r.ReadFile(pp.Path)
		if err != nil || sum(cur) != pp.Before || (!pp.Delete && bytes.Equal(cur, pp.Data)) {
			continue
		}
		if pp.Delete {
			err = s.remove(r, pp.Path)
		} else {
			var st staged
			if st, err = s.stage(r, pp.Path, pp.Data); err == nil {
				if err = s.install(r, st); err != nil {
					st.discard(r)
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("write %s again: %w", pp.Path, err)
		}
		redone = append(redone, pp.Path)
	}
	return redone, nil
}

// commitPaths commits gitPaths as p's commit, retrying while the user's
// git moves the index or the branch.
func (s *Store) commitPaths(ctx context.Context, p pending, gitPaths []string, early *earlyIndex) (Result, error) {
	if len(gitPaths) == 0 {
		return Result{Skipped: SkipNoChange}, nil
	}
	obj := s.objects()
	deadline := time.Now().Add(commitTimeout)
	wait := time.Millisecond
	for attempt := 0; ; attempt++ {
		// The first attempts prepare the index without its lock and take
		// the lock only to install it; should the user's git keep changing
		// the index meanwhile, the later ones hold the lock throughout.
		commit, err := s.commitAttempt(ctx, obj, deadline, gitPaths, p, attempt >= optimisticAttempts, early)
		switch {
		case err == nil && commit == "":
			return Result{Skipped: SkipNoChange}, nil
		case err == nil:
			return Result{Commit: commit, Committed: true}, nil
		case errors.Is(err, errIndexBusy):
			return Result{Skipped: SkipIndexLocked, Pending: true}, nil
		case errors.Is(err, errIndexMoved), errors.Is(err, errRefMoved), errors.Is(err, errRefBusy):
			// The user's git changed the index or the branch meanwhile:
			// again from what they are now, until the deadline.
			if time.Now().After(deadline) {
				return Result{Skipped: SkipBranchBusy, Pending: true}, nil
			}
			select {
			case <-ctx.Done():
				return Result{}, ctx.Err()
			case <-time.After(wait/2 + rand.N(wait)):
			}
			wait = min(2*wait, 50*time.Millisecond)
		default:
			return Result{}, err
		}
	}
}

// commitAttempt makes one try at the commit of p's paths: it prepares the
// user's index, builds the commit on HEAD, and installs both under the
// index's lock, which it takes first when lockFirst is set. It returns the
// commit, "" when there was nothing to commit. It stages the paths in early's
// copy of the index when that is still to be taken.
func (s *Store) commitAttempt(ctx context.Context, obj objects, deadline time.Time, gitPaths []string, p pending, lockFirst bool, early *earlyIndex) (string, error) {
	var lock *gitLock
	var txn *refTxn
	// git update-ref starts first, in a process of its own, while the index
	// and the objects are made; the commit is built while git update-index
	// stages the paths (guessCommit).
	began := inBackground(func() (*refTxn, error) { return s.beginRef(ctx, p.Subject) })
	defer func() {
		if t, err := began(); err == nil {
			t.end() // not used, or ended already
		}
	}()
	if lockFirst {
		// Under the lock, only the swap: update-ref has started before it.
		var err error
		if txn, err = began(); err != nil {
			return "", err
		}
		if lock, err = s.lockIndex(ctx, deadline); err != nil {
			return "", err
		}
		defer lock.release()
	}
	guessing := inBackground(func() (guess, error) { return s.guessCommit(ctx, obj, gitPaths, p.Message) })
	var err error
	ix := early.take()
	if ix == nil {
		ix, err = s.startIndex(ctx)
	}
	if err == nil {
		if err = s.stageStates(ctx, obj, ix, gitPaths); err != nil {
			ix.discard()
		}
	}
	g, gerr := guessing() // the objects are this goroutine's alone again
	if err != nil {
		return "", err
	}
	defer ix.discard()
	entries, err := s.entries(ctx, obj, ix.tmp, gitPaths)
	if err != nil {
		return "", err
	}
	commit, old := g.commit, g.old
	if gerr != nil || !slices.Equal(g.entries, entries) {
		if commit, old, err = s.commitOn(ctx, obj, entries, p.Message); err != nil {
			return "", err
		}
	}
	if commit != "" && txn == nil {
		if txn, err = began(); err != nil {
			return "", err
		}
	}
	defer func() {
		if txn != nil {
			txn.end() // the last one begun, should the branch have moved
		}
	}()
	if lock == nil {
		if lock, err = s.lockIndex(ctx, deadline); err != nil {
			return "", err
		}
		defer lock.release()
	}
	if ix.changed() {
		return "", errIndexMoved
	}
	mine, err := ix.install()
	if err != nil {
		return "", err
	}
	// The index holds the paths now. The branch may still move under the
	// lock: git commit releases index.lock just before it moves the branch,
	// and a ref can move without the index. So the commit is built again on
	// the branch as it is, still under the lock, where no commit of the
	// user's can start and take in the staged paths.
	installed := time.Now()
	wait := time.Millisecond
	for commit != "" {
		err := txn.update(ctx, lock, commit, old)
		if err == nil {
			lock.release()
			s.settle(ctx, obj, ix.index, mine, entries, installed)
			return commit, nil
		}
		if !errors.Is(err, errRefMoved) && !errors.Is(err, errRefBusy) || time.Now().After(deadline) {
			return commit, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 20*time.Millisecond)
		if commit, old, err = s.commitOn(ctx, obj, entries, p.Message); err != nil {
			return "", err
		}
		if commit != "" {
			if txn, err = s.beginRef(ctx, p.Subject); err != nil {
				return "", err
			}
		}
	}
	return "", nil
}

// settleWait bounds how long a commit waits for the git processes that
// were running when it changed the user's index.
var settleWait = 2 * time.Second

// settle guards a commit against git's own lost update: git commit reads the
// index before it takes index.lock (builtin/commit.c, prepare_index), so a
// commit of the user's already under way when mem installed its index can
// write back the index it read, without mem's paths, and then fail to move
// the branch mem moved: the user's next commit would delete them. settle
// waits for the git processes in the work tree that started before the
// install to end, and when the index no longer holds the committed entries
// while HEAD still does, it puts them back, under index.lock. While the
// index is still mine, the file the commit installed, it holds them: it is
// not read again (git replaces an index by a rename, never in place).
func (s *Store) settle(ctx context.Context, obj objects, index string, mine os.FileInfo, entries []entry, installed time.Time) {
	until := time.Now().Add(settleWait)
	for pids := gitsStartedBefore(s.WorkTree, installed); len(pids) > 0 && time.Now().Before(until); pids = gitsStartedBefore(s.WorkTree, installed) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Millisecond):
		}
	}
	if fi, err := os.Stat(index); err == nil && os.SameFile(fi, mine) && sameStamp(fi, mine) {
		return
	}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.Path
	}
	now, err := obj.indexEntries(ctx, index, paths)
	if err != nil || slices.Equal(now, entries) {
		return
	}
	_, tree, err := obj.head(ctx)
	if err != nil {
		return
	}
	if t, err := obj.writeTree(ctx, tree, entries); err != nil || t != tree {
		return // HEAD moved on without them: not this commit's to mend
	}
	lock, err := s.lockIndex(ctx, time.Now().Add(indexLockWait))
	if err != nil {
		return
	}
	defer lock.release()
	ix, err := s.prepareIndex(ctx, paths)
	if err != nil {
		return
	}
	defer ix.discard()
	ix.install()
}

// lockIndex takes the user's index.lock, waiting at most indexLockWait and
// never past deadline.
func (s *Store) lockIndex(ctx context.Context, deadline time.Time) (*gitLock, error) {
	until := time.Now().Add(indexLockWait)
	if deadline.Before(until) {
		until = deadline
	}
	return s.takeLock(ctx, s.indexPath(), until)
}

// entries reads paths from the prepared index, and shows what a commit is
// about to hold to Check.
func (s *Store) entries(ctx context.Context, obj objects, index string, paths []string) ([]entry, error) {
	entries, err := obj.indexEntries(ctx, index, paths)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Mode == 0 {
			continue
		}
		blobs, err := obj.readBlobs(ctx, []string{e.Hash})
		if err != nil {
			return nil, err
		}
		if err := s.vet(e.Path, blobs[0]); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// guess is a commit built on the entries mem expects git to stage.
type guess struct {
	entries     []entry
	commit, old string
}

// errNoGuess: the objects cannot name a blob without a git process.
var errNoGuess = errors.New("no guess without a git process")

// guessCommit builds the commit of gitPaths as git would stage the files
// as they are on disk, unfiltered, as regular files. commitAttempt runs it
// while git update-index stages them, in a process of its own, and keeps
// it only when the entries git staged are the ones guessed (an attribute's
// filter or line-ending conversion, a mode, make them differ); the objects
// of a wrong guess are left for git gc.
func (s *Store) guessCommit(ctx context.Context, obj objects, gitPaths []string, msg string) (guess, error) {
	var g guess
	for _, gp := range gitPaths {
		data, err := os.ReadFile(filepath.Join(s.WorkTree, filepath.FromSlash(gp)))
		if errors.Is(err, fs.ErrNotExist) {
			g.entries = append(g.entries, entry{Path: gp})
			continue
		}
		if err != nil {
			return guess{}, err
		}
		name, known := obj.blobName(data)
		if !known {
			return guess{}, errNoGuess
		}
		g.entries = append(g.entries, entry{Path: gp, Mode: 0o100644, Hash: name})
	}
	var err error
	g.commit, g.old, err = s.commitOn(ctx, obj, g.entries, msg)
	return g, err
}

// alongside runs f in a goroutine of its own and returns the wait for it.
func alongside(f func()) (wait func()) {
	done := inBackground(func() (struct{}, error) { f(); return struct{}{}, nil })
	return func() { done() }
}

// inBackground runs f in a goroutine of its own and returns the wait for
// its result; waiting again returns the same result.
func inBackground[T any](f func() (T, error)) func() (T, error) {
	var v T
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		v, err = f()
	}()
	return func() (T, error) {
		<-done
		return v, err
	}
}

// commitOn writes the commit of HEAD's tree with entries applied, and
// returns it with the HEAD it is built on; commit is "" when the tree is
// HEAD's already.
func (s *Store) commitOn(ctx context.Context, obj objects, entries []entry, msg string) (commit, old string, err error) {
	old, oldTree, err := obj.head(ctx)
	if err != nil {
		return "", "", err
	}
	tree, err := obj.writeTree(ctx, oldTree, entries)
	if err != nil {
		return "", "", err
	}
	if tree == oldTree {
		return "", old, nil
	}
	commit, err = obj.writeCommit(ctx, tree, old, msg)
	return commit, old, err
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
	b.WriteString(TrailerAction + ": " + action + "\n")
	for _, t := range info.Trailers {
		if !trailerKey.MatchString(t.Key) {
			return "", "", fmt.Errorf("trailer key %q is not a token", t.Key)
		}
		if strings.EqualFold(t.Key, TrailerAction) {
			return "", "", errors.New("trailer " + TrailerAction + " is set from the action")
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
