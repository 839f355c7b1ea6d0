#!/usr/bin/env bash
# Whole-process timing of the write and read commands on a 500-memory store:
# `mem store` (one new memory and one git commit per run) and `mem list`,
# next to a Go hello world. See bench/README.md.
#
#   bash bench/store.sh
#
# Environment: SHARED (default ../shared), N (500), RUNS (50), WARMUP (5),
# OUT (default bench/out), KEEP=1 keeps the temp dir.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_shared
need_tools hyperfine:hyperfine git:git

N=${N:-500}
RUNS=${RUNS:-50}
WARMUP=${WARMUP:-5}

log "setup"
load
build_bins
R=$TMP/repo-$N
make_repo "$N" "$R"
echo "store of $N memories at $R, $(git -C "$R" rev-list --count HEAD) commit(s)"

# Every run stores a new memory: the prepare step bumps a counter and writes
# the next body, whose first line (the default name) makes a fresh slug, so
# slugs never collide and warmup runs are real stores too.
echo 0 >"$TMP/counter"
cat >"$TMP/next.sh" <<EOF
n=\$((\$(cat "$TMP/counter") + 1))
echo "\$n" >"$TMP/counter"
printf 'bench note %s on deploy timeouts\n\nThe release job %s times out after 30s when the server config is missing.\n' "\$n" "\$n" >"$TMP/next.md"
EOF
sh "$TMP/next.sh" # so the file exists for the prepare-less commands' sake

before=$(git -C "$R" rev-list --count HEAD)
load
hf --warmup "$WARMUP" --runs "$RUNS" --export-json "$OUT/store-$N.json" --export-markdown "$OUT/store-$N.md" \
  -n "hello" --prepare "true" "sh -c '$TMP/bin/hello < $TMP/next.md'" \
  -n "mem store" --prepare "sh $TMP/next.sh" "sh -c '$MEM -C $R store --class fact --tags bench - < $TMP/next.md'" \
  -n "mem list" --prepare "true" "sh -c '$MEM -C $R list < /dev/null'" \
  -n "mem list --json" --prepare "true" "sh -c '$MEM -C $R list --json < /dev/null'" \
  >"$OUT/store-$N.log" 2>&1 || { cat "$OUT/store-$N.log"; exit 1; }
load | tee "$OUT/store-$N.load"
after=$(git -C "$R" rev-list --count HEAD)
stored=$(cat "$TMP/counter")
echo "commits: $before -> $after (+$((after - before)); the prepare step wrote $((stored - 1)) memories)"
echo "last commit: $(git -C "$R" log -1 --format='%s' )"
echo "git status of the bench repo: $(git -C "$R" status --porcelain | wc -l) changed path(s)"
echo "memories now: $("$MEM" -C "$R" list | wc -l) lines from mem list"

log "summary (medians, ms)"
python3 - "$OUT/store-$N.json" <<'EOF'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
hello = res["hello"]["median"]
print("%-16s %9s %9s %9s %9s %9s" % ("command", "median", "mean", "min", "max", "x hello"))
for name, r in res.items():
    print("%-16s %9.2f %9.2f %9.2f %9.2f %8.1fx" % (name, r["median"] * 1e3, r["mean"] * 1e3,
          r["min"] * 1e3, r["max"] * 1e3, r["median"] / hello))
EOF
echo "exports: $OUT/store-$N.{json,md,log}"
