#!/usr/bin/env bash
# The retrieval of the reference hook (../shared/bench/ref_fts5.py: SQLite
# FTS5, bm25, the top three of any match), scored as `mem eval` scores mem
# (bench/naive, eval.Score): the yardstick beside bench/retrieval.sh's figures.
#
#   bash bench/naive.sh                        # the dev battery and larkspur.jsonl on the dev store
#   bash bench/naive.sh STORE_DIR BATTERY...   # another store and its batteries
#
# Environment: SHARED (default ../shared).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
need_shared
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 1; }
(cd "$ROOT" && go build -o "$TMP/naive" ./bench/naive)
if [ $# -ge 2 ]; then
  "$TMP/naive" -ref "$SHARED/bench/ref_fts5.py" -store "$1" "${@:2}"
else
  "$TMP/naive" -ref "$SHARED/bench/ref_fts5.py" -store "$SHARED/eval/store" \
    "$SHARED/eval/battery-dev.jsonl" "$ROOT/internal/eval/testdata/larkspur.jsonl"
fi
