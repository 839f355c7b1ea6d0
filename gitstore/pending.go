package gitstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// pending is a write that may be on disk but not committed yet. Apply
// records it (in <StateDir>/pending/) before it touches a file and removes
// it once the branch holds the commit or nothing is left to commit, so a
// write that could not be committed (git busy, mem killed, a merge in
// progress) is committed by the next Apply or Flush, with its own message.
type pending struct {
	Root    string        `json:"root"` // the store it belongs to: StateDir is shared by worktrees
	Message string        `json:"message"`
	Subject string        `json:"subject"`
	Paths   []pendingPath `json:"paths"` // store-relative
	Time    time.Time     `json:"time"`

	name string // file name in the journal
}

type pendingPath struct {
	Path   string `json:"path"`
	Delete bool   `json:"delete,omitempty"`
	// Before is the SHA-256 of the file before the write ("" when there
	// was none) and Data what the write put there: a file that git puts
	// back as it was before (a reset, an aborted rebase) gets Data again.
	Before string `json:"before,omitempty"`
	Data   []byte `json:"data,omitempty"`
}

func (s *Store) pendingDir() string { return filepath.Join(s.StateDir(), "pending") }

// addPending records p in the journal and returns its file name. Names sort
// in the order the writes were made.
func (s *Store) addPending(p pending) (string, error) {
	dir := s.pendingDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("record pending write: %w", err)
	}
	p.Time = time.Now().UTC()
	data, err := json.Marshal(p)
	if err != nil {
		return "", fmt.Errorf("record pending write: %w", err)
	}
	name := fmt.Sprintf("%020d-%s", p.Time.UnixNano(), tempName("w", ".json"))
	if err := atomicfile.Write(filepath.Join(dir, name), data, 0o644); err != nil {
		return "", fmt.Errorf("record pending write: %w", err)
	}
	return name, nil
}

// loadPending lists this store's pending writes, oldest first. An entry
// that cannot be read is removed: it was never completed, and the write it
// was about to make had not started (the journal is written first).
func (s *Store) loadPending() ([]pending, error) {
	des, err := os.ReadDir(s.pendingDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pending writes: %w", err)
	}
	var ps []pending
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.pendingDir(), name))
		if err != nil {
			return nil, fmt.Errorf("read pending writes: %w", err)
		}
		var p pending
		if err := json.Unmarshal(data, &p); err != nil || p.Message == "" {
			s.removePending(name)
			continue
		}
		if p.Root != s.Root {
			continue
		}
		p.name = name
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].name < ps[j].name })
	return ps, nil
}

func (s *Store) removePending(name string) {
	os.Remove(filepath.Join(s.pendingDir(), name))
}

// PendingWrite is a write whose files are in place and whose commit is
// still to be made.
type PendingWrite struct {
	Subject string    `json:"subject"` // its commit's subject, "mem: <action> <slug>"
	Paths   []string  `json:"paths"`   // store-relative
	Time    time.Time `json:"time"`    // when it was written
}

// Pending lists the store's writes not committed yet, oldest first: the
// next Apply or Flush commits them.
func (s *Store) Pending() ([]PendingWrite, error) {
	ps, err := s.loadPending()
	if err != nil {
		return nil, err
	}
	out := make([]PendingWrite, len(ps))
	for i, p := range ps {
		out[i] = PendingWrite{Subject: p.Subject, Time: p.Time}
		for _, pp := range p.Paths {
			out[i].Paths = append(out[i].Paths, pp.Path)
		}
	}
	return out, nil
}
