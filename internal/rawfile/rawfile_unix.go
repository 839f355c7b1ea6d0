//go:build unix

package rawfile

import (
	"os"
	"syscall"
)

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	// O_NONBLOCK: opening a FIFO would otherwise wait for its other end.
	// It is cleared once the file is known to be regular, so that os.NewFile
	// does not register the descriptor with the poller.
	fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC|syscall.O_NONBLOCK, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
