#!/usr/bin/env bash
# What a Claude Code session pays for mem, inside the real Claude Code:
# `claude -p` against a fake Messages API on loopback, interleaved across
# repositories that differ only in what is installed (bench/session), with
# the hooks' and the MCP server's times read from Claude Code's debug log.
# See bench/README.md.
#
#   bash bench/session.sh
#   BASE=main RUNS=15 bash bench/session.sh
#
# Environment: RUNS (11), BASE (a git revision; empty: none), CLAUDE
# (claude), KEEP=1.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_tools git:git

RUNS=${RUNS:-11}
export MEM_BACKGROUND=off # no enrich after the setup's store: there is no model
BASE=${BASE:-}
CLAUDE=${CLAUDE:-claude}
if ! command -v "$CLAUDE" >/dev/null; then
  echo "bench: skipping: no $CLAUDE (npm install -g @anthropic-ai/claude-code@2.1.328)"
  exit 0
fi

log "setup"
load
echo "claude: $("$CLAUDE" --version)"
build_bins
(cd "$ROOT" && go build -o "$TMP/" ./bench/session && go build -o "$TMP/bin/" ./bench/start/floormcp)

# repo DIR: a git repository with one commit.
repo() {
  git init -q "$1"
  printf '# shop\n' >"$1/README.md"
  git -C "$1" add -A && git -C "$1" -c commit.gpgsign=false commit -qm init
}
# with_mem DIR BINDIR [ARG...]: one memory and `mem install ARG...`, by
# BINDIR's mem.
with_mem() {
  local dir=$1 bin=$2
  shift 2
  repo "$dir"
  "$bin/mem" -C "$dir" init >/dev/null
  "$bin/mem" -C "$dir" store --class gotcha --name "Spanish VAT rounds per line" "Round each line's VAT, never the total. See shop/checkout/tax.py." >/dev/null
  "$bin/mem" -C "$dir" install "$@" >/dev/null 2>&1
}

# none: nothing installed. floor: hooks that do nothing on the events mem's
# hooks answer, and a canned MCP server: what Claude Code charges for any.
# hooks: the same hooks alone.
repo "$TMP/none"
repo "$TMP/floor"
mkdir -p "$TMP/floor/.claude"
cat >"$TMP/floor/.claude/settings.json" <<'EOF'
{"hooks": {
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
  "PostToolUse": [{"matcher": "Edit|Write|MultiEdit", "hooks": [{"type": "command", "command": "exit 0"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "exit 0"}]}]
}}
EOF
printf '{"mcpServers": {"floor": {"type": "stdio", "command": "%s", "args": []}}}\n' "$TMP/bin/floormcp" >"$TMP/floor/.mcp.json"
repo "$TMP/hooks"
mkdir -p "$TMP/hooks/.claude"
cp "$TMP/floor/.claude/settings.json" "$TMP/hooks/.claude/"
ARGS=(none="$TMP/none" floor="$TMP/floor" hooks="$TMP/hooks")
if [ -n "$BASE" ]; then
  mkdir -p "$TMP/base-src" "$TMP/base-bin"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$TMP/base-src"
  (cd "$TMP/base-src" && go build -o "$TMP/base-bin/" ./cmd/mem ./cmd/mem-hook)
  echo "base: $(cd "$ROOT" && git rev-parse --short "$BASE")"
  with_mem "$TMP/base" "$TMP/base-bin"
  ARGS+=(base="$TMP/base@$TMP/base-bin")
fi
with_mem "$TMP/new" "$TMP/bin"
ARGS+=(new="$TMP/new@$TMP/bin")
# mcp: this tree's mem installed with its MCP server for Claude Code too.
with_mem "$TMP/mcp" "$TMP/bin" --mcp
ARGS+=(mcp="$TMP/mcp@$TMP/bin")

log "claude -p in each repository, interleaved ($RUNS rounds)"
"$TMP/session" -claude "$CLAUDE" -rounds "$RUNS" -logs "$TMP" "${ARGS[@]}" | tee "$OUT/session.txt"
load
for r in base new mcp; do
  if [ -s "$TMP/$r/.git/mem/hook.log" ]; then
    echo "bench: $r's hook.log:"
    cat "$TMP/$r/.git/mem/hook.log"
  fi
done
