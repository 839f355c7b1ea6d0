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
//     (".<name>.tmp-<pid>-<random>", never ending in ".md"), fsynced, renamed over the
//     target, and the directory is fsynced. A crash leaves either the old or
//     the new content, and at worst a dot-named temporary file that [Store.Walk]
//     never reports.
//   - One change, one commit. [Store.Apply] turns a set of changes into exactly
//     one commit that touches only store paths, built on HEAD's tree (never
//     from the user's index), so whatever the user has staged is never swept
//     in; the branch moves with git's compare-and-swap. No hooks run.
//   - The index before the branch. The user's index is brought in line for
//     exactly the committed paths before the branch moves, both under git's
//     own <GitDir>/index.lock (see userindex.go): a branch never holds a
//     memory that the index lacks, so the user's next `git commit` can never
//     delete it, and no `git commit` runs between the two. The user's other
//     staged and unstaged work is untouched.
//   - Nothing written is left uncommitted. Apply records each write in a
//     journal (<StateDir>/pending/) before it puts a file in place (the new
//     contents are written and synced beside their files meanwhile, and none
//     is put in place when one of them or the journal cannot be written) and
//     clears it
//     once the branch holds the commit. A write that could not be committed
//     (another git held index.lock past a short wait, the branch kept moving,
//     mem was killed, a merge was in progress) is committed, with its own
//     message, by the next Apply or [Store.Flush]; [Result.Pending] says so.
//     A write whose commit fails once its files are in place (a full disk,
//     a commit git cannot sign) is pending too, with the reason, and a
//     record is never dropped because a commit failed ([Store.Pending]
//     lists them). The journal keeps what each write put in place and the
//     hash of what was there before, so a file that git puts back as it
//     was (rebase --abort, reset --hard) gets the write again, with a
//     warning.
//   - What the index says is read first (indexstate.go). A conflicted path
//     or a file with conflict markers is never committed; skip-worktree
//     and assume-unchanged are cleared on the paths a commit stages, so
//     that git stages the files on disk; a write over a memory the work
//     tree does not show (a sparse checkout) is refused.
//   - Signed where git signs. With commit.gpgsign set, the commit is made
//     by git commit-tree -S with the user's signing configuration, within
//     a bound; one that cannot be signed stays pending and says why.
//   - No commit when git is busy. Mid-merge, mid-rebase, mid-cherry-pick or
//     revert, mid-bisect, on a detached HEAD, or outside any git repository,
//     Apply writes the files and does not commit; [Result.Skipped] says why.
//   - Leftovers are cleaned, and only mem's. Git children run in their own
//     process group and are stopped with SIGTERM (on which git removes its
//     locks), so killing mem does not kill git holding a lock. What a killed
//     mem leaves (its index.lock, whose content names its pid, with the ref
//     locks it records; temporary files named with a pid, or old enough) is
//     removed by the next write once that process is gone; a lock of git's or
//     of a live process is never touched.
//   - Mem commits are recognisable. The message is "mem: <action> <slug>", a
//     blank line, an optional body, a blank line and trailers, the first of
//     which is "Mem-Action: <action>" (action.go declares every action and
//     trailer key mem writes). [Store.Log] lists exactly the commits
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
//	<CommonDir>/mem/pending/    writes not committed yet, one JSON file each
//	<CommonDir>/mem/index.<pid>.*.tmp  a temporary index (the git CLI backend)
//	<GitDir>/mem-index.<pid>.*.tmp     the user's next index, being prepared
//	<GitDir>/index.lock         git's lock; while mem holds it, "mem-lock pid=N start=S"
//
// # Git
//
// All of mem's access to git goes through this package. Objects (blobs,
// trees, commits) and HEAD are read and written through one seam, objects,
// with two implementations held to each other by one conformance suite
// (objects_test.go): go-git in process, for every repository go-git can
// open, and git's plumbing, the reference, for the rest (SHA-256
// repositories, say). Two operations stay with the git command in both: the
// update of the user's index (update-index, which keeps the index's
// extensions) and the compare-and-swap of the branch (update-ref, which
// writes the reflogs): a commit takes those two git processes and no
// more. The log is git log limited to the store's path, read as it comes.
// go-git use is serialised by a package mutex: it is not safe for
// concurrent use. git must be on PATH.
package gitstore
