//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package search

import (
	"os"

	"github.com/mem-dev/mem/internal/rawfile"
)

// mapFile reads path whole where mapping is not available; only a regular
// file is read.
func mapFile(path string) ([]byte, func() error, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil, &os.PathError{Op: "open", Path: path, Err: rawfile.ErrNotRegular}
	}
	data, err := os.ReadFile(path)
	return data, nil, err
}
