package verify

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-dev/mem/internal/locate"
)

// escapeRoot is a work tree with a file, a symlink that stays inside, and
// symlinks that lead out (one of them dangling).
func escapeRoot(t testing.TB) string {
	t.Helper()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, d := range []string{"atlas-api/internal/auth", "docs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "atlas-api/internal/auth/session.go"), []byte("package auth\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"out":           outside,
		"docs/up":       "../../",
		"inside":        "atlas-api/internal",
		"dangling-out":  "/nonexistent-mem-verify/x",
		"dangling-in":   "atlas-api/nothing",
		"docs/etc-link": "/etc",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return root
}

func TestValidate(t *testing.T) {
	root := escapeRoot(t)
	tests := []struct {
		kind Kind
		arg  string
		ok   bool
		why  string // part of the error when !ok
	}{
		{PathExists, "atlas-api/internal/auth/session.go", true, ""},
		{PathExists, "./atlas-api/internal/", true, ""},
		{PathExists, "inside/auth/session.go", true, ""},
		{PathExists, "dangling-in/x.go", true, ""},
		{PathExists, "does/not/exist.go", true, ""},
		{PathExists, "src/app/(public)/page.tsx", true, ""},
		{PathExists, "../../etc/passwd", false, ".."},
		{PathExists, "docs/../../x", false, ".."},
		{PathExists, "/etc/passwd", false, "absolute"},
		{PathExists, "~/.pgpass", false, "home"},
		{PathExists, "out/secret.txt", false, "symlink"},
		{PathExists, "out", false, "symlink"},
		{PathExists, "docs/up/etc/passwd", false, "symlink"},
		{PathExists, "docs/etc-link/passwd", false, "symlink"},
		{PathExists, "dangling-out", false, "symlink"},
		{PathExists, "a\x00b", false, "control"},
		{PathExists, "a\nb.go", false, "control"},
		{PathExists, "$(touch x)", false, "shell"},
		{PathExists, "`touch x`", false, "shell"},
		{PathExists, "a;b.go", false, "shell"},
		{PathExists, "C:/x.go", false, ":"},
		{PathExists, "a\\b.go", false, "shell"},
		{PathExists, ".", false, "repository itself"},
		{PathExists, "a//b", false, "not clean"},
		{PathExists, "", false, "empty"},

		{BranchExists, "main", true, ""},
		{BranchExists, "release/2026-10", true, ""},
		{BranchExists, "origin/feature/x_y.z", true, ""},
		{BranchExists, "-main", false, "'-'"},
		{BranchExists, "--upload-pack=touch x", false, "'-'"},
		{BranchExists, "main; touch x", false, ""},
		{BranchExists, "$(reboot)", false, "shell"},
		{BranchExists, "a..b", false, ".."},
		{BranchExists, "a/.b", false, "'.'"},
		{BranchExists, "a.lock", false, ".lock"},
		{BranchExists, "a@{1}", false, "@{"},
		{BranchExists, "a~1", false, "~"},
		{BranchExists, "a^", false, "^"},
		{BranchExists, "a:b", false, ":"},
		{BranchExists, "a?", false, "?"},
		{BranchExists, "a*", false, "*"},
		{BranchExists, "a[b", false, "["},
		{BranchExists, "a\\b", false, "\\"},
		{BranchExists, "/a", false, "'/'"},
		{BranchExists, "a/", false, "'/'"},
		{BranchExists, "a//b", false, "//"},
		{BranchExists, "a.", false, "'.'"},
		{BranchExists, "@", false, "reserved"},
		{BranchExists, "HEAD", false, "reserved"},
		{BranchExists, "a\x7fb", false, "control"},

		{PRMerged, "231", true, ""},
		{PRMerged, "github.com/mem-dev/shop#231", true, ""},
		{PRMerged, "0", false, "positive"},
		{PRMerged, "-1", false, "positive"},
		{PRMerged, "012", false, "positive"},
		{PRMerged, "12; rm -rf /", false, "positive"},
		{PRMerged, "1.5", false, "positive"},
		{PRMerged, "99999999999", false, ""},
		{PRMerged, "evil#12", false, "host/owner/name"},
		{PRMerged, "github.com/o/r;x#12", false, "character"},

		{URLResponds, "https://status.larkspur.io", true, ""},
		{URLResponds, "https://status.mem-dev.io:8443/x?y=1#z", true, ""},
		{URLResponds, "HTTPS://Mem-Dev.IO/", true, ""},
		// What the extractor refuses, a model's claim may not ask for.
		{URLResponds, "http://127.0.0.1:8080/admin", false, "local"},
		{URLResponds, "http://[::1]/", false, "local"},
		{URLResponds, "http://10.0.0.5/", false, "local"},
		{URLResponds, "http://192.168.1.1/", false, "local"},
		{URLResponds, "http://localhost:3000/", false, "local"},
		{URLResponds, "http://grafana.internal/d/x", false, "local"},
		{URLResponds, "https://example.com/docs", false, "local"},
		{URLResponds, "file:///etc/passwd", false, "scheme"},
		{URLResponds, "javascript:alert(1)", false, "scheme"},
		{URLResponds, "ftp://host/x", false, "scheme"},
		{URLResponds, "//host/x", false, "no scheme"},
		{URLResponds, "https://user:pw@host/", false, "credentials"},
		{URLResponds, "https://user@host/", false, "credentials"},
		{URLResponds, "https:///x", false, "no host"},
		{URLResponds, "http:host", false, "opaque"},
		{URLResponds, "https://mem-dev.io:99999/", false, "port"},
		{URLResponds, "http://169.254.169.254/latest/meta-data/", false, "link-local"},
		{URLResponds, "http://[fe80::1]/", false, "link-local"},
		{URLResponds, "http://0.0.0.0:8080/", false, "unspecified"},
		{URLResponds, "https://ho st/", false, "space"},
		{URLResponds, "https://a$(touch)/", false, "URL"},
		{URLResponds, "https://a`id`.io/", false, "URL"},

		{CommitExists, "abcdef1", true, ""},
		{CommitExists, "9fceb02d0ae598e95dc970b74767f19372d61af8", true, ""},
		{CommitExists, "abcde", false, "hex"},
		{CommitExists, "HEAD", false, "hex"},
		{CommitExists, "abcdefg", false, "hex"},
		{CommitExists, "9fceb02d0ae598e95dc970b74767f19372d61af8a", false, "hex"},

		{"shell", "touch x", false, "unknown claim kind"},
		{"", "x", false, "unknown claim kind"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+" "+tt.arg, func(t *testing.T) {
			err := Validate(Claim{Kind: tt.kind, Arg: tt.arg}, root)
			if tt.ok {
				if err != nil {
					t.Fatalf("Validate: %v, want ok", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate accepted it")
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("Validate: %q, want it to mention %q", err, tt.why)
			}
		})
	}
}

// fuzzSeeds adds each seed to f's corpus.
func fuzzSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
}

func FuzzValidatePath(f *testing.F) {
	fuzzSeeds(f, "a/b.go", "../../etc/passwd", "/etc/passwd", "out/secret.txt", "docs/up/x", "./x/", "inside/../..",
		"dangling-out", "docs/etc-link/passwd", "a/./b", "..", ".../x", "x/..", "C:\\x", "\\\\host\\share")
	root := escapeRoot(f)
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if Validate(Claim{Kind: PathExists, Arg: p}, root) != nil {
			return
		}
		if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
			t.Fatalf("accepted absolute or home path %q", p)
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == ".." {
				t.Fatalf("accepted %q with ..", p)
			}
		}
		joined := filepath.Join(rootReal, filepath.FromSlash(p))
		if !locate.Within(rootReal, joined) {
			t.Fatalf("accepted %q: %s is outside %s", p, joined, rootReal)
		}
		// Follow what exists of it: it must stay inside.
		for cur := joined; locate.Within(rootReal, cur) && cur != rootReal; cur = filepath.Dir(cur) {
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				if !locate.Within(rootReal, real) {
					t.Fatalf("accepted %q: %s resolves to %s, outside the root", p, cur, real)
				}
				break
			}
		}
	})
}

