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
	"strconv"
	"strings"
	"time"
)

// entry is one path of the index or of a tree: its mode and object, as git
// names them. A zero Mode means the path is absent (a removal).
type entry struct {
	Path string // slash-separated, from the top of the work tree
	Mode uint32 // 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (gitlink)
	Hash string // hex object name
}

// objects is every read and write of the repository's objects and refs that
// gitstore makes, except the two that stay with the git command in every
// implementation: the compare-and-swap update of the branch (update-ref,
// which writes the reflog and honours the ref backend) and the update of the
// user's index (update-index, which keeps the index's extensions). Two
// implementations: cliObjects, git's own plumbing, the reference that works
// for any repository git can read; and goGitObjects, in process, for the
// repositories go-git can open (SHA-1, no extension it does not know). One
// conformance suite (objects_test.go) runs against both.
type objects interface {
	// head resolves HEAD to its commit and that commit's tree; both are ""
	// on an unborn branch.
	head(ctx context.Context) (commit, tree string, err error)
	// indexEntries reads paths from the index file at index: one entry per
	// path, with a zero Mode for a path the index does not hold.
	indexEntries(ctx context.Context, index string, paths []string) ([]entry, error)
	// indexStates reads what the index file at index says of paths beyond
	// their content (pathState), one per path, in order.
	indexStates(ctx context.Context, index string, paths []string) ([]pathState, error)
	// writeTree writes the tree of base ("" for the empty tree) with each
	// entry set, or removed when its Mode is zero, and returns its name.
	writeTree(ctx context.Context, base string, entries []entry) (string, error)
	// writeCommit writes a commit of tree on parent ("" for a root commit)
	// with the repository's identity (mem's own when none is configured).
	writeCommit(ctx context.Context, tree, parent, msg string) (string, error)
	// readCommit reads one commit; rev may be any revision git resolves.
	readCommit(ctx context.Context, rev string) (commitObject, error)
	// diffTree lists the paths whose entries differ between two trees
	// ("" is the empty tree), recursively, in path order.
	diffTree(ctx context.Context, from, to string) ([]change, error)
	// readBlobs reads blobs by name, in order.
	readBlobs(ctx context.Context, hashes []string) ([][]byte, error)
	// blobName is the name of data as a blob, when the implementation
	// knows it without a git process (false otherwise).
	blobName(data []byte) (string, bool)
	// close releases what the implementation holds open.
	close()
}

// pathState is what the index says of a path that decides whether git
// update-index can stage it from the work tree as it is: update-index takes
// a path marked skip-worktree for absent (and removes it), skips one marked
// assume-unchanged, and takes a conflicted path for resolved.
type pathState struct {
	Path            string
	Tracked         bool // the index holds the path, at any stage
	Unmerged        bool // it holds a conflict (stages 1-3)
	SkipWorktree    bool
	AssumeUnchanged bool
}

// with is p with the stage and flags of one more of its index entries.
func (p pathState) with(unmerged, assumeUnchanged, skipWorktree bool) pathState {
	p.Tracked = true
	p.Unmerged = p.Unmerged || unmerged
	p.AssumeUnchanged = p.AssumeUnchanged || assumeUnchanged
	p.SkipWorktree = p.SkipWorktree || skipWorktree
	return p
}

// statesOf is the state found of each of paths, in order.
func statesOf(paths []string, found map[string]pathState) []pathState {
	states := make([]pathState, len(paths))
	for i, p := range paths {
		states[i] = found[p]
		states[i].Path = p
	}
	return states
}

// commitObject is a commit as mem reads it.
type commitObject struct {
	Hash    string
	Tree    string
	Parents []string
	Author  string    // "Name <email>"
	Time    time.Time // author time, in the author's zone
	Message string
}

// change is one path that differs between two trees.
type change struct {
	Path     string
	From, To entry // a zero Mode where the path is absent
}

// cliObjects implements objects with git's plumbing commands.
type cliObjects struct{ s *Store }

var _ objects = cliObjects{}

