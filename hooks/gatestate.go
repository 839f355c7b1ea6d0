package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// gateState is the per-session state, see the package notes above.
type gateState struct {
	Version    int        `json:"version"`
	Transcript string     `json:"transcript"`
	Offset     int64      `json:"offset"`
	ToolCalls  int        `json:"tool_calls"`
	SinceCheck int        `json:"assistant_since_check"`
	Checks     int        `json:"checks"`
	LookedUp   bool       `json:"looked_up"`
	Blocked    bool       `json:"blocked"`
	Resync     bool       `json:"resync,omitempty"` // Offset may fall inside a line (after a pass-over)
	Window     gateWindow `json:"window"`
	// StoreEdits are files of the project's store the agent edited in
	// place since the last stop, for the stop to commit.
	StoreEdits []string  `json:"store_edits,omitempty"`
	Updated    time.Time `json:"updated"`
}

// gateWindow accumulates what happened since the last check.
type gateWindow struct {
	Edited   []string `json:"edited,omitempty"`   // absolute paths, in first-edit order
	Overflow bool     `json:"overflow,omitempty"` // more files were edited than Edited keeps
	Stored   bool     `json:"stored"`
}

func (w *gateWindow) addEdit(path string) {
	if slices.Contains(w.Edited, path) {
		return
	}
	if len(w.Edited) >= gateMaxEditedKept {
		w.Overflow = true
		return
	}
	w.Edited = append(w.Edited, path)
}

func loadGateState(path string) (gateState, bool, error) {
	var st gateState
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("gate: read state: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil || st.Version != gateStateVersion {
		// A torn or foreign state: start over, as for a new session.
		return gateState{}, true, nil
	}
	return st, true, nil
}

// writeGateState replaces the state by rename, so a reader never sees half
// of it. It does not sync (atomicfile.WriteUnsynced): the state is written
// at every stop, and losing it to a crash only starts the session's count
// over.
func writeGateState(dir, path string, st *gateState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	if err := atomicfile.WriteUnsynced(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("gate: write state: %w", err)
	}
	return nil
}

// pruneGateDir removes the state and lookup files of sessions untouched for
// gateStateMaxAge. Best effort.
func pruneGateDir(dir string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, gateLookupExtension) && !strings.Contains(name, ".json.tmp") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > gateStateMaxAge {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// gateFileName turns a session id into a file name: [A-Za-z0-9._-] are
// kept, anything else becomes '_' and adds a hash of the id, so that
// different ids never share a file.
func gateFileName(id string) string {
	b := []byte(id)
	changed := false
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
			changed = true
		}
	}
	if len(b) > 100 {
		b = b[:100]
		changed = true
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte{'_'}, b...)
		changed = true
	}
	if changed {
		h := fnv.New32a()
		h.Write([]byte(id))
		b = fmt.Appendf(b, "-%08x", h.Sum32())
	}
	return string(b)
}
