package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/mem-dev/mem/internal/locate"
)

// Limits on arguments.
const (
	maxArg    = 1024
	maxURL    = 2048
	maxBranch = 255
	maxPR     = 1_000_000_000
)

// shellMeta are characters that never occur in the paths and branch names
// memories cite but do in injected commands. Nothing here runs a shell; they
// are refused so that a hostile argument is reported, not quietly probed.
const shellMeta = "$`;|&<>\"'!\\"

// Validate reports why c must not be probed, or nil when it may be. repoRoot
// is the work tree the claim is about; a path claim is resolved against it to
// refuse symlinks that lead out. Validate reads the file system for path
// claims only, and never follows a path outside repoRoot.
func Validate(c Claim, repoRoot string) error {
	if !utf8.ValidString(c.Arg) {
		return errors.New("argument is not valid UTF-8")
	}
	for _, r := range c.Arg {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return fmt.Errorf("argument contains control character %U", r)
		}
	}
	if c.Arg == "" {
		return errors.New("argument is empty")
	}
	switch c.Kind {
	case PathExists:
		return validatePath(c.Arg, repoRoot)
	case BranchExists:
		return validBranch(c.Arg)
	case PRMerged:
		_, _, err := parsePR(c.Arg)
		return err
	case URLResponds:
		_, err := validURL(c.Arg)
		return err
	case CommitExists:
		return validCommit(c.Arg)
	}
	return fmt.Errorf("unknown claim kind %q", c.Kind)
}

// cleanPath checks the shape of a path claim and returns it without a
// leading "./" and a trailing "/".
func cleanPath(p string) (string, error) {
	if len(p) > maxArg {
		return "", errors.New("path is too long")
	}
	if strings.ContainsAny(p, shellMeta) {
		return "", fmt.Errorf("path %q contains a shell metacharacter", p)
	}
	if strings.HasPrefix(p, "~") {
		return "", fmt.Errorf("path %q is in a home directory, not the repository", p)
	}
	if strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("path %q is absolute; only paths inside the repository are checked", p)
	}
	if strings.Contains(p, ":") {
		return "", fmt.Errorf("path %q contains ':'", p)
	}
	p = strings.TrimSuffix(trimDotSlash(p), "/")
	if p == "" || p == "." {
		return "", errors.New("path names the repository itself")
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "..":
			return "", fmt.Errorf("path %q climbs out with ..", p)
		case "", ".":
			return "", fmt.Errorf("path %q is not clean", p)
		}
	}
	return p, nil
}