func (c cliObjects) head(ctx context.Context) (commit, tree string, err error) {
	out, err := c.s.git(ctx, nil, []byte("HEAD^{commit}\nHEAD^{tree}\n"), "cat-file", "--batch-check=%(objectname)")
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

// blobName: the git command would need a process to say (and the
// repository may name its objects with SHA-256).
func (cliObjects) blobName([]byte) (string, bool) { return "", false }

func (c cliObjects) indexEntries(ctx context.Context, index string, paths []string) ([]entry, error) {
	found := map[string]entry{}
	err := c.lsFiles(ctx, index, paths, false, func(_ byte, mode uint32, hash, stage, path string) {
		if stage == "0" {
			found[path] = entry{Path: path, Mode: mode, Hash: hash}
		}
	})
	if err != nil {
		return nil, err
	}
	entries := make([]entry, len(paths))
	for i, p := range paths {
		entries[i] = found[p]
		entries[i].Path = p
	}
	return entries, nil
}

func (c cliObjects) indexStates(ctx context.Context, index string, paths []string) ([]pathState, error) {
	found := map[string]pathState{}
	err := c.lsFiles(ctx, index, paths, true, func(tag byte, _ uint32, _, stage, path string) {
		// -v: a lowercase tag is assume-unchanged; S is skip-worktree.
		found[path] = found[path].with(stage != "0", 'a' <= tag && tag <= 'z', tag == 'S' || tag == 's')
	})
	if err != nil {
		return nil, err
	}
	return statesOf(paths, found), nil
}

// lsFiles calls fn for each record of git ls-files --stage of paths in the
// index file at index; with tags, each record starts with its -v tag
// (given to fn; 0 without).
func (c cliObjects) lsFiles(ctx context.Context, index string, paths []string, tags bool, fn func(tag byte, mode uint32, hash, stage, path string)) error {
	args := []string{"ls-files", "--stage", "-z", "--full-name"}
	if tags {
		args = append(args, "-v")
	}
	args = append(append(args, "--"), literal(paths)...)
	out, err := c.s.git(ctx, []string{"GIT_INDEX_FILE=" + index}, nil, args...)
	if err != nil {
		return err
	}
	for rec := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta) // [tag] mode hash stage
		var tag byte
		if tags && len(f) == 4 && len(f[0]) == 1 {
			tag, f = f[0][0], f[1:]
		}
		if !ok || len(f) != 3 || tags && tag == 0 {
			return fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			return fmt.Errorf("git ls-files: bad mode in %q", rec)
		}
		fn(tag, uint32(mode), f[1], f[2], path)
	}
	return nil
}

// literal makes paths literal pathspecs, so that git reads no wildcard or
// magic in a file's name.
func literal(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = ":(literal)" + p
	}
	return out
}

