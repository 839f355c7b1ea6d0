//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package search

import "os"

// mapFile reads path whole where mapping is not available.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	return data, nil, err
}
