package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
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

// errLooseFormat is a loose object whose header does not say what it holds.
var errLooseFormat = errors.New("malformed loose object")

// readLoose reads the loose object h of type t: the commit path reads the
// store's tree, which holds an entry per memory and is loose after mem's own
// last commit, and going through go-git's object storage to read it copied
// it twice and cost as much again as inflating it. It reads to the end, so
// that zlib checks the object's checksum. An object that is not loose
// (packed) is fs.ErrNotExist: the caller reads it with go-git.
func readLoose(objectsDir string, t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(objectsDir, hex[:2], hex[2:]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReaderSize(f, 32<<10))
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", hex, err)
	}
	defer zr.Close()
	head := make([]byte, 0, 32)
	var b [1]byte
	for {
		if _, err := io.ReadFull(zr, b[:]); err != nil {
			return nil, fmt.Errorf("object %s: %w", hex, err)
		}
		if b[0] == 0 {
			break
		}
		if head = append(head, b[0]); len(head) > 32 {
			return nil, fmt.Errorf("object %s: %w", hex, errLooseFormat)
		}
	}
	kind, size, ok := bytes.Cut(head, []byte{' '})
	n, err := strconv.ParseInt(string(size), 10, 64)
	if !ok || err != nil || n < 0 || string(kind) != t.String() {
		return nil, fmt.Errorf("object %s: %w", hex, errLooseFormat)
	}
	// Sized by the header, up to a bound: a damaged header must not
	// allocate what the object does not hold.
	buf := bytes.NewBuffer(make([]byte, 0, min(n, 64<<20)+bytes.MinRead)) // ReadFrom keeps MinRead free
	if _, err := io.CopyN(buf, zr, n); err != nil {
		return nil, fmt.Errorf("object %s: %w", hex, err)
	}
	// Nothing may follow the body, as git has it; read to its end, zlib also
	// checks the stream's checksum. A Read may return its last byte together
	// with io.EOF.
	for {
		got, err := zr.Read(b[:])
		if got > 0 {
			return nil, fmt.Errorf("object %s: %w", hex, errLooseFormat)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", hex, err)
		}
	}
	return buf.Bytes(), nil
}