func (c cliObjects) writeTree(ctx context.Context, base string, entries []entry) (string, error) {
	if err := os.MkdirAll(c.s.StateDir(), 0o755); err != nil {
		return "", err
	}
	tmp := filepath.Join(c.s.StateDir(), tempName("index", ".tmp"))
	defer os.Remove(tmp)
	defer os.Remove(tmp + ".lock")
	env := []string{"GIT_INDEX_FILE=" + tmp}
	readTree := []string{"read-tree", "--empty"}
	if base != "" {
		readTree = []string{"read-tree", base}
	}
	if _, err := c.s.git(ctx, env, nil, readTree...); err != nil {
		return "", err
	}
	var info bytes.Buffer
	for _, e := range entries {
		if e.Mode == 0 {
			fmt.Fprintf(&info, "0 %s\t%s\x00", strings.Repeat("0", 40), e.Path)
		} else {
			fmt.Fprintf(&info, "%o %s\t%s\x00", e.Mode, e.Hash, e.Path)
		}
	}
	if _, err := c.s.git(ctx, env, info.Bytes(), "update-index", "-z", "--index-info"); err != nil {
		return "", err
	}
	out, err := c.s.git(ctx, env, nil, "write-tree")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// writeCommit writes the commit object with git commit-tree. The
// repository's identity is used; when none is configured (git's guessing is
// turned off), mem's own, for each part the environment does not set.
func (c cliObjects) writeCommit(ctx context.Context, tree, parent, msg string) (string, error) {
	args := []string{"-c", "user.useConfigOnly=true", "commit-tree", tree}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	if c.s.signs(ctx) {
		// As git commit signs with commit.gpgsign: with the user's key and
		// program (gpg.format, user.signingKey, gpg.program), within
		// signTimeout, since a signing program can wait on a passphrase.
		return c.s.signedCommit(ctx, append(args, "-S"), msg)
	}
	out, err := c.s.git(ctx, nil, []byte(msg), args...)
	if err != nil {
		var ge *gitError
		if !errors.As(err, &ge) || !strings.Contains(ge.stderr, "auto-detection is disabled") {
			return "", err
		}
		if out, err = c.s.git(ctx, memIdentityEnv(), []byte(msg), args...); err != nil {
			return "", err
		}
	}
	return strings.TrimSpace(string(out)), nil
}

// signTimeout bounds the signing of one commit.
var signTimeout = 20 * time.Second

// signedCommit runs git commit-tree with -S, for a repository that signs its
// commits: within signTimeout (the signing program's whole process group is
// stopped then), with mem's identity where none is configured, as unsigned
// commits are. An error says that the commit could not be signed, and why.
func (s *Store) signedCommit(ctx context.Context, args []string, msg string) (string, error) {
	run := func(env []string) (string, string, error) {
		ctx, cancel := context.WithTimeout(ctx, signTimeout)
		defer cancel()
		cmd := s.gitCommand(ctx, env, args...)
		stopGroup(cmd)
		cmd.Stdin = strings.NewReader(msg)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ctx.Err() == context.DeadlineExceeded {
			return "", "", fmt.Errorf("signing the commit took over %s (commit.gpgsign is set; the signing program may be waiting for a passphrase): unlock the key, then write again", signTimeout)
		}
		return strings.TrimSpace(stdout.String()), stderr.String(), err
	}
	out, stderr, err := run(nil)
	if err != nil && strings.Contains(stderr, "auto-detection is disabled") {
		out, stderr, err = run(memIdentityEnv())
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr); msg != "" {
			return "", fmt.Errorf("git could not sign the commit (commit.gpgsign is set): %s", msg)
		}
		return "", fmt.Errorf("git could not sign the commit (commit.gpgsign is set): %w", err)
	}
	return out, nil
}

// memIdentityEnv is mem's identity for each identity variable the
// environment does not set.
func memIdentityEnv() []string {
	var env []string
	for _, kv := range []string{"GIT_AUTHOR_NAME=" + memName, "GIT_COMMITTER_NAME=" + memName, "GIT_AUTHOR_EMAIL=" + memEmail, "GIT_COMMITTER_EMAIL=" + memEmail} {
		if k, _, _ := strings.Cut(kv, "="); os.Getenv(k) == "" {
			env = append(env, kv)
		}
	}
	return env
}

// mem's identity, for repositories that configure none.
const (
	memName  = "mem"
	memEmail = "mem@localhost"
	// FallbackIdentity is who mem's commits are by where git has no
	// identity configured (user.name, user.email).
	FallbackIdentity = memName + " <" + memEmail + ">"
)

func (c cliObjects) readCommit(ctx context.Context, rev string) (commitObject, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return commitObject{}, fmt.Errorf("bad revision %q", rev)
	}
	out, err := c.s.git(ctx, nil, nil, "log", "-z", "-1", "--no-walk", logFormat, "--end-of-options", rev, "--")
	if err != nil {
		return commitObject{}, err
	}
	cs, err := parseCommits(out)
	if err != nil || len(cs) != 1 {
		return commitObject{}, fmt.Errorf("read commit %s: unexpected output %q", rev, out)
	}
	return cs[0], nil
}

