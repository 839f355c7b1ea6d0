#!/usr/bin/env bash
# The commit path against git's own, whole process, in one run each:
#   1. `mem store` at N memories, in a repository that holds only the store
#      and in one that also holds 3,000 files of the project's (FILES), next
#      to `git add FILE && git commit` of one
#      file in the same repository (hyperfine medians and their ratio), and
#      the git processes one store starts (strace); beside them the floor
#      (gitlayer/floorstore): a Go process and the same two git processes,
#      doing nothing else, and the same floor built to start as mem does;
#   2. `mem log` on a history of 200,000 commits (one mem commit, deep);
#   3. the user committing in a loop while mem stores: mem's failures and the
#      user's (git add/commit refused on index.lock).
# See bench/README.md.
#
#   bash bench/gitlayer.sh
#   OLD=/path/to/an/older/mem bash bench/gitlayer.sh   # the same beside an older build
#
# Environment: SHARED, N (500), RUNS (40), WARMUP (5), COMMITS (200000),
# STORES (60), OUT (bench/out), KEEP=1, OLD (another mem binary to compare),
# PROCS (0: how many idle processes to start outside the repository for
# part 1, as a desktop has hundreds; a commit scans them, see settle),
# FILES ("0 3000": part 1 runs once for each, in a repository that holds
# that many files of the user's own beside the store, as a project does;
# git's pair stats them all).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_shared
need_tools hyperfine:hyperfine git:git
export MEM_BACKGROUND=off
N=${N:-500}
RUNS=${RUNS:-40}
WARMUP=${WARMUP:-5}
COMMITS=${COMMITS:-200000}
STORES=${STORES:-60}
PROCS=${PROCS:-0}
FILES=${FILES:-0 3000}

log "setup"
load
build_bins
(cd "$ROOT" && go build -o "$TMP/bin/floorstore" ./bench/gitlayer/floorstore &&
  go build -tags memstart -o "$TMP/bin/floorstore-memstart" ./bench/gitlayer/floorstore)
build_alternate

# part1 F: part 1 in a repository of N memories and F files of the project's.
part1() {
  local files=$1
  R=$TMP/repo-$N-$files
  make_repo "$N" "$R"
  git -C "$R" config user.name bench
  git -C "$R" config user.email bench@example.com
  if [ "$files" -gt 0 ]; then
    python3 - "$R/src" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "f%03d.go" % (i % 100)), "w").write("package d // %d\n" % i)
PY
    git -C "$R" add -A && git -C "$R" commit -qm "$files files of the project"
  fi
  echo "files in the repository: $(git -C "$R" ls-files | wc -l)"
  echo 0 >"$TMP/counter"
  cat >"$TMP/next.sh" <<NEXT
n=\$((\$(cat "$TMP/counter") + 1))
echo "\$n" >"$TMP/counter"
printf 'bench note %s on deploy timeouts\n\nThe release job %s times out after 30s.\n' "\$n" "\$n" >"$TMP/next.md"
printf 'file %s\n' "\$n" >"$R/f.txt"
NEXT
  sh "$TMP/next.sh"
  git -C "$R" add f.txt && git -C "$R" commit -qm f
  # The floor's branch swings between two commits of the same tree.
  local tree A B
  tree=$(git -C "$R" rev-parse 'HEAD^{tree}')
  A=$(git -C "$R" commit-tree -p HEAD -m "floor a" "$tree")
  B=$(git -C "$R" commit-tree -p HEAD -m "floor b" "$tree")
  git -C "$R" update-ref refs/heads/floor "$A"
  FLOOR="$TMP/bin/floorstore $R floor-note.md $TMP/next.md floor $A $B"
  FLOORSTART="$TMP/bin/floorstore-memstart $R floor-note.md $TMP/next.md floor $A $B"

  log "1. mem store vs git add + git commit, $N memories, $files files of the project's"
  local idle=()
  if [ "$PROCS" -gt 0 ]; then
    # Idle, outside the repository; they end by themselves should this exit early.
    for _ in $(seq "$PROCS"); do (cd / && exec sleep 600) & idle+=($!); done
  fi
  echo "processes on the machine: $(ls /proc 2>/dev/null | grep -c '^[0-9]' || echo unknown)"
  local cmds=(-n "mem store" --prepare "sh $TMP/next.sh" "sh -c '$MEM -C $R store - < $TMP/next.md'")
  if [ -n "${OLD:-}" ]; then
    cmds+=(-n "mem store (OLD)" --prepare "sh $TMP/next.sh" "sh -c '$OLD -C $R store - < $TMP/next.md'")
  fi
  cmds+=(-n "floor" --prepare "sh $TMP/next.sh" "sh -c '$FLOOR'")
  cmds+=(-n "floor, mem's start" --prepare "sh $TMP/next.sh" "sh -c '$FLOORSTART'")
  cmds+=(-n "git add+commit" --prepare "sh $TMP/next.sh" "sh -c 'cd $R && git add f.txt && git commit -qm x'")
  load
  hf --warmup "$WARMUP" --runs "$RUNS" --export-json "$OUT/gitlayer-store-$files.json" "${cmds[@]}" >"$OUT/gitlayer-store-$files.log" 2>&1 ||
    { cat "$OUT/gitlayer-store-$files.log"; exit 1; }
  load
  # The same in strict alternation (bench/alternate), the next note
  # written untimed before each run, so drift on a shared machine favours none.
  # Each runs under one sh, as git's pair needs one.
  printf '%s -C %s store - < %s >/dev/null\n' "$MEM" "$R" "$TMP/next.md" >"$TMP/mem.sh"
  local alt=("mem store=/dev/null=sh $TMP/mem.sh")
  if [ -n "${OLD:-}" ]; then
    printf '%s -C %s store - < %s >/dev/null\n' "$OLD" "$R" "$TMP/next.md" >"$TMP/old.sh"
    alt+=("mem store (OLD)=/dev/null=sh $TMP/old.sh")
  fi
  printf '%s\n' "$FLOOR" >"$TMP/floor.sh"
  alt+=("floor=/dev/null=sh $TMP/floor.sh")
  printf '%s\n' "$FLOORSTART" >"$TMP/floorstart.sh"
  alt+=("floor, mem's start=/dev/null=sh $TMP/floorstart.sh")
  printf 'cd %s && git add f.txt && git commit -qm x\n' "$R" >"$TMP/git.sh"
  alt+=("git add+commit=/dev/null=sh $TMP/git.sh")
  echo "interleaved, $RUNS rounds of each:"
  load
  "$ALTERNATE" -rounds "$RUNS" -warmup "$WARMUP" -prepare "sh $TMP/next.sh" -json "$OUT/gitlayer-store-$files.alternate.json" "${alt[@]}"
  load
  # Issue 39's goals, from both runs: mem store within 1.25x git's pair (at
  # 3,000 project files), and mem's own work, mem store less the floor at
  # mem's start, within 4 ms.
  python3 - "$OUT/gitlayer-store-$files.json" "$OUT/gitlayer-store-$files.alternate.json" <<'PY'
