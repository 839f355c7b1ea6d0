//go:build linux || darwin || freebsd || netbsd || openbsd

package search

import (
	"os"
	"syscall"
)

// mapFile maps path read-only. An empty file is returned as nil data.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size == 0 || size != int64(int(size)) {
		return nil, nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		// Some file systems cannot map; read instead.
		data, err := os.ReadFile(path)
		return data, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
