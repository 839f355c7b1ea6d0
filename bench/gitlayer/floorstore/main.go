// Command floorstore is the floor for mem store in bench/gitlayer.sh: the
// least any store can do that commits with git's update-index and
// update-ref, as gitstore does. It is a Go process that writes the note,
// stages it with git update-index on a hard link of the index (as gitstore
// prepares the user's index) and moves a branch of its own with git
// update-ref's compare-and-swap, both started at once. It writes no tree
// and no commit (the branch swings between two commits made beforehand),
// keeps no journal, syncs nothing, refreshes no cache and puts the index it
// staged nowhere, so that nothing it does shows in the user's repository.
//
//	floorstore REPO PATH NOTE BRANCH A B
//
// writes NOTE's content to REPO/PATH and moves refs/heads/BRANCH from A to
// B, or from B to A.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: floorstore REPO PATH NOTE BRANCH A B")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6]); err != nil {
		fmt.Fprintln(os.Stderr, "floorstore:", err)
		os.Exit(1)
	}
}

func run(repo, path, note, branch, a, b string) error {
	git := filepath.Join(repo, ".git")
	data, err := os.ReadFile(note)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(repo, path), data, 0o644); err != nil {
		return err
	}
	index := filepath.Join(git, fmt.Sprintf("floor-index.%d", os.Getpid()))
	if err := os.Link(filepath.Join(git, "index"), index); err != nil {
		return err
	}
	defer os.Remove(index)

	stage := exec.Command("git", "-c", "core.hooksPath=/dev/null", "update-index", "--add", "--remove", "-z", "--stdin")
	stage.Dir = repo
	stage.Env = append(os.Environ(), "GIT_INDEX_FILE="+index)
	stage.Stdin = strings.NewReader(path + "\x00")
	ref := exec.Command("git", "-c", "core.hooksPath=/dev/null", "update-ref", "-m", "floor", "--stdin")
	ref.Dir = repo
	pipe, err := ref.StdinPipe() // the transaction, once the note is staged
	if err == nil {
		err = ref.Start()
	}
	if err != nil {
		return err
	}
	if err := stage.Run(); err != nil {
		pipe.Close()
		ref.Wait()
		return fmt.Errorf("git update-index: %w", err)
	}
	old, err := os.ReadFile(filepath.Join(git, "refs", "heads", branch))
	if err != nil {
		return err
	}
	from, to := a, b
	if strings.TrimSpace(string(old)) == b {
		from, to = b, a
	}
	fmt.Fprintf(pipe, "start\nupdate refs/heads/%s %s %s\nprepare\ncommit\n", branch, to, from)
	pipe.Close()
	if err := ref.Wait(); err != nil {
		return fmt.Errorf("git update-ref: %w", err)
	}
	return nil
}