import json, sys
hf = {r["command"]: r["median"] * 1e3 for r in json.load(open(sys.argv[1]))["results"]}
alt = {r["name"]: r["median_ms"] for r in json.load(open(sys.argv[2]))}
for how, m in (("hyperfine", hf), ("interleaved", alt)):
    git = m["git add+commit"]
    for name, v in m.items():
        print("%-12s %-20s median %7.2f ms  %5.2fx git add+commit" % (how, name, v, v / git))
    print("%-12s mem's own work (mem store - floor, mem's start): %.2f ms" % (how, m["mem store"] - m["floor, mem's start"]))
PY
  if command -v strace >/dev/null; then
    sh "$TMP/next.sh"
    strace -f -qq -e trace=execve -o "$TMP/strace" "$MEM" -C "$R" store - <"$TMP/next.md" >/dev/null
    echo "git processes in one mem store: $(grep -c 'execve("[^"]*git"' "$TMP/strace")"
  fi
  if [ ${#idle[@]} -gt 0 ]; then kill "${idle[@]}" 2>/dev/null; wait "${idle[@]}" 2>/dev/null || true; fi
}
for f in $FILES; do part1 "$f"; done

log "2. mem log on $COMMITS commits"
H=$TMP/history
git init -q -b main "$H"
python3 - "$COMMITS" <<'PY' | git -C "$H" fast-import --quiet
import sys
n = int(sys.argv[1]); w = sys.stdout.write
for i in range(n):
    msg = "mem: store early-memory\n\nMem-Action: store\n" if i == 100 else "change %d\n" % i
    w("commit refs/heads/main\ncommitter U <u@x> %d +0000\ndata %d\n%s\n" % (1700000000 + i, len(msg), msg))
    if i == 100:
        w("M 644 inline .claude/agent-memory/early-memory.md\ndata 6\nearly\n")
    w("M 644 inline src/f%d.txt\ndata %d\n%d\n\n" % (i % 1000, len(str(i)) + 1, i))
PY
git -C "$H" reset -q --hard
git -C "$H" gc -q
hf --warmup 1 --runs 5 -n "mem log" "$MEM -C $H log --limit 50" ${OLD:+-n "mem log (OLD)" "$OLD -C $H log --limit 50"} 2>&1 | grep -E "Benchmark|Time"

log "3. the user commits in a loop while mem stores $STORES memories"
loop() {
  local bin=$1 L=$TMP/loop-$2
  rm -rf "$L"; git init -q -b main "$L"; git -C "$L" commit -q --allow-empty -m init
  (cd "$L" && "$bin" init >/dev/null)
  rm -f "$TMP/stop"
  ( cd "$L"; i=0; f=0; while [ ! -f "$TMP/stop" ]; do i=$((i+1)); echo $i >u.txt
      git add u.txt 2>/dev/null && git commit -qm "u$i" 2>/dev/null || f=$((f+1)); done
    echo "$i $f" >"$TMP/user-$2" ) &
  local fail=0
  for i in $(seq "$STORES"); do (cd "$L" && "$bin" store "loop memory $i" >/dev/null 2>&1) || fail=$((fail+1)); done
  touch "$TMP/stop"; wait
  read -r rounds ufail <"$TMP/user-$2"
  echo "$2: mem store failed $fail of $STORES; mem commits $(git -C "$L" log --format=%s --grep=Mem-Action | wc -l); store paths not clean $(git -C "$L" status --porcelain -- .claude | wc -l); the user's rounds $rounds, failed $ufail"
}
loop "$MEM" now
[ -n "${OLD:-}" ] && loop "$OLD" OLD
echo "exports: $OUT/gitlayer-store-*.{json,log}"
