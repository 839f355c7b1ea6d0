package gitstore

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Entry is one mem commit.
type Entry struct {
	Commit   string // full hash
	Time     time.Time
	Author   string // "Name <email>"
	Action   string // the Mem-Action trailer
	Slug     string // the Mem-Slug trailer, else parsed from "mem: <action> <slug>"
	Subject  string
	Trailers []Trailer // all trailers, Mem-Action first
}

// goGitMu serialises go-git use: it is not safe for concurrent use.
var goGitMu sync.Mutex

// errStop ends a commit walk early.
var errStop = errors.New("stop")

// openRepo opens the store's repository with go-git. Callers hold goGitMu.
func (s *Store) openRepo() (*git.Repository, error) {
	if s.WorkTree == "" {
		return nil, errors.New("the store is not in a git repository")
	}
	repo, err := git.PlainOpenWithOptions(s.WorkTree, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	return repo, nil
}

// Log lists the mem commits reachable from HEAD (those with a Mem-Action
// trailer), newest first, at most limit of them (all when limit <= 0). An
// unborn branch has none; outside git, Log fails.
func (s *Store) Log(limit int) ([]Entry, error) {
	goGitMu.Lock()
	defer goGitMu.Unlock()
	repo, err := s.openRepo()
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	head, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	iter, err := repo.Log(&git.LogOptions{From: head.Hash(), Order: git.LogOrderCommitterTime})
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	defer iter.Close()
	var entries []Entry
	err = iter.ForEach(func(c *object.Commit) error {
		if e, ok := entryOf(c); ok {
			entries = append(entries, e)
			if limit > 0 && len(entries) >= limit {
				return errStop
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("log: %w", err)
	}
	return entries, nil
}

// entryOf reads a commit as a mem Entry; ok is false for other commits.
func entryOf(c *object.Commit) (Entry, bool) {
	trailers := ParseTrailers(c.Message)
	e := Entry{
		Commit:   c.Hash.String(),
		Time:     c.Author.When,
		Author:   fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
		Subject:  strings.TrimSpace(strings.SplitN(c.Message, "\n", 2)[0]),
		Trailers: trailers,
	}
	for _, t := range trailers {
		switch {
		case e.Action == "" && strings.EqualFold(t.Key, "Mem-Action"):
			e.Action = t.Value
		case e.Slug == "" && strings.EqualFold(t.Key, "Mem-Slug"):
			e.Slug = t.Value
		}
	}
	if e.Action == "" {
		return Entry{}, false
	}
	if e.Slug == "" {
		if rest, ok := strings.CutPrefix(e.Subject, "mem: "+e.Action+" "); ok && !strings.Contains(rest, " ") {
			e.Slug = rest
		}
	}
	return e, true
}

// ParseTrailers returns the trailers of a commit message: the "Key: value"
// lines of its last paragraph, when every line of that paragraph is one (or
// continues one with leading whitespace) and the message has a paragraph
// before it. Keys are tokens of letters, digits and '-'.
func ParseTrailers(msg string) []Trailer {
	msg = strings.ReplaceAll(msg, "\r\n", "\n")
	paras := strings.Split(strings.TrimRight(msg, "\n \t"), "\n\n")
	if len(paras) < 2 {
		return nil
	}
	last := strings.Trim(paras[len(paras)-1], "\n")
	var trailers []Trailer
	for _, line := range strings.Split(last, "\n") {
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			if len(trailers) == 0 {
				return nil
			}
			t := &trailers[len(trailers)-1]
			t.Value = strings.TrimSpace(t.Value + " " + strings.TrimSpace(line))
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || !trailerKey.MatchString(key) {
			return nil
		}
		trailers = append(trailers, Trailer{Key: key, Value: strings.TrimSpace(value)})
	}
	return trailers
}
