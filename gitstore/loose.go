package gitstore

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// zlibWriters keeps a writer between objects: each new one allocates over
// a megabyte (its window and tables), which a command that collects no
// garbage pays in page faults, four times per commit.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return zw
}}

// writeLoose writes an object of type t as git writes a loose one: zlib at
// core.looseCompression's default, best speed (go-git compresses at zlib's
// default level, which at 10,000 memories spent 22 ms of a write deflating
// the store's tree), into objects/<2 hex>/<38 hex> through a temporary file
// and a rename, so that no reader sees half an object. An object already
// there is left as it is. Like git by default (core.fsync), it does not
// sync loose objects.
func writeLoose(objectsDir string, t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(t, data)
	hex := h.String()
	dir := filepath.Join(objectsDir, hex[:2])
	path := filepath.Join(dir, hex[2:])
	if _, err := os.Lstat(path); err == nil {
		return h, nil
	}
	var buf bytes.Buffer
	buf.Grow(len(data)/2 + 64)
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(&buf)
	zw.Write([]byte(t.String() + " " + strconv.Itoa(len(data)) + "\x00"))
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return h, err
	}
	f, err := os.CreateTemp(dir, "tmp_obj_")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			f, err = os.CreateTemp(dir, "tmp_obj_")
		}
	}
	if err != nil {
		return h, err
	}
	tmp := f.Name()
	_, werr := f.Write(buf.Bytes())
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp, 0o444)); err != nil {
		os.Remove(tmp)
		return h, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return h, err
	}
	return h, nil
}
