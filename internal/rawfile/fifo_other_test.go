//go:build !unix

package rawfile

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
