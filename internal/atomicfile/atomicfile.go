// Package atomicfile replaces files so that a reader sees the old content
// or the new, never a part: the data goes to a temporary file in the same
// directory (".NAME.tmp*"), which is given its mode and renamed over the
// target. Write also syncs the file before the rename and the directory
// after it, so that a crash too leaves the old content or the new; mem's
// caches and state files are written that way. WriteUnsynced skips the
// syncs, for state that is rewritten often and cheap to lose (the gate's
// count of a session): after a crash it may hold the old content, the new,
// or nothing.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, with exactly the permissions perm (the
// umask does not apply), synced. The directory must exist. On error the
// target is untouched and no temporary file is left.
func Write(path string, data []byte, perm fs.FileMode) error {
	return write(path, [][]byte{data}, perm, true)
}

// WriteParts replaces path as Write does with the concatenation of parts,
// without first joining them in memory.
func WriteParts(path string, perm fs.FileMode, parts ...[]byte) error {
	return write(path, parts, perm, true)
}

// WriteUnsynced replaces path with data as Write does, without syncing.
func WriteUnsynced(path string, data []byte, perm fs.FileMode) error {
	return write(path, [][]byte{data}, perm, false)
}

func write(path string, parts [][]byte, perm fs.FileMode, sync bool) (err error) {
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
	for _, p := range parts {
		if _, err = f.Write(p); err != nil {
			return err
		}
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if sync {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if sync {
		if d, derr := os.Open(dir); derr == nil {
			d.Sync() // not every file system can sync a directory
			d.Close()
		}
	}
	return nil
}
