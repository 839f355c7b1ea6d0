#!/usr/bin/env bash
# What a session pays at start, whole process, interleaved: from spawn to
# the answers of `mem mcp` to initialize and tools/list (as an agent starts
# it), and `mem hook session-start` with a new session each run, beside a
# canned Go MCP server and a Go program printing the same context (the
# floors), and beside BASE when given. See bench/README.md.
#
#   bash bench/start.sh
#   BASE=f1a6ad3 RUNS=80 bash bench/start.sh
#
# Environment: RUNS (60), BASE (a git revision; empty: none), KEEP=1.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_tools git:git

RUNS=${RUNS:-60}
BASE=${BASE:-}

log "setup"
load
build_bins
(cd "$ROOT" && go build -o "$TMP/bin/" ./bench/start/floormcp ./bench/start/floorhook)
R=$TMP/repo
git init -q "$R"
"$MEM" -C "$R" init >/dev/null
"$MEM" -C "$R" store --class gotcha --name "Spanish VAT rounds per line" "Round each line's VAT, never the total." >/dev/null
MEMS=("$MEM") HOOKS=("$MEM hook session-start")
if [ -n "$BASE" ]; then
  mkdir -p "$TMP/base" "$TMP/base-bin"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$TMP/base"
  (cd "$TMP/base" && go build -o "$TMP/base-bin/" ./cmd/mem)
  MEMS+=("$TMP/base-bin/mem") HOOKS+=("$TMP/base-bin/mem hook session-start")
  echo "base: $(cd "$ROOT" && git rev-parse --short "$BASE")"
fi

log "mem mcp: spawn to initialize and to tools/list answered ($RUNS rounds)"
(cd "$R" && MEM_BACKGROUND=off python3 "$ROOT/bench/start/mcptime.py" "$RUNS" "${MEMS[@]}" "$TMP/bin/floormcp")
load
log "SessionStart hook ($RUNS rounds)"
python3 "$ROOT/bench/start/sstime.py" "$RUNS" "$R" "${HOOKS[@]}" "$TMP/bin/floorhook"
load
