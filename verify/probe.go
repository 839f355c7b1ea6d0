package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/lazyregexp"
)

// DefaultURLTimeout bounds each HTTP request of a URL probe when
// Prober.Timeout is zero.
const DefaultURLTimeout = 5 * time.Second

// maxTreeEntries caps the work tree walk that finds a path cited without its
// leading directories. A larger tree is not searched that way, and a path
// found neither at the root nor under a top-level directory is then unknown.
const maxTreeEntries = 500_000

// Prober checks claims against one repository. It is safe for concurrent
// use; its git access is serialized.
type Prober struct {
	Repo    string        // root of the work tree the claims are about
	HTTP    *http.Client  // nil: no network, URL claims are unknown
	Now     time.Time     // when the run happens, for labels: Labels(report.Failed, p.Now); see [Prober.Date]
	Timeout time.Duration // per HTTP request; zero means DefaultURLTimeout

	mu      sync.Mutex
	root    *os.Root
	rootErr error
	tops    []string // first-level directories of Repo
	tree    *treeIndex

	gitDone  bool
	facts    *gitstore.Facts
	gitErr   error
	refs     map[string]string // branch name → full ref name
	remotes  []*gitRemote
	tracking bool // some refs/remotes/* exist
	shallow  bool

	prDone  bool
	prs     map[int]string // PR number → "<short sha> <subject>"
	prErr   error
	commits int
}

type gitRemote struct {
	name string
	urls []string
}

// Date is the day a run's labels carry: Now, or today when Now is zero.
func (p *Prober) Date() time.Time {
	if p.Now.IsZero() {
		return time.Now()
	}
	return p.Now
}

// Probe checks c and says why. It validates c first: an invalid claim is
// never probed and comes back unknown.
func (p *Prober) Probe(ctx context.Context, c Claim) (Outcome, string) {
	if err := Validate(c, p.Repo); err != nil {
		return Unknown, "not checked: " + err.Error()
	}
	if err := ctx.Err(); err != nil {
		return Unknown, fmt.Sprintf("%s %s not checked: %v", noun(c.Kind), c.Arg, err)
	}
	switch c.Kind {
	case PathExists:
		return p.probePath(c.Arg)
	case BranchExists:
		return p.probeBranch(c.Arg)
	case PRMerged:
		return p.probePR(c.Arg)
	case URLResponds:
		return p.probeURL(ctx, c.Arg)
	case CommitExists:
		return p.probeCommit(c.Arg)
	}
	return Unknown, fmt.Sprintf("unknown claim kind %q", c.Kind)
}

// noun names a kind in reasons.
func noun(k Kind) string {
	switch k {
	case PathExists:
		return "path"
	case BranchExists:
		return "branch"
	case PRMerged:
		return "PR"
	case URLResponds:
		return "URL"
	case CommitExists:
		return "commit"
	}
	return string(k)
}

// ---- paths

// treeIndex is every file and directory of the work tree (outside .git and
// node_modules) by base name, for paths cited without their leading
// directories.
type treeIndex struct {
	byBase   map[string][]string // base name → slash paths relative to the root
	complete bool
}

// openRoot opens Repo once.
func (p *Prober) openRoot() (*os.Root, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.root == nil && p.rootErr == nil {
		p.root, p.rootErr = os.OpenRoot(p.Repo)
		if p.rootErr == nil {
			ents, err := fs.ReadDir(p.root.FS(), ".")
			if err != nil {
				p.rootErr = err
			}
			for _, e := range ents {
				if e.IsDir() && e.Name() != ".git" && e.Name() != "node_modules" {
					p.tops = append(p.tops, e.Name())
				}
			}
		}
	}
	return p.root, p.rootErr
}

// index walks the work tree once. Symlinks are not followed.
func (p *Prober) index() *treeIndex {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tree != nil {
		return p.tree
	}
	t := &treeIndex{byBase: map[string][]string{}, complete: true}
	n := 0
	errStop := errors.New("stop")
	err := fs.WalkDir(p.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			t.complete = false
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return fs.SkipDir
		}
		if n++; n > maxTreeEntries {
			t.complete = false
			return errStop
		}
		t.byBase[d.Name()] = append(t.byBase[d.Name()], rel)
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		t.complete = false
	}
	p.tree = t
	return t
}

// statIn reports whether rel exists in root, following symlinks that stay
// inside it (os.Root refuses the others), and whether it is a directory.
// err is non-nil only when existence could not be decided.
func statIn(root *os.Root, rel string) (exists, dir bool, err error) {
	fi, err := root.Stat(filepath.FromSlash(rel))
	switch {
	case err == nil:
		return true, fi.IsDir(), nil
	case errors.Is(err, fs.ErrNotExist), isNotDir(err):
		return false, false, nil
	}
	if strings.Contains(err.Error(), "escapes") {
		return false, false, nil // a symlink that leads out: not in the repository
	}
	return false, false, err
}

