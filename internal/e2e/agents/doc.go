// Package agents holds end-to-end tests of mem with the other agents' real
// clients, OpenCode (npm opencode-ai) and Codex (npm @openai/codex): after
// `mem install --agents opencode,codex` in a temporary repository, each
// client's own `mcp list` must find mem's MCP server where its users
// configure servers, and OpenCode's must connect to it. Both then run a
// whole session (`opencode run`, `codex exec`) against a fake Responses API
// on loopback (internal/e2e/responsesapi) whose scripted model calls mem's
// tools, and for Codex mem's CLI through its sandboxed shell. A
// test skips, saying why, when its client is not on PATH; .ci/run installs
// both.
package agents
