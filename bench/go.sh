#!/usr/bin/env bash
# The in-process Go benchmarks of the search package (index build and
# open+search at 500 and 10,000 memories), with the load beside them.
#
#   bash bench/go.sh                    # go test ./search -run '^$' -bench . -benchtime 20x
#   PKGS="./search ./hooks" bash bench/go.sh
#
# Environment: PKGS (./search), BENCHTIME (20x), BENCH (.), OUT (bench/out).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_shared
cd "$ROOT"
PKGS=${PKGS:-./search}
load | tee "$OUT/go-bench.load"
# shellcheck disable=SC2086
go test $PKGS -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-20x}" -count 1 2>&1 | tee "$OUT/go-bench.txt"
load | tee -a "$OUT/go-bench.load"
