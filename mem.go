// Package mem is the library behind the mem command: a git-native memory
// store for AI coding agents.
//
// Memories are markdown files with YAML frontmatter under a store directory
// (by default .claude/agent-memory in the work tree). Every change mem makes
// is one git commit touching only store files (package gitstore); the
// search index is a cache under <git-common-dir>/mem/ (package search),
// refreshed after every write and whenever the files changed by other hands.
// The CLI (cmd/mem) and the MCP server are thin layers over this package.
package mem

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-dev/mem/gitstore"
	"github.com/mem-dev/mem/internal/locate"
	"github.com/mem-dev/mem/internal/secrets"
)

// Repo is one memory store and the repository it lives in.
type Repo struct {
	Place locate.Place
	files *gitstore.Store
	// Now is the clock, replaceable in tests.
	Now func() time.Time
	// AfterWrite, when set, is called after a commit that may leave a
	// memory without current aliases: a store (CLI or MCP), a capture's, a
	// curation's. The CLI sets it to start a detached `mem enrich
	// --background`; it must return at once.
	AfterWrite func()
	// Waiting, when set, is told when a command cannot have the store's
	// lock at once and waits for it (see lock); the CLI prints it.
	Waiting func(msg string)
}

// ErrNoStore means the store directory does not exist yet.
var ErrNoStore = errors.New("no memory store here")

// Open finds the store from dir (a --store override may be empty) and opens
// it. The store must exist: run Init first.
func Open(dir, store string) (*Repo, error) {
	r, err := open(dir, store)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(r.Place.Store); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s does not exist (run `mem init`)", ErrNoStore, r.Place.Store)
	}
	return r, nil
}

func open(dir, store string) (*Repo, error) {
	place, err := locate.Find(dir, store)
	if errors.Is(err, locate.ErrNoRepo) {
		return nil, fmt.Errorf("%s is not inside a git repository (run `mem init` or `git init`)", dir)
	}
	if err != nil {
		return nil, err
	}
	files, err := gitstore.Open(place)
	if err != nil {
		return nil, err
	}
	r := &Repo{Place: place, files: files, Now: time.Now}
	files.Check = r.vet
	files.Also = r.catalogsAlso
	files.Derived = r.generatedCatalog
	return r, nil
}

// vet is the store's commit check: every byte mem commits, whoever wrote
// it, passes the secret scan (memories are committed and shared, so a
// secret committed is a secret leaked). Findings name the file by its git
// path, as a person finds it from the top of the work tree.
func (r *Repo) vet(gitPath string, data []byte) error {
	name := gitPath
	if name == "" {
		name = "the commit message"
	}
	return secrets.Check(name, string(data))
}

// Init creates the store (and a git repository when none encloses it) and
// returns the paths it created.
func Init(dir, store string) (*Repo, []string, error) {
	place, err := locate.Find(dir, store)
	var created []string
	if errors.Is(err, locate.ErrNoRepo) {
		// No repository anywhere above: make the directory one, so the
		// store sits inside the project rather than owning a repo of its own.
		abs, aerr := filepath.Abs(dir)
		if aerr != nil {
			return nil, nil, aerr
		}
		if created, err = gitstore.InitRepo(abs); err != nil {
			return nil, nil, err
		}
		place, err = locate.Find(dir, store)
	}
	if err != nil {
		return nil, nil, err
	}
	_, more, err := gitstore.Init(place)
	if err != nil {
		return nil, nil, err
	}
	created = append(created, more...)
	r, err := open(dir, store)
	if err != nil {
		return nil, nil, err
	}
	return r, created, nil
}
