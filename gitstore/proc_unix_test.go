//go:build unix

package gitstore

import "testing"

// TestWithin: a process counts as in the work tree when its directory is the
// tree or lies under it, not when it only shares the tree's name as a prefix.
func TestWithin(t *testing.T) {
	tests := []struct {
		dir, root string
		want      bool
	}{
		{"/home/u/repo", "/home/u/repo", true},
		{"/home/u/repo/src/x", "/home/u/repo", true},
		{"/home/u/repo/", "/home/u/repo/", true},
		{"/home/u/repo2", "/home/u/repo", false},
		{"/home/u", "/home/u/repo", false},
		{"/elsewhere", "/home/u/repo", false},
		{"/anything", "/", true},
	}
	for _, tt := range tests {
		if got := within([]byte(tt.dir), tt.root); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.dir, tt.root, got, tt.want)
		}
	}
}
