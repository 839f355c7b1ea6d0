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
	"strings"
	"time"
)

// Entry is one mem commit.
type Entry struct {
	Commit   string    `json:"commit"` // full hash
	Time     time.Time `json:"time"`
	Author   string    `json:"author"` // "Name <email>"
	Action   string    `json:"action"` // the Mem-Action trailer
	Slug     string    `json:"slug"`   // the Mem-Slug trailer, else parsed from "mem: <action> <slug>"
	Subject  string    `json:"subject"`
	Trailers []Trailer `json:"trailers"` // all trailers, Mem-Action first
}

// Log lists the mem commits reachable from HEAD (those with a Mem-Action
// trailer) that touch the store, newest first, at most limit of them (all
// when limit <= 0). It walks only what it needs: git log limited to the
// store's path (a mem commit touches nothing else), read as it comes and
// stopped once limit entries are found, so a long history of other commits
// costs git's tree comparison of one path per commit, not a parse of each.
// An unborn branch has none; outside git, Log fails.
func (s *Store) Log(ctx context.Context, limit int) ([]Entry, error) {
	if s.WorkTree == "" {
		return nil, errors.New("log: the store is not in a git repository")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	head, _, err := s.objects().head(ctx)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	if head == "" {
		return nil, nil
	}
	args := []string{"-c", "core.hooksPath=" + os.DevNull, "log", "-z", logFormat, head, "--"}
	if prefix := s.GitPath("."); prefix != "." {
		args = append(args, ":(literal)"+prefix)
	}
	gitSpawns.Add(1)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = s.WorkTree
	cmd.Env = append(RepoFreeEnv(), "LC_ALL=C", "GIT_DIR="+s.GitDir, "GIT_WORK_TREE="+s.WorkTree)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	var entries []Entry
	r := bufio.NewReaderSize(out, 64<<10)
	fields := make([]string, 0, 6)
	for limit <= 0 || len(entries) < limit {
		f, err := r.ReadString(0)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("log: %w", err)
		}
		if fields = append(fields, strings.TrimSuffix(f, "\x00")); len(fields) < 6 {
			continue
		}
		c, err := commitFields(fields)
		fields = fields[:0]
		if err != nil {
			return nil, fmt.Errorf("log: %w", err)
		}
		if e, ok := entryOf(c); ok {
			entries = append(entries, e)
		}
	}
	if limit > 0 && len(entries) >= limit {
		cancel() // enough: git need not walk the rest
		cmd.Wait()
		return entries, nil
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("log: %w", &gitError{args: []string{"log"}, stderr: stderr.String(), err: err})
	}
	return entries, nil
}

// entryOf reads a commit as a mem Entry; ok is false for other commits.
func entryOf(c commitObject) (Entry, bool) {
	trailers := ParseTrailers(c.Message)
	e := Entry{
		Commit:   c.Hash,
		Time:     c.Time,
		Author:   c.Author,
		Subject:  strings.TrimSpace(strings.SplitN(c.Message, "\n", 2)[0]),
		Trailers: trailers,
	}
	for _, t := range trailers {
		switch {
		case e.Action == "" && strings.EqualFold(t.Key, TrailerAction):
			e.Action = t.Value
		case e.Slug == "" && strings.EqualFold(t.Key, TrailerSlug):
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
