//go:build linux || darwin || freebsd || netbsd || openbsd

package search

import (
	"os"
	"syscall"

	"github.com/mem-dev/mem/internal/rawfile"
)

// mapFile maps path read-only. An empty file is returned as nil data. It
// uses the raw system calls: an os.File would set up Go's network poller
// (epoll and an eventfd) on the prompt path for a file it only maps.
func mapFile(path string) ([]byte, func() error, error) {
	// O_NONBLOCK and a regular file only: a FIFO or a device put where the
	// cache belongs must fail at once, not wait for a writer or read for
	// ever (the cache is then rebuilt over it).
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: rawfile.ErrNotRegular}
	}
	size := st.Size
	if size == 0 || size != int64(int(size)) {
		return nil, nil, nil
	}
	data, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// Some file systems cannot map; read instead.
		data, err := os.ReadFile(path)
		return data, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
