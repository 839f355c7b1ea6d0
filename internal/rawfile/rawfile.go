// Package rawfile opens files for the prompt path without Go's network
// poller. os.OpenFile registers every file it opens with epoll, creating the
// poller (an epoll instance and an eventfd) on first use; a hook that opens
// three small files and exits pays for that on every prompt. A blocking
// descriptor wrapped by os.NewFile is never registered.
package rawfile

import (
	"io"
	"os"
)

// Open is os.OpenFile without poller registration where the platform
// allows it.
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
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
