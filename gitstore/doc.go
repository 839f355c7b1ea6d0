// Package gitstore is the memory store's files and their commits.
//
// A store is a directory of markdown files (Root), usually inside a git work
// tree. This package is the only code that writes to it, and it keeps these
// invariants:
//
//   - Confinement. Every read and write goes through an [os.Root] opened on
//     Root. A store-relative path that is absolute, climbs out with "..", or
//     reaches outside through a symlink is refused with an error that wraps
//     [ErrEscape]; nothing outside Root is read or written. Paths with a ".git"
//     component are refused too.
//   - Atomic files. A file is written to a temporary file in the same directory
//     (".<name>.tmp-<random>", never ending in ".md"), fsynced, renamed over the
//     target, and the directory is fsynced. A crash leaves either the old or
//     the new content, and at worst a dot-named temporary file that [Store.Walk]
//     never reports.
//   - One change, one commit. [Store.Apply] turns a set of changes into exactly
//     one commit that touches only store paths. The commit is built with git
//     plumbing on a temporary index (read-tree HEAD, update-index, write-tree,
//     commit-tree, update-ref with compare-and-swap), so whatever the user has
//     staged is never swept in. Afterwards the user's own index is brought in
//     line for exactly the committed store paths, so `git status` is clean for
//     the store while the user's other staged and unstaged work is untouched.
//     No hooks run.
//   - No commit when git is busy. Mid-merge, mid-rebase, mid-cherry-pick or
//     revert, mid-bisect, on a detached HEAD, or outside any git repository,
//     Apply writes the files and does not commit; [Result.Skipped] says why.
//   - Mem commits are recognisable. The message is "mem: <action> <slug>", a
//     blank line, an optional body, a blank line and trailers, the first of
//     which is "Mem-Action: <action>". [Store.Log] lists exactly the commits
//     that carry a Mem-Action trailer; [Store.Undo] reverts one of them as a
//     new commit and refuses anything else.
//   - One writer at a time. [Store.Lock] takes an exclusive flock on
//     <CommonDir>/mem/store.lock (<Root>/.mem/store.lock outside git), so
//     writers in different processes and worktrees of one repository
//     serialise. Callers hold it around Apply and Undo.
//
// # On disk
//
//	<Root>/**/*.md            memories and MEMORY.md indexes
//	<CommonDir>/mem/          state shared by all worktrees (see [Store.StateDir])
//	<CommonDir>/mem/store.lock  the writers' lock (an empty file; flock)
//	<CommonDir>/mem/index.*.tmp  the temporary index of a commit in progress
//
// History is read with go-git, serialised by a package mutex because go-git is
// not safe for concurrent use. Commits are written with the git command, which
// must be on PATH.
package gitstore
