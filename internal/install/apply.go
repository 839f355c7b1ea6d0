package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mem-dev/mem/internal/atomicfile"
)

// Apply makes the changes, in order. It first checks that every file still
// holds what the plan saw, and refuses to start when one does not. Each
// file is replaced atomically (temp file, fsync, rename) with the mode the
// change gives; a failure part way leaves the files before it changed.
func Apply(changes []Change) error {
	for _, c := range changes {
		if err := unchanged(c); err != nil {
			return err
		}
	}
	for _, c := range changes {
		var err error
		switch {
		case c.Mode&fs.ModeDir != 0:
			err = removeEmptyDir(c.Path)
		case c.After == nil:
			if err = os.Remove(c.Path); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		default:
			err = writeAtomic(c.Path, c.After, c.Mode.Perm())
		}
		if err != nil {
			return fmt.Errorf("apply: %w", err)
		}
	}
	return nil
}

// unchanged checks that c.Path holds c.Before (or is absent when Before is
// nil).
func unchanged(c Change) error {
	if c.Mode&fs.ModeDir != 0 {
		return nil
	}
	data, err := os.ReadFile(c.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.Before == nil:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("apply: %w", err)
	case err == nil && c.Before != nil && bytes.Equal(data, c.Before):
		return nil
	}
	return fmt.Errorf("apply: %s changed since the plan was made; plan again", c.Path)
}

func removeEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) > 0 {
		return nil // gone already, or no longer empty: leave it
	}
	if err != nil {
		return err
	}
	return os.Remove(dir)
}

// writeAtomic replaces path with data (see internal/atomicfile), creating
// its directory.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data, mode)
}
