// Package rawfile opens files for the prompt path without Go's network
// poller. os.OpenFile registers every file it opens with epoll, creating the
// poller (an epoll instance and an eventfd) on first use; a hook that opens
// three small files and exits pays for that on every prompt. A blocking
// descriptor wrapped by os.NewFile is never registered.
//
// It opens regular files only: a hook is given paths by others (a
// transcript path, a settings file, its own cache), and a FIFO there would
// make open or read wait for ever, a device such as /dev/zero would never
// end. Such a path fails at once with ErrNotRegular.
package rawfile

import (
	"errors"
	"io"
	"os"
)

// ErrNotRegular is the error (wrapped in an *os.PathError) for a path that
// is not a regular file: a FIFO, a device, a directory, a socket.
var ErrNotRegular = errors.New("not a regular file")

// Open is os.OpenFile, for regular files only, without poller registration
// where the platform allows it. Opening never waits (a FIFO fails at once).
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return open(path, flag, perm)
}

// ReadFile is os.ReadFile without poller registration where the platform
// allows it. Like os.ReadFile it sizes its buffer from the file's size, so
// a small file is read into one allocation.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<30 {
		size = max(size, int(fi.Size())+1) // one more byte to meet EOF
	}
	return ReadAll(f, make([]byte, 0, size))
}

// ReadAll reads r to its end, appending to buf. Unlike io.ReadAll it fills
// the capacity the caller sized before growing it: in a process that lives
// for a millisecond every fresh page costs a fault, and growing a buffer by
// doubling from 512 bytes touches a new one at every step.
func ReadAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
