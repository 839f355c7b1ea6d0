// Package hooks holds mem's Claude Code hook handlers. They run inside
// Claude Code on every prompt or stop, so they import only the standard
// library and mem's lean packages (search, locate, transcript, memuse and
// small helpers such as rawfile, jsonscan and logfile: the lean set that
// docs/architecture.md lists and cmd/mem-hook's test holds the binary to),
// compile no regexp at init, and fail open: an error of their own never
// blocks the agent.
//
// # Stop gate (`mem gate`)
//
// Claude Code runs the Stop hook each time the agent finishes a turn. The
// gate sends the agent back (exit 2, instructions on stderr) when, in the
// stretch of work since its previous check (its window), the agent edited
// files (tools Edit, Write, MultiEdit, NotebookEdit) and stored no memory
// (`mem store` through Bash, or an MCP `memory_store`; an edit of a file in
// the memory store counts as storing). The first check of a session also
// asks for a search when the session has not looked anything up (`mem
// search` through Bash, an MCP `context_query`, or an injection by the
// prompt hook, which calls [RecordLookup]).
//
// The gate stays out of repositories without a store directory (a gate
// installed for every repository must not make agents create stores). A
// check runs only once the session has made 3 tool calls, and at most once
// per 2 new assistant entries. Each check judges its own window and then
// starts a new one, so an early slip is flagged once, never at every later
// stop. The stop that follows a block (stop_hook_active) is never checked,
// and the work done in that retry belongs to no window: a store made there
// answers the block and does not excuse later edits.
//
// When the agent looked a memory up itself since the previous stop (`mem
// search` or `mem show` through Bash, an MCP `context_query` or
// `memory_show`, a Read of a memory file), the gate hands the stop to its
// [Learner], which starts `mem learn` detached: the prompt the hook missed
// may be an alias the memory lacks (package learn). background.Env turns
// that off.
//
// Every error of the gate's own (bad input, a missing transcript, an
// unwritable state) lets the agent stop (exit 0) and appends one line to
// <state dir>/hook.log when the state directory is known. Only the deliberate
// block exits 2.
//
// # Gate state format
//
// One JSON file per session, <state dir>/gate/<session id>.json (the id
// reduced to [A-Za-z0-9._-], with a hash suffix when anything was replaced),
// written by temp file and rename (atomicfile.WriteUnsynced):
//
//	{"version":1,"transcript":"/…/<session>.jsonl","offset":1234567,
//	 "tool_calls":17,"assistant_since_check":3,"checks":2,"looked_up":true,
//	 "blocked":false,"window":{"edited":["/abs/path.go"],"stored":false},
//	 "updated":"2026-08-22T10:31:00Z"}
//
// offset is how far the transcript has been read (only assistant entries are
// decoded, from there on, so a later stop costs what was appended since).
// When the transcript is shorter than offset or the offset no longer starts
// a line, the file was replaced: counts and window restart from 0. The
// state is a cache and is not fsynced: a lost or unreadable state only
// means reading the transcript again from its start.
//
// <state dir>/gate/<session id>.lookup exists once the prompt hook has
// injected memories into the session (one line per injection). Files of both
// kinds older than 30 days are removed when a new session's state is first
// written.
package hooks