func (p *Prober) probePath(arg string) (Outcome, string) {
	rel, err := cleanPath(arg)
	if err != nil {
		return Unknown, "not checked: " + err.Error()
	}
	wantDir := strings.HasSuffix(arg, "/")
	root, err := p.openRoot()
	if err != nil {
		return Unknown, fmt.Sprintf("path %s not checked: %v", arg, err)
	}
	undecided := false
	for _, c := range p.atRootOrTop(rel) {
		ok, dir, err := statIn(root, c)
		if err != nil {
			undecided = true
			continue
		}
		if ok && (dir || !wantDir) {
			if c == rel {
				return Passed, fmt.Sprintf("path %s exists", arg)
			}
			return Passed, fmt.Sprintf("path %s exists as %s", arg, c)
		}
	}
	// Cited without its leading directories ("notify/email.go")?
	t := p.index()
	base := path.Base(rel)
	var found []string
	for _, full := range t.byBase[base] {
		if strings.HasSuffix("/"+full, "/"+rel) {
			if ok, dir, _ := statIn(root, full); ok && (dir || !wantDir) {
				found = append(found, full)
			}
		}
	}
	if len(found) > 0 {
		sort.Strings(found)
		return Passed, fmt.Sprintf("path %s exists as %s", arg, found[0])
	}
	if undecided || !t.complete {
		return Unknown, fmt.Sprintf("path %s not found, but part of the work tree could not be read", arg)
	}
	// Death needs the path to be about this tree: its first directory must
	// exist at the root or under a top-level directory. Otherwise it is
	// likely a key, a route or a path in another system ("staging/x.tfstate").
	first, _, nested := strings.Cut(rel, "/")
	if nested {
		anchored := false
		for _, c := range p.atRootOrTop(first) {
			if ok, dir, _ := statIn(root, c); ok && dir {
				anchored = true
				break
			}
		}
		if !anchored {
			return Unknown, fmt.Sprintf("path %s not found, and the repository has no %s/ directory: it may not be a path in this repository", arg, first)
		}
	}
	return Failed, fmt.Sprintf("path %s does not exist (not at the root, under any top-level directory, or anywhere in the work tree)", arg)
}

// Exists reports whether a repository path exists, by the same rules as a
// path_exists probe; known is false when the probe cannot tell (or the path
// is not valid). It lets the curator use a Prober as its path checker.
func (p *Prober) Exists(path string) (exists, known bool) {
	o, _ := p.Probe(context.Background(), Claim{Kind: PathExists, Arg: path})
	return o == Passed, o != Unknown
}

// atRootOrTop is name at the root of the work tree, then under each of its
// top-level directories: where a cited path is looked for first.
func (p *Prober) atRootOrTop(name string) []string {
	out := []string{name}
	for _, t := range p.tops {
		out = append(out, t+"/"+name)
	}
	return out
}

// ---- git

// openGit reads the repository's refs once, through gitstore. Call with
// p.mu held.
func (p *Prober) openGit() error {
	if p.gitDone {
		return p.gitErr
	}
	p.gitDone = true
	f, err := gitstore.ReadFacts(context.Background(), p.Repo)
	if err != nil {
		p.gitErr = err
		return p.gitErr
	}
	p.facts = f
	p.refs = f.Refs
	p.tracking = f.Tracking
	p.shallow = f.Shallow
	for _, r := range f.Remotes {
		p.remotes = append(p.remotes, &gitRemote{name: r.Name, urls: r.URLs})
	}
	return nil
}

func (p *Prober) probeBranch(b string) (Outcome, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.openGit(); err != nil {
		return Unknown, fmt.Sprintf("branch %s not checked: %v", b, err)
	}
	if ref, ok := p.refs[b]; ok {
		return Passed, fmt.Sprintf("branch %s exists (%s)", b, ref)
	}
	if len(p.remotes) > 0 && !p.tracking {
		return Unknown, fmt.Sprintf("branch %s is not a local branch, and no remote has been fetched", b)
	}
	return Failed, fmt.Sprintf("branch %s does not exist (no local or remote-tracking branch)", b)
}

func (p *Prober) probeCommit(sha string) (Outcome, string) {
	sha = strings.ToLower(sha)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.openGit(); err != nil {
		return Unknown, fmt.Sprintf("commit %s not checked: %v", sha, err)
	}
	found, err := p.facts.CommitExists(context.Background(), sha)
	if found {
		return Passed, fmt.Sprintf("commit %s exists", sha)
	}
	if err != nil {
		return Unknown, fmt.Sprintf("commit %s not checked: %v", sha, err)
	}
	if p.shallow {
		return Unknown, fmt.Sprintf("commit %s not found, but the clone is shallow", sha)
	}
	return Failed, fmt.Sprintf("commit %s does not exist in this repository", sha)
}

