package gitstore

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A full disk under the objects: the files are written, the commit is not,
// and the write is reported pending with the reason, never as a failure that
// is then committed after all (issue 36, item 6). A second write that fails
// the same way keeps the first pending (item 2); once there is room, the
// next write commits both, in order.
func TestApplyDiskFull(t *testing.T) {
	repo, s := newRepo(t)
	objects := filepath.Join(repo, ".git", "objects")
	mountSmall(t, objects)
	fill := filepath.Join(objects, "fill")
	fillDisk(t, fill)

	first := apply(t, s, CommitInfo{Action: "store", Slug: "first"}, Change{Path: "first.md", Data: []byte("first\n")})
	if first.Committed || !first.Pending || !strings.Contains(first.Skipped, "could not be committed") {
		t.Fatalf("first write on a full disk: %+v", first)
	}
	second := apply(t, s, CommitInfo{Action: "store", Slug: "second"}, Change{Path: "second.md", Data: []byte("second\n")})
	if second.Committed || !second.Pending || !strings.Contains(second.Warning, "mem: store first") {
		t.Fatalf("second write on a full disk: %+v", second)
	}
	if ps, err := s.Pending(); err != nil || len(ps) != 2 {
		t.Fatalf("pending writes %+v, %v; want both", ps, err)
	}
	for _, f := range []string{"first.md", "second.md"} {
		if _, err := os.Stat(filepath.Join(s.Root, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	os.Remove(fill)
	third := apply(t, s, CommitInfo{Action: "store", Slug: "third"}, Change{Path: "third.md", Data: []byte("third\n")})
	if !third.Committed || len(third.Earlier) != 2 || third.Warning != "" {
		t.Fatalf("write with room again: %+v", third)
	}
	if got := run(t, repo, "log", "--format=%s", "-3"); got != "mem: store third\nmem: store second\nmem: store first" {
		t.Errorf("log:\n%s", got)
	}
	if ps, _ := s.Pending(); len(ps) != 0 {
		t.Errorf("still pending: %+v", ps)
	}
	checkClean(t, repo)
}

// A signing program that never answers: the commit is given up after
// signTimeout, the program stopped, and the write kept pending with the
// reason (issue 36, item 7: never hang).
func TestApplySigningHangs(t *testing.T) {
	repo, s := newRepo(t)
	prog := filepath.Join(t.TempDir(), "gpg-hangs")
	write(t, prog, "#!/bin/sh\nsleep 600\n")
	os.Chmod(prog, 0o755)
	run(t, repo, "config", "commit.gpgsign", "true")
	run(t, repo, "config", "gpg.program", prog)
	was := signTimeout
	signTimeout = 500 * time.Millisecond
	defer func() { signTimeout = was }()

	res := apply(t, s, CommitInfo{Action: "store", Slug: "signed"}, Change{Path: "signed.md", Data: []byte("signed\n")})
	if res.Committed || !res.Pending || !strings.Contains(res.Skipped, "signing the commit took over") {
		t.Fatalf("%+v", res)
	}
	if out, _ := exec.Command("pgrep", "-f", prog).Output(); len(out) > 0 {
		t.Errorf("the signing program is still running: %s", out)
	}
}

// mountSmall mounts a small tmpfs at dir with dir's contents, or skips.
func mountSmall(t *testing.T, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	saved := dir + ".saved"
	if err := os.Rename(dir, saved); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(dir, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		os.Remove(dir)
		os.Rename(saved, dir)
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	if out, err := exec.Command("cp", "-a", saved+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the objects: %v: %s", err, out)
	}
}

// fillDisk writes path until its file system is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			return
		}
	}
}
