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
// allows it.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
