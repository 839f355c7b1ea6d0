//go:build unix

package web

import "syscall"

// sameInode compares the Sys() of two FileInfos by device and inode: the
// index is replaced by a rename, which gives it a new inode.
func sameInode(a, b any) bool {
	x, ok1 := a.(*syscall.Stat_t)
	y, ok2 := b.(*syscall.Stat_t)
	return ok1 && ok2 && x.Dev == y.Dev && x.Ino == y.Ino
}
