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

// staged is a file's new content written and synced beside it, waiting to
// be renamed over it (install) or removed (discard).
type staged struct {
	rel, tmp, native, dir string
}

// stage writes data for rel (clean, slash-separated) in r to a temporary file
// in the same directory (".<name>.tmp-<pid>-<random>", so that one left by a
// killed process can be told from one in use) and fsyncs it. Missing parent
// directories are created. The mode of an existing file is kept. Nothing is
// replaced until install.
func (s *Store) stage(r *os.Root, rel string, data []byte) (st staged, err error) {
	native := filepath.FromSlash(rel)
	dir := filepath.Dir(native)
	if dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return st, s.pathErr("write", rel, err)
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
				return st, &EscapeError{Path: rel}
			}
		case fi.IsDir():
			return st, fmt.Errorf("write %s: is a directory", rel)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return st, s.pathErr("write", rel, err)
	}

	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%d-%s", path.Base(rel), os.Getpid(), hex.EncodeToString(rnd[:])))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return st, s.pathErr("write", rel, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			r.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return st, fmt.Errorf("write %s: %w", rel, err)
	}
	if err = f.Sync(); err != nil {
		return st, fmt.Errorf("write %s: %w", rel, err)
	}
	if err = f.Close(); err != nil {
		return st, fmt.Errorf("write %s: %w", rel, err)
	}
	return staged{rel: rel, tmp: tmp, native: native, dir: dir}, nil
}

// install renames a staged file over its target and fsyncs the directory.
func (s *Store) install(r *os.Root, st staged) error {
	if err := r.Rename(st.tmp, st.native); err != nil {
		r.Remove(st.tmp)
		return s.pathErr("write", st.rel, err)
	}
	return syncDir(r, st.dir)
}

// discard removes a staged file that will not be installed.
func (st staged) discard(r *os.Root) {
	if st.tmp != "" {
		r.Remove(st.tmp)
	}
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
