// Package sessions is the index of past Claude Code sessions: what was
// asked, which tools ran, which shell commands, and what failed, so that
// "has this happened before, and in how many sessions?" is a lookup and not
// a model's guess.
//
// The index is built from the session transcripts (package transcript) in
// ~/.claude/projects/<encoded work tree>/, subagent files included, and is
// a cache: deleting it loses nothing that the transcripts still hold. It
// keeps what it read of transcripts that Claude Code has since deleted
// (after cleanupPeriodDays), so the index remembers longer than the files.
//
// # Incremental reading
//
// Each transcript file has its own record, holding the byte offset read up
// to. Update stats every file: when size and modification time match the
// record the file is not opened; when it grew, only the lines past the
// offset are read (a half-written last line is left for next time); when it
// shrank, or its first 4 KiB no longer hash to what the record saw, it is
// read again from the start. A tool result is matched to its call by
// tool_use id across reads, so a call whose result arrives in a later read
// is still marked failed.
//
// # Sessions
//
// A session is a sessionId. The main transcript and its subagents' files
// (which carry the parent's sessionId) count as one session. Lines without
// a sessionId (old title lines, snapshots) belong to none, except user and
// assistant lines, which take the file's last session, or the file's name.
//
// # What is indexed
//
//   - prompts: what the human typed (transcript.Entry.Prompt), main chain
//     only, up to 4,000 bytes each.
//   - calls: every tool_use block: tool, id, file_path, and for Bash the
//     command (up to 1,000 bytes) and its simple commands normalized (see
//     [Normalize] for the rule).
//   - errors: every tool_result with is_error (kind "tool", or "denied" when
//     the person refused the call), with the failed call's tool and
//     normalized commands and the exit code when the text shows "Exit code
//     N", and assistant lines flagged isApiErrorMessage (kind "api").
//     Messages are kept up to 600 bytes.
//
// # Cache format
//
// One JSON file per transcript file, <dir>/<fnv64a of its absolute
// path>.json, written atomically (temp file, fsync, rename, fsync of the
// directory):
//
//	{"version":1, "path":"/abs/file.jsonl", "size":N, "mod_time":"...",
//	 "offset":N, "head":"<sha256 prefix of the first 4 KiB>",
//	 "lines":N, "malformed":N, "current":"<last session id>",
//	 "sessions":{"<id>":{"first":"...","last":"...","entries":N}},
//	 "prompts":[Prompt...], "calls":[Call...], "errors":[Error...]}
//
// Records are not locked: each is replaced whole by a rename, so two
// indexers racing can at worst make the next Update read some lines again,
// never leave a torn record. A record of another version is dropped and its
// file read again.
package sessions