// prSubject finds the pull request numbers a commit subject names:
// "Merge pull request #231 from ...", "... (#231)", "(pull request #231)".
var prSubject = lazyregexp.New(`(?i)^Merge pull request #(\d+)\b|\((?:pull request )?#(\d+)\)`)

// loadPRs walks all history once. Call with p.mu held.
func (p *Prober) loadPRs() error {
	if p.prDone {
		return p.prErr
	}
	p.prDone = true
	p.prs = map[int]string{}
	err := p.facts.Subjects(context.Background(), func(hash, subject string) {
		p.commits++
		for _, m := range prSubject.FindAllStringSubmatch(subject, -1) {
			num := m[1] + m[2]
			n, err := strconv.Atoi(num)
			if err != nil || n <= 0 {
				continue
			}
			if _, ok := p.prs[n]; !ok {
				p.prs[n] = hash[:7] + " " + strings.TrimSpace(subject)
			}
		}
	})
	if err != nil {
		p.prErr = err
	}
	return p.prErr
}

func (p *Prober) probePR(arg string) (Outcome, string) {
	repoName, n, err := parsePR(arg)
	if err != nil {
		return Unknown, "not checked: " + err.Error()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.openGit(); err != nil {
		return Unknown, fmt.Sprintf("PR #%d not checked: %v", n, err)
	}
	if repoName != "" && !p.isRemote(repoName) {
		return Unknown, fmt.Sprintf("PR %s is in another repository (no remote points at %s)", arg, repoName)
	}
	if err := p.loadPRs(); err != nil {
		return Unknown, fmt.Sprintf("PR #%d not checked: %v", n, err)
	}
	if c, ok := p.prs[n]; ok {
		return Passed, fmt.Sprintf("PR #%d merged: %s", n, c)
	}
	switch {
	case p.commits == 0:
		return Unknown, fmt.Sprintf("PR #%d not checked: no history", n)
	case p.shallow:
		return Unknown, fmt.Sprintf("PR #%d not found, but the clone is shallow", n)
	case len(p.prs) == 0:
		return Unknown, fmt.Sprintf("PR #%d not found, and no commit in this history names a pull request", n)
	}
	return Failed, fmt.Sprintf("PR #%d is not merged: no merge or squash commit names it in local history", n)
}

// isRemote reports whether some remote of the repository is host/owner/repo.
// Call with p.mu held.
func (p *Prober) isRemote(name string) bool {
	want := strings.ToLower(name)
	for _, r := range p.remotes {
		for _, u := range r.urls {
			if remoteName(u) == want {
				return true
			}
		}
	}
	return false
}

// remoteName turns a remote URL into "host/owner/repo":
// "git@github.com:o/r.git", "https://github.com/o/r", "ssh://git@host/o/r".
func remoteName(u string) string {
	u = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git"))
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if at, rest, ok := strings.Cut(u, "@"); ok && !strings.Contains(at, "/") {
		u = strings.Replace(rest, ":", "/", 1)
	}
	if i := strings.IndexByte(u, '@'); i >= 0 && i < strings.IndexByte(u+"/", '/') {
		u = u[i+1:]
	}
	host, rest, _ := strings.Cut(u, "/")
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	return host + "/" + rest
}

// ---- URLs

func (p *Prober) probeURL(ctx context.Context, raw string) (Outcome, string) {
	if p.HTTP == nil {
		return Unknown, fmt.Sprintf("URL %s not checked: network probes are off", raw)
	}
	u, err := validURL(raw)
	if err != nil {
		return Unknown, "not checked: " + err.Error()
	}
	client := *p.HTTP
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultURLTimeout
	}
	var last string
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		status, err := request(ctx, &client, method, u.String(), timeout)
		if err != nil {
			return Unknown, fmt.Sprintf("URL %s did not respond: %s", raw, shortErr(err))
		}
		if status >= 200 && status < 400 {
			return Passed, fmt.Sprintf("URL %s responds (%s %d)", raw, method, status)
		}
		last = fmt.Sprintf("%s %d", method, status)
	}
	return Unknown, fmt.Sprintf("URL %s answered %s: proves nothing either way", raw, last)
}

// request sends one request and returns its status; the body is not read.
func request(ctx context.Context, c *http.Client, method, u string, timeout time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "mem-verify/1 (+https://github.com/mem-dev/mem)")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// shortErr keeps the last, most specific part of a network error.
func shortErr(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}
