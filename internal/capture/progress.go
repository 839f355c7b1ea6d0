package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// Progress is how far a session's transcript was captured, so that the next
// capture of it (PreCompact, then SessionEnd; or a session resumed later)
// sends the model only what is new, with the earlier part as context.
//
// # Progress format
//
// One JSON file per transcript under the state directory the caller names
// (mem uses <git-common-dir>/mem/capture/), named by the SHA-256 of the
// transcript's absolute path, first 16 hex digits, plus ".json":
//
//	{"session":"<sessionId>","transcript":"/abs/path.jsonl","offset":48213,
//	 "written":["slug-a","slug-b"],"captured":"2026-11-20T10:31:00Z"}
//
// offset is Session.End of the last capture that got an answer: the byte
// offset just past the last complete transcript line it read. written lists
// every memory captures of this session wrote, oldest first. A missing file
// is a session never captured; a file that cannot be read is treated the
// same (the worst case is one capture that sends the whole session again).
type Progress struct {
	Session    string    `json:"session"`
	Transcript string    `json:"transcript"`
	Offset     int64     `json:"offset"`
	Written    []string  `json:"written,omitempty"`
	Captured   time.Time `json:"captured"`
}

// progressFile is where the progress of the transcript at path is kept.
func progressFile(dir, path string) (string, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:8])+".json"), abs, nil
}

// LoadProgress reads the progress of the transcript at path from dir; the
// zero Progress (for that transcript) when there is none.
func LoadProgress(dir, path string) (Progress, error) {
	file, abs, err := progressFile(dir, path)
	if err != nil {
		return Progress{}, err
	}
	p := Progress{Transcript: abs}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("read capture progress: %w", err)
	}
	var got Progress
	if json.Unmarshal(data, &got) != nil || got.Transcript != abs || got.Offset < 0 {
		return p, nil // unreadable or not ours: capture from the start
	}
	return got, nil
}

// Advance records that the session was captured up to s.End and that the
// given memories were written from it.
func (p *Progress) Advance(s *Session, written []string, now time.Time) {
	p.Session = s.ID
	p.Offset = s.End
	for _, w := range written {
		if !slices.Contains(p.Written, w) {
			p.Written = append(p.Written, w)
		}
	}
	p.Captured = now.UTC().Truncate(time.Second)
}

// Save writes the progress into dir atomically.
func (p Progress) Save(dir string) error {
	file, _, err := progressFile(dir, p.Transcript)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save capture progress: %w", err)
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("save capture progress: %w", err)
	}
	return nil
}