func FuzzValidateURL(f *testing.F) {
	fuzzSeeds(f, "https://a.io/x", "file:///etc/passwd", "javascript:alert(1)", "https://u:p@h/", "HtTp://h",
		"http:/h", "data:text/html,x", "https://h:0/", "gopher://h", "http://[::1]:80/", " https://h")
	f.Fuzz(func(t *testing.T, s string) {
		if Validate(Claim{Kind: URLResponds, Arg: s}, "") != nil {
			return
		}
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("accepted unparsable %q", s)
		}
		if sc := strings.ToLower(u.Scheme); sc != "http" && sc != "https" {
			t.Fatalf("accepted scheme %q in %q", u.Scheme, s)
		}
		if u.Host == "" || u.Hostname() == "" || u.User != nil || u.Opaque != "" {
			t.Fatalf("accepted %q: host %q user %v opaque %q", s, u.Host, u.User, u.Opaque)
		}
	})
}

func FuzzValidateBranch(f *testing.F) {
	fuzzSeeds(f, "main", "release/2026-10", "-x", "--upload-pack=x", "a..b", "a.lock", "@", "a@{1}", "a b", "$(x)", "a/.b")
	f.Fuzz(func(t *testing.T, b string) {
		if Validate(Claim{Kind: BranchExists, Arg: b}, "") != nil {
			return
		}
		bad := strings.HasPrefix(b, "-") || strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") ||
			strings.HasSuffix(b, ".") || strings.Contains(b, "..") || strings.Contains(b, "//") ||
			strings.Contains(b, "@{") || b == "@" || strings.ContainsAny(b, " ~^:?*[\\$`;|&<>\"'!")
		for _, r := range b {
			if r < 0x20 || r == 0x7f {
				bad = true
			}
		}
		for _, c := range strings.Split(b, "/") {
			if strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
				bad = true
			}
		}
		if bad {
			t.Fatalf("accepted invalid branch %q", b)
		}
	})
}