// trimDotSlash removes every leading "./" of a path.
func trimDotSlash(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// validatePath checks a path claim's shape and that it stays inside root when
// its symlinks are followed.
func validatePath(p, root string) error {
	p, err := cleanPath(p)
	if err != nil {
		return err
	}
	if root == "" {
		return nil
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("repository root: %w", err)
	}
	rootReal, err = filepath.Abs(rootReal)
	if err != nil {
		return fmt.Errorf("repository root: %w", err)
	}
	cur := rootReal
	for _, seg := range strings.Split(p, "/") {
		next := filepath.Join(cur, seg)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
				return nil // nothing further to follow
			}
			return fmt.Errorf("path %q: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := filepath.EvalSymlinks(next)
		if err != nil {
			// Dangling or looping: judge the link text itself.
			link, lerr := os.Readlink(next)
			if lerr != nil {
				return fmt.Errorf("path %q: %w", p, lerr)
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(cur, link)
			}
			if !locate.Within(rootReal, filepath.Clean(link)) {
				return fmt.Errorf("path %q leaves the repository through a symlink", p)
			}
			return nil
		}
		if !locate.Within(rootReal, target) {
			return fmt.Errorf("path %q leaves the repository through a symlink", p)
		}
		cur = target
	}
	return nil
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// validBranch applies git check-ref-format's rules to "refs/heads/"+b, and
// refuses names that start with '-' (they would read as options), "HEAD",
// and shell metacharacters.
func validBranch(b string) error {
	bad := func(why string) error { return fmt.Errorf("branch %q is not a valid git ref name: %s", b, why) }
	switch {
	case len(b) > maxBranch:
		return bad("too long")
	case strings.HasPrefix(b, "-"):
		return bad("starts with '-'")
	case b == "HEAD" || b == "@":
		return bad("reserved name")
	case strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/"):
		return bad("starts or ends with '/'")
	case strings.Contains(b, "//"):
		return bad("contains '//'")
	case strings.Contains(b, ".."):
		return bad("contains '..'")
	case strings.Contains(b, "@{"):
		return bad("contains '@{'")
	case strings.HasSuffix(b, "."):
		return bad("ends with '.'")
	}
	for _, r := range b {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return bad(fmt.Sprintf("contains %q", r))
		}
		if unicode.IsSpace(r) {
			return bad("contains a space")
		}
	}
	if strings.ContainsAny(b, shellMeta) {
		return fmt.Errorf("branch %q contains a shell metacharacter", b)
	}
	for _, c := range strings.Split(b, "/") {
		if strings.HasPrefix(c, ".") {
			return bad("a component starts with '.'")
		}
		if strings.HasSuffix(c, ".lock") {
			return bad("a component ends with '.lock'")
		}
	}
	return nil
}

// parsePR reads a pull request argument: "231", or "host/owner/repo#231" for a
// PR of a named repository (from a pull request URL). repo is "" for a bare
// number.
func parsePR(s string) (repo string, n int, err error) {
	num := s
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		repo, num = s[:i], s[i+1:]
		if err := validRepoName(repo); err != nil {
			return "", 0, fmt.Errorf("pull request %q: %w", s, err)
		}
	}
	if num == "" || num[0] < '1' || num[0] > '9' || strings.Trim(num, "0123456789") != "" || len(num) > 10 {
		return "", 0, fmt.Errorf("pull request number %q is not a positive integer", num)
	}
	n, err = strconv.Atoi(num)
	if err != nil || n <= 0 || n >= maxPR {
		return "", 0, fmt.Errorf("pull request number %q is out of range", num)
	}
	return repo, n, nil
}

// validRepoName accepts "host/owner/repo" with conservative characters.
func validRepoName(r string) error {
	segs := strings.Split(r, "/")
	if len(segs) != 3 {
		return errors.New("repository must be host/owner/name")
	}
	for i, s := range segs {
		if s == "" || s == "." || s == ".." {
			return errors.New("empty repository component")
		}
		for _, c := range s {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' && i > 0
			if !ok {
				return fmt.Errorf("repository component %q has character %q", s, c)
			}
		}
	}
	return nil
}

// validURL parses an http(s) URL without credentials.
func validURL(s string) (*url.URL, error) {
	if len(s) > maxURL {
		return nil, errors.New("URL is too long")
	}
	if strings.ContainsAny(s, " \\") {
		return nil, fmt.Errorf("URL %q contains a space or backslash", s)
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("URL %q does not parse", s)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return nil, fmt.Errorf("URL %q has no scheme; only http and https are checked", s)
	default:
		return nil, fmt.Errorf("URL scheme %q is not http or https", u.Scheme)
	}
	if u.Opaque != "" {
		return nil, fmt.Errorf("URL %q is opaque", s)
	}
	if u.User != nil {
		return nil, fmt.Errorf("URL %q carries credentials", u.Redacted())
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("URL %q has no host", s)
	}
	if strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != "" && net.ParseIP(host) == nil {
		return nil, fmt.Errorf("URL host %q is not a host name", host)
	}
	if ip := net.ParseIP(host); ip != nil && unroutable(ip) {
		return nil, fmt.Errorf("URL host %s is a link-local, multicast or unspecified address", host)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("URL port %q is out of range", p)
		}
	}
	if localHost(host) {
		// Loopback, a private network, or a name only the writer's
		// machine or documentation knows: probing it says nothing of the
		// memory and reaches what no memory should make mem reach.
		return nil, fmt.Errorf("URL host %s is local (loopback, a private network or a local name): only public URLs are checked", host)
	}
	return u, nil
}

// validCommit accepts 7 to 40 hex digits.
func validCommit(s string) error {
	if !isHex(s) {
		return fmt.Errorf("commit id %q is not 7-40 hex digits", s)
	}
	return nil
}
