package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// writeAtomic replaces rel (clean, slash-separated) in r with data: a temporary
// file in the same directory (".<name>.tmp-<pid>-<random>", so that one left by
// a killed process can be told from one in use) is written, fsynced and renamed
// over rel, and the directory is fsynced. Missing parent directories are created. The mode of an
// existing file is kept.
func (s *Store) writeAtomic(r *os.Root, rel string, data []byte) (err error) {
	native := filepath.FromSlash(rel)
	dir := filepath.Dir(native)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return s.pathErr("write", rel, err)
		}
	}
	perm := fs.FileMode(0o644)
	if fi, err := r.Lstat(native); err == nil {
		switch {
		case fi.Mode().IsRegular():
			perm = fi.Mode().Perm()
		case fi.Mode()&fs.ModeSymlink != 0:
			// Writing replaces the link itself; still refuse one that leads out,
			// so that a write never looks as if it went through it.
			if _, err := r.Stat(native); err != nil && !errors.Is(err, fs.ErrNotExist) || s.resolvesOutside(rel) {
				return &EscapeError{Path: rel}
			}
		case fi.IsDir():
			return fmt.Errorf("write %s: is a directory", rel)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return s.pathErr("write", rel, err)
	}

	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%s", path.Base(rel), os.Getpid(), hex.EncodeToString(rnd[:])))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return s.pathErr("write", rel, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err = r.Rename(tmp, native); err != nil {
		return s.pathErr("write", rel, err)
	}
	return syncDir(r, dir)
}

// remove deletes rel from r; a file that does not exist is not an error.
func (s *Store) remove(r *os.Root, rel string) error {
	native := filepath.FromSlash(rel)
	if fi, err := r.Lstat(native); err == nil && fi.IsDir() {
		return fmt.Errorf("remove %s: is a directory", rel)
	}
	if err := r.Remove(native); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.pathErr("remove", rel, err)
	}
	return syncDir(r, filepath.Dir(native))
}

func syncDir(r *os.Root, dir string) error {
	d, err := r.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
