// Package claudecode holds mem's end-to-end tests inside the real Claude
// Code: the `claude` CLI (npm package @anthropic-ai/claude-code) runs in
// print mode in temporary git repositories where `mem install` wired mem in,
// against a fake Messages API on loopback (internal/e2e/messagesapi) whose
// replies each test scripts. The tests assert on what the model was sent:
// the hooks' context as Claude Code delivered it, the gate's feedback, the
// MCP tools' results; and on the repository afterwards: the commits mem
// made, the user's staged work, the files uninstall restored.
//
// The package has no code of its own; the tests skip, saying why, when
// `claude` is not on PATH. .ci/run installs it.
package claudecode
