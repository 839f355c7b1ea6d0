// Package atomicfile replaces files so that a reader, or a crash, sees the
// old content or the new, never a part: the data goes to a temporary file in
// the same directory, which is synced, given its mode and renamed over the
// target, and the directory is synced after the rename.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, with exactly the permissions perm (the
// umask does not apply). The directory must exist. On error the target is
// untouched and no temporary file is left.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
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
	if err = f.Chmod(perm); err != nil {
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
		d.Sync() // not every file system can sync a directory
		d.Close()
	}
	return nil
}