func FuzzValidatePR(f *testing.F) {
	fuzzSeeds(f, "1", "0", "-1", "12; rm -rf /", "007", "github.com/o/r#3", "a/b/c#0", "#1")
	f.Fuzz(func(t *testing.T, s string) {
		if Validate(Claim{Kind: PRMerged, Arg: s}, "") != nil {
			return
		}
		_, n, err := parsePR(s)
		if err != nil || n <= 0 {
			t.Fatalf("accepted %q: n=%d err=%v", s, n, err)
		}
		num := s[strings.LastIndexByte(s, '#')+1:]
		if strings.Trim(num, "0123456789") != "" || strings.HasPrefix(num, "0") {
			t.Fatalf("accepted non-positive-integer %q", s)
		}
	})
}

func FuzzValidateCommit(f *testing.F) {
	fuzzSeeds(f, "abcdef1", "HEAD", "abc", "--all", "9fceb02d0ae598e95dc970b74767f19372d61af8")
	f.Fuzz(func(t *testing.T, s string) {
		if Validate(Claim{Kind: CommitExists, Arg: s}, "") != nil {
			return
		}
		if len(s) < 7 || len(s) > 40 || strings.Trim(strings.ToLower(s), "0123456789abcdef") != "" {
			t.Fatalf("accepted %q", s)
		}
	})
}

func FuzzValidateKind(f *testing.F) {
	fuzzSeeds(f, "shell", "path_exists ", "PATH_EXISTS", "exec")
	f.Fuzz(func(t *testing.T, k string) {
		known := false
		for _, kk := range Kinds {
			known = known || Kind(k) == kk
		}
		if !known && Validate(Claim{Kind: Kind(k), Arg: "main"}, "") == nil {
			t.Fatalf("accepted unknown kind %q", k)
		}
	})
}
