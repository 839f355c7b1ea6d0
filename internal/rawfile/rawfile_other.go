//go:build !unix

package rawfile

import "os"

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
