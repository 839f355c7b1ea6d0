#!/usr/bin/env bash
# Whole-process timing of the index's refresh and of `mem list` on a large
# store: one memory edited, then `mem index` (the full check every command
# runs) and `mem index --no-wait` (the refresh mem-hook asks for after an
# agent's edit, announced by the PostToolUse hook); `mem list`; and the
# prompt hook on a fresh cache, each beside the same commands built from
# BASE (the code before the incremental refresh) and a Go hello world.
# See bench/README.md.
#
#   bash bench/refresh.sh
#
# Environment: SHARED (default ../shared), N (10000), RUNS (30), WARMUP (3),
# BASE (a git revision to compare with; empty: none), OUT (bench/out),
# KEEP=1 keeps the temp dir.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_shared
need_tools hyperfine:hyperfine git:git

N=${N:-10000}
RUNS=${RUNS:-30}
WARMUP=${WARMUP:-3}
BASE=${BASE:-}

log "setup"
load
build_bins
build_alternate
R=$TMP/repo-$N
make_repo "$N" "$R"
OLDMEM="" OLDHOOK=""
if [ -n "$BASE" ]; then
  mkdir -p "$TMP/base" "$TMP/base-bin"
  (cd "$ROOT" && git archive "$BASE") | tar -x -C "$TMP/base"
  (cd "$TMP/base" && go build -o "$TMP/base-bin/" ./cmd/mem ./cmd/mem-hook)
  OLDMEM=$TMP/base-bin/mem OLDHOOK=$TMP/base-bin/mem-hook
  # A repository of its own, so that the two versions never share a cache.
  RB=$TMP/repo-base-$N
  cp -a "$R" "$RB"
  rm -rf "$RB/.git/mem"
  "$OLDMEM" -C "$RB" index --quiet
  echo "base: $(cd "$ROOT" && git rev-parse --short "$BASE")"
fi

# edit.sh REPO [announce]: append a line to the next memory, round robin,
# and with announce tell the PostToolUse hook, as Claude Code's Edit would.
cat >"$TMP/edit.sh" <<EOF
repo=\$1
n=\$(( \$(cat "\$repo.counter" 2>/dev/null || echo 0) + 1 ))
echo "\$n" >"\$repo.counter"
f=\$(printf '%s/.claude/agent-memory/m%06d.md' "\$repo" \$(( (n * 7919) % $N )))
echo "edited \$n" >>"\$f"
if [ "\${2:-}" = announce ]; then
  printf '{"tool_name":"Edit","cwd":"%s","tool_input":{"file_path":"%s"}}' "\$repo" "\$f" | "$HOOK" post-tool
fi
EOF

log "refresh after one edited memory, $N memories"
args=(-n "hello" --prepare "true" "$HELLO"
  -n "mem index (full check)" --prepare "sh $TMP/edit.sh $R" "$MEM -C $R index --quiet"
  -n "mem index --no-wait (hook's refresh)" --prepare "sh $TMP/edit.sh $R announce" "$MEM -C $R index --quiet --no-wait"
  -n "mem list" --prepare "true" "$MEM -C $R list")
if [ -n "$BASE" ]; then
  args+=(-n "base: mem index" --prepare "sh $TMP/edit.sh $RB" "$OLDMEM -C $RB index --quiet"
    -n "base: mem list" --prepare "true" "$OLDMEM -C $RB list")
fi
load
hf --warmup "$WARMUP" --runs "$RUNS" --output null --export-json "$OUT/refresh-$N.json" --export-markdown "$OUT/refresh-$N.md" \
  "${args[@]}" >"$OUT/refresh-$N.log" 2>&1 || { cat "$OUT/refresh-$N.log"; exit 1; }
load | tee "$OUT/refresh-$N.load"
"$MEM" -C "$R" index --quiet
echo "memories listed: $("$MEM" -C "$R" list | wc -l)"

# The prompt hook on a fresh cache must not get slower: alternate the two
# builds, so drift on a shared machine cannot favour either.
if [ -n "$BASE" ]; then
  log "prompt hook, fresh cache, $N memories (alternating)"
  name=$(sed -n 's/^name: //p' "$R/.claude/agent-memory/m000042.md" | head -1)
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"the %s thing keeps failing again, can you check it?"}' "$R" "$name" >"$TMP/prompt.json"
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"the %s thing keeps failing again, can you check it?"}' "$RB" "$name" >"$TMP/prompt-base.json"
  "$OLDMEM" -C "$RB" index --quiet
  "$ALTERNATE" -rounds "$RUNS" "base=$TMP/prompt-base.json=$OLDHOOK prompt" "new=$TMP/prompt.json=$HOOK prompt" | tee "$OUT/refresh-hook-$N.txt"
fi

log "summary (medians, ms)"
python3 - "$OUT/refresh-$N.json" <<'EOF'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
print("%-40s %8s %8s %8s %8s" % ("command", "median", "user", "system", "x hello"))
hello = res["hello"]["median"]
for name, r in res.items():
    print("%-40s %8.1f %8.1f %8.1f %7.1fx" % (name, r["median"] * 1000, r["user"] * 1000, r["system"] * 1000, r["median"] / hello))
EOF
echo "exports: $OUT/refresh-$N.{json,md,log,load}"
