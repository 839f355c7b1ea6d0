// Package atomicfile replaces files so that a reader sees the old content
// or the new, never a part: the data goes to a temporary file in the same
// directory (".NAME.tmp*"), which is given its mode and renamed over the
// target. Write also syncs the file before the rename and the directory
// after it, so that a crash too leaves the old content or the new; mem's
// state files are written that way. The unsynced writes skip the syncs,
// for what is rewritten often and cheap to lose: the gate's count of a
// session, and the search cache, which is derived from the memory files
// and whose checksums catch a file a crash left torn (it is then rebuilt).
// After a crash such a file may hold the old content, the new, or nothing,
// as git's own index and objects may with git's default settings.
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

// WritePartsUnsynced replaces path as WriteUnsynced does with the
// concatenation of parts, without first joining them in memory.
func WritePartsUnsynced(path string, perm fs.FileMode, parts ...[]byte) error {
	return write(path, parts, perm, false)
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