// logFormat is how `git log -z` prints a commit for parseCommits: six
// fields separated by NUL, the message last; -z ends each commit with a NUL.
const logFormat = "--format=%H%x00%T%x00%P%x00%an <%ae>%x00%aI%x00%B"

// parseCommits parses `git log -z` output in logFormat.
func parseCommits(out []byte) ([]commitObject, error) {
	var cs []commitObject
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	if len(fields)%6 != 0 {
		return nil, fmt.Errorf("git log: %d fields", len(fields))
	}
	for i := 0; i < len(fields); i += 6 {
		c, err := commitFields(fields[i : i+6])
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func commitFields(f []string) (commitObject, error) {
	t, err := time.Parse(time.RFC3339, f[4])
	if err != nil {
		return commitObject{}, fmt.Errorf("git log: bad time %q", f[4])
	}
	c := commitObject{Hash: f[0], Tree: f[1], Author: f[3], Time: inOffset(t), Message: f[5]}
	if f[2] != "" {
		c.Parents = strings.Fields(f[2])
	}
	return c, nil
}

// inOffset is t in a zone that is only its offset from UTC, as a commit
// records it.
func inOffset(t time.Time) time.Time {
	_, off := t.Zone()
	return t.In(time.FixedZone("", off))
}

func (c cliObjects) diffTree(ctx context.Context, from, to string) ([]change, error) {
	if from == "" {
		from = c.emptyTree(ctx)
	}
	out, err := c.s.git(ctx, nil, nil, "diff-tree", "-r", "-z", "--no-renames", "--full-index", from, to)
	if err != nil {
		return nil, err
	}
	var changes []change
	recs := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(recs); i += 2 {
		// ":100644 100644 <from> <to> M" NUL path NUL
		f := strings.Fields(strings.TrimPrefix(recs[i], ":"))
		if len(f) != 5 {
			return nil, fmt.Errorf("git diff-tree: unexpected record %q", recs[i])
		}
		path := recs[i+1]
		ch := change{Path: path}
		if m, _ := strconv.ParseUint(f[0], 8, 32); m != 0 {
			ch.From = entry{Path: path, Mode: uint32(m), Hash: f[2]}
		}
		if m, _ := strconv.ParseUint(f[1], 8, 32); m != 0 {
			ch.To = entry{Path: path, Mode: uint32(m), Hash: f[3]}
		}
		changes = append(changes, ch)
	}
	return changes, nil
}

// emptyTree is the name of the empty tree in this repository's hash.
func (c cliObjects) emptyTree(ctx context.Context) string {
	out, err := c.s.git(ctx, nil, nil, "hash-object", "-t", "tree", "/dev/null")
	if err != nil {
		return "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	}
	return strings.TrimSpace(string(out))
}

func (c cliObjects) readBlobs(ctx context.Context, hashes []string) ([][]byte, error) {
	if len(hashes) == 0 {
		return nil, nil
	}
	out, err := c.s.git(ctx, nil, []byte(strings.Join(hashes, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	blobs := make([][]byte, len(hashes))
	for i, h := range hashes {
		// "<hash> blob <size>\n<data>\n"
		line, rest, ok := bytes.Cut(out, []byte("\n"))
		f := strings.Fields(string(line))
		if !ok || len(f) != 3 || f[0] != h || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file: no blob %s (%q)", h, line)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n+1 > len(rest) {
			return nil, fmt.Errorf("git cat-file: bad size for %s", h)
		}
		blobs[i] = rest[:n]
		out = rest[n+1:]
	}
	return blobs, nil
}

func (c cliObjects) close() {}

// tempName is a temporary file's name, "<prefix>.<pid>.<random><suffix>":
// the pid says which process made it, so that one left by a process that
// died can be told from one in use (see removeStaleTemps).
func tempName(prefix, suffix string) string {
	var rnd [6]byte
	rand.Read(rnd[:])
	return fmt.Sprintf("%s.%d.%s%s", prefix, os.Getpid(), hex.EncodeToString(rnd[:]), suffix)
}
