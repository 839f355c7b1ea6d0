package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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

// writeAtomic replaces path with data: a temporary file in the same
// directory is written, synced and renamed over it, and the directory is
// synced, so a reader sees the old file or the new one, never a part.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".mem-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // not every file system can sync a directory
		d.Close()
	}
	return nil
}
