package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// identities resolves who a commit is by, author and committer, as git
// commit-tree does with user.useConfigOnly set and mem's fallback (mem
// <mem@localhost> for each part the environment does not set, when git
// would refuse): the environment (GIT_AUTHOR_NAME, ...), then
// author.* or committer.*, then user.* from the system, global, repository
// and worktree configuration. ok is false when the configuration is beyond
// what this reads (an include, configuration given on git's command line, a
// date in the environment in a format other than git's raw one, a file it
// cannot parse): the caller then lets git write the commit.
func (s *Store) identities(now time.Time) (author, committer object.Signature, ok bool) {
	cfg, ok := s.config()
	if !ok {
		return author, committer, false
	}
	resolve := func(role string) (name, email string) {
		up := strings.ToUpper(role)
		name, email = os.Getenv("GIT_"+up+"_NAME"), os.Getenv("GIT_"+up+"_EMAIL")
		if name == "" {
			name = first(cfg[role+".name"], cfg["user.name"])
		}
		if email == "" {
			email = first(cfg[role+".email"], cfg["user.email"]) // EMAIL is auto-detection, which mem turns off
		}
		return name, email
	}
	an, ae := resolve("author")
	cn, ce := resolve("committer")
	if an == "" || ae == "" || cn == "" || ce == "" {
		// git refuses; mem's own identity for what the environment leaves.
		an, ae = first(os.Getenv("GIT_AUTHOR_NAME"), memName), first(os.Getenv("GIT_AUTHOR_EMAIL"), memEmail)
		cn, ce = first(os.Getenv("GIT_COMMITTER_NAME"), memName), first(os.Getenv("GIT_COMMITTER_EMAIL"), memEmail)
	}
	for _, v := range []string{an, ae, cn, ce} {
		if strings.ContainsAny(v, "<>\n") {
			return author, committer, false // git's own rules for odd names apply
		}
	}
	if gitBool(cfg["commit.gpgsign"]) {
		return author, committer, false // git signs it (cliObjects.writeCommit)
	}
	at, ok1 := envDate("GIT_AUTHOR_DATE", now)
	ct, ok2 := envDate("GIT_COMMITTER_DATE", now)
	if !ok1 || !ok2 {
		return author, committer, false
	}
	return object.Signature{Name: strings.TrimSpace(an), Email: strings.TrimSpace(ae), When: at},
		object.Signature{Name: strings.TrimSpace(cn), Email: strings.TrimSpace(ce), When: ct}, true
}

// signs reports whether git signs the commits made here (commit.gpgsign),
// from the configuration files when mem can read them, else from git.
func (s *Store) signs(ctx context.Context) bool {
	if cfg, ok := s.config(); ok {
		return gitBool(cfg["commit.gpgsign"])
	}
	out, err := s.git(ctx, nil, nil, "config", "--type=bool", "--get", "commit.gpgsign")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// config reads the keys mem needs (readIdentityConfig) from every
// configuration file git reads; ok is false when that is beyond what it
// reads (configuration on git's command line, an include, a file that does
// not parse).
func (s *Store) config() (cfg map[string]string, ok bool) {
	if os.Getenv("GIT_CONFIG_PARAMETERS") != "" || os.Getenv("GIT_CONFIG_COUNT") != "" {
		return nil, false
	}
	cfg = map[string]string{}
	for _, f := range s.configFiles() {
		if !readIdentityConfig(f, cfg) {
			return nil, false
		}
	}
	return cfg, true
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// envDate is the date a variable sets, in git's raw format ("<seconds>
// <+hhmm>", optionally with a leading @), or now when it is unset; ok is false
// for any other format.
func envDate(key string, now time.Time) (time.Time, bool) {
	v := strings.TrimSpace(os.Getenv(key))
	if v == "" {
		return now, true
	}
	secs, tz, found := strings.Cut(strings.TrimPrefix(v, "@"), " ")
	n, err := strconv.ParseInt(secs, 10, 64)
	if !found || err != nil || len(tz) != 5 || (tz[0] != '+' && tz[0] != '-') {
		return now, false
	}
	hh, err1 := strconv.Atoi(tz[1:3])
	mm, err2 := strconv.Atoi(tz[3:5])
	if err1 != nil || err2 != nil {
		return now, false
	}
	off := (hh*60 + mm) * 60
	if tz[0] == '-' {
		off = -off
	}
	return time.Unix(n, 0).In(time.FixedZone("", off)), true
}

// configFiles are the configuration files git reads, lowest precedence
// first: system, global (XDG then ~/.gitconfig, or GIT_CONFIG_GLOBAL), the
// repository's, and the worktree's when extensions.worktreeConfig is on.
func (s *Store) configFiles() []string {
	var files []string
	if !gitBool(os.Getenv("GIT_CONFIG_NOSYSTEM")) {
		files = append(files, first(os.Getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	if g, set := os.LookupEnv("GIT_CONFIG_GLOBAL"); set {
		files = append(files, g)
	} else if home, err := os.UserHomeDir(); err == nil {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig"))
	}
	local := filepath.Join(s.CommonDir, "config")
	files = append(files, local)
	cfg := map[string]string{}
	readIdentityConfig(local, cfg)
	if gitBool(cfg["extensions.worktreeconfig"]) {
		files = append(files, filepath.Join(s.GitDir, "config.worktree"))
	}
	return files
}

func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// readIdentityConfig adds the identity keys of a config file to cfg (later
// values win) and reports whether the file could be read as mem reads it: a
// missing file is empty; an include, or a file that does not parse, is not
// read.
func readIdentityConfig(path string, cfg map[string]string) bool {
	f, err := os.Open(path)
	if err != nil {
		return os.IsNotExist(err) || path == os.DevNull
	}
	defer f.Close()
	var c config.Config
	if err := config.NewDecoder(f).Decode(&c); err != nil {
		return false
	}
	for _, sec := range c.Sections {
		name := strings.ToLower(sec.Name)
		if name == "include" || name == "includeif" {
			return false
		}
		for _, role := range []string{"user", "author", "committer", "extensions", "commit"} {
			if name != role {
				continue
			}
			for _, o := range sec.Options {
				cfg[role+"."+strings.ToLower(o.Key)] = o.Value
			}
		}
	}
	return true
}
