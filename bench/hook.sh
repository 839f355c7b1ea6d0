#!/usr/bin/env bash
# Whole-process timing of the prompt hook against its yardsticks, as ratios
# measured in one hyperfine run per store size. See bench/README.md.
#
#   bash bench/hook.sh                     # sizes 500 and 10000
#   SIZES=500 RUNS=50 bash bench/hook.sh   # quicker
#
# Environment: SHARED (default ../shared), SIZES, RUNS (100), WARMUP (10),
# TRANSCRIPT (a Claude Code session JSONL given as transcript_path; "none"
# to leave it out), OUT (default bench/out), KEEP=1 keeps the temp dir.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init
need_shared
need_tools hyperfine:hyperfine sqlite3:sqlite3 git:git
need_tools /usr/bin/time:time

SIZES=${SIZES:-500 10000}
RUNS=${RUNS:-100}
WARMUP=${WARMUP:-10}
REF=$SHARED/bench/ref_fts5.py
PY=$(real_python)
DEFAULT_TRANSCRIPT=$SHARED/external/transcripts/daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/37f83ec9-f2ea-42a9-925e-0d5c105cb6e8.jsonl
TRANSCRIPT=${TRANSCRIPT:-$DEFAULT_TRANSCRIPT}
if [ "$TRANSCRIPT" = none ] || [ ! -f "$TRANSCRIPT" ]; then TRANSCRIPT=""; fi

sqlite3 :memory: "create virtual table t using fts5(a, tokenize='porter');" ||
  { echo "bench: this sqlite3 has no FTS5" >&2; exit 1; }

log "setup"
load
echo "hyperfine $(hyperfine --version | cut -d' ' -f2), sqlite3 $(sqlite3 --version | cut -d' ' -f1), $("$PY" --version) at $PY"
echo "transcript_path: ${TRANSCRIPT:-(none)}"
build_bins
build_alternate

# The prompts: one that finds something, one conversational turn that must
# stay silent, and one long multi-clause prompt with a URL, a pasted log,
# an image marker and a path. The generated memories are word salad that no
# natural prompt matches, so the matching prompts are completed per store
# with one memory's name and description (target_prompts): they must inject,
# or the injection path (render, output, lookup record) goes untimed.
mkdir -p "$TMP/prompts"
printf '%s' "great, thanks! that looks right to me, let's continue" >"$TMP/prompts/silent"
cat >"$TMP/prompts/long.base" <<'EOF'
ok so two things. first, after I merged https://github.com/acme/shop/pull/412 the nightly job started failing again, here is the log:
```
2026-11-20T03:12:09Z ERROR worker.go:88 release pipeline: timeout after 30s waiting for server config (retry 3/3)
2026-11-20T03:12:09Z WARN  data file cache/state.json is stale, rebuilding
```
[Image #1] shows the dashboard at that time. second, can you look at src/deploy/hooks/pre_release.py and figure out why the server timeout setting is ignored when the env var is set, and whether the data file path in the config is relative to the repo root or the working directory? dont change the public API, and please keep the fix small so we can backport it to the 2.x branch
EOF
PROMPTS="match silent long"

# target_prompts REPO: write the match and long prompts about one memory of
# the store at REPO.
target_prompts() {
  python3 - "$1/.claude/agent-memory/m000042.md" "$TMP/prompts" <<'EOF'
import sys
fields = {}
for line in open(sys.argv[1]).read().split("---")[1].splitlines():
    k, _, v = line.partition(":")
    fields[k.strip()] = v.strip()
topic = "%s (%s)" % (fields["name"], fields["description"])
d = sys.argv[2]
open(d + "/match", "w").write("the %s thing keeps failing again, can you check it?" % topic)
open(d + "/long", "w").write(open(d + "/long.base").read() + "\nthird, it might be related to " + topic + ".")
EOF
}

# hook_json NAME REPO: the UserPromptSubmit JSON Claude Code would send.
hook_json() {
  python3 - "$TMP/prompts/$1" "$2" "$TRANSCRIPT" <<'EOF'
import json, sys
prompt = open(sys.argv[1]).read()
d = {"session_id": "bench-session", "cwd": sys.argv[2], "hook_event_name": "UserPromptSubmit", "prompt": prompt}
if sys.argv[3]:
    d["transcript_path"] = sys.argv[3]
print(json.dumps(d))
EOF
}

# fts_sql NAME: the FTS5 query ref_fts5.py builds for that prompt, as SQL
# for the sqlite3 CLI (same terms, same bm25 weights, same limit).
fts_sql() {
  python3 - "$TMP/prompts/$1" "$SHARED/bench" <<'EOF'
import re, sys
sys.path.insert(0, sys.argv[2])
from ref_fts5 import STOP
prompt = re.sub(r"https?://\S+", " ", open(sys.argv[1]).read())
terms = [w for w in re.findall(r"[a-z0-9]{3,}", prompt.lower()) if w not in STOP]
if not terms:
    sys.exit("bench: ref_fts5 builds no query for this prompt; pick another")
q = " OR ".join('"%s"' % t for t in dict.fromkeys(terms))
print("select slug, name, description from m where m match '%s' order by bm25(m, 0, 3, 2, 2, 1) limit 3;" % q.replace("'", "''"))
EOF
}

SUMMARY_ROWS=$TMP/summary.tsv
: >"$SUMMARY_ROWS"

for N in $SIZES; do
  log "store of $N memories"
  R=$TMP/repo-$N
  DB=$TMP/fts-$N.db
  t0=$(date +%s%N)
  make_repo "$N" "$R"
  t1=$(date +%s%N)
  "$PY" "$REF" build "$R/.claude/agent-memory" "$DB"
  echo "corpus + commit + first mem index: $(((t1 - t0) / 1000000)) ms; fts5 db $(du -k "$DB" | cut -f1) KB"
  target_prompts "$R"
  CACHE=$R/.git/mem
  INDEX=$(ls "$CACHE"/index-*.bin)
  echo "cache: $INDEX ($(du -k "$INDEX" | cut -f1) KB)"

  # Inputs, and one untimed run of each contender to show what it answers.
  J=$TMP/in-$N
  mkdir -p "$J"
  for p in $PROMPTS; do
    hook_json "$p" "$R" >"$J/$p.json"
    fts_sql "$p" >"$J/$p.sql"
    hook_out=$("$HOOK" prompt <"$J/$p.json")
    sql_rows=$(sqlite3 "$DB" <"$J/$p.sql" | wc -l)
    py_out=$("$PY" "$REF" hook "$DB" <"$J/$p.json")
    printf '%-7s hook: %-9s sqlite3: %s rows   ref_fts5: %s\n' "$p" \
      "$([ -n "$hook_out" ] && echo injects || echo silent)" "$sql_rows" \
      "$([ -n "$py_out" ] && echo injects || echo silent)"
  done
  echo "last hook decision: $(tail -n 1 "$CACHE/injections.jsonl" | cut -c1-200)"
  for p in match long; do
    [ -n "$("$HOOK" prompt <"$J/$p.json")" ] || echo "bench: WARNING: the $p prompt injects nothing, so its timing leaves out the injection path"
  done

  # Freshness evidence: the hook must log every decision but never touch the
  # index during the timed run.
  idx_before=$(mtime_ns "$INDEX")
  inj_before=$(lines "$CACHE/injections.jsonl")
  log_before=$(lines "$CACHE/hook.log")
  files_before=$(ls "$CACHE" | tr '\n' ' ')

  # One hyperfine run, every command through `sh -c '... < FILE'` so each
  # pays the same shell and redirect (hyperfine 1.15 has no --input).
  cmds=(-n "sh:baseline" "sh -c ': < $J/match.json'")
  for p in $PROMPTS; do
    cmds+=(-n "hello:$p" "sh -c '$HELLO < $J/$p.json'")
    cmds+=(-n "hook:$p" "sh -c '$HOOK prompt < $J/$p.json'")
    cmds+=(-n "sqlite3:$p" "sh -c 'sqlite3 $DB < $J/$p.sql'")
    cmds+=(-n "python:$p" "sh -c '$PY $REF hook $DB < $J/$p.json'")
  done
  load
  hf --warmup "$WARMUP" --runs "$RUNS" \
    --export-json "$OUT/hook-$N.json" --export-markdown "$OUT/hook-$N.md" \
    "${cmds[@]}" >"$OUT/hook-$N.log" 2>&1 || { cat "$OUT/hook-$N.log"; exit 1; }
  load | tee "$OUT/hook-$N.load"
  grep -E '^(Benchmark|  Time)' "$OUT/hook-$N.log" | paste - - | sed 's/ *Time (mean ± σ)://' || true

  idx_after=$(mtime_ns "$INDEX")
  inj_after=$(lines "$CACHE/injections.jsonl")
  log_after=$(lines "$CACHE/hook.log")
  files_after=$(ls "$CACHE" | tr '\n' ' ')
  runs_hook=$((3 * (WARMUP + RUNS)))
  echo "freshness: index mtime $([ "$idx_before" = "$idx_after" ] && echo unchanged || echo "CHANGED ($idx_before -> $idx_after): the hook rebuilt the index during timing")"
  echo "freshness: injections.jsonl $inj_before -> $inj_after lines (+$((inj_after - inj_before)), expected +$runs_hook)"
  echo "freshness: hook.log $log_before -> $log_after lines$([ "$log_after" != "$log_before" ] && echo ": $(tail -n 1 "$CACHE/hook.log")")"
  [ "$files_before" = "$files_after" ] || echo "freshness: cache dir changed: [$files_before] -> [$files_after]"

  # The same contenders again, in strict alternation and without a shell, so
  # drift on a shared machine cannot favour one of them (see bench/alternate).
  : >"$OUT/hook-$N.interleaved" # this run's tables only
  rm -f "$OUT/hook-$N"-*.alternate.json
  for p in $PROMPTS; do
    echo "interleaved, $N memories, $p prompt:"
    "$ALTERNATE" -rounds "$RUNS" -json "$OUT/hook-$N-$p.alternate.json" "hello=$J/$p.json=$HELLO" \
      "hook=$J/$p.json=$HOOK prompt" "sqlite3=$J/$p.sql=sqlite3 $DB" | tee -a "$OUT/hook-$N.interleaved"
  done
  # And through sh -c, as Claude Code runs a hook's command from
  # settings.json (DESIGN's "as installed"), still in strict alternation.
  for p in $PROMPTS; do
    echo "interleaved through sh -c, $N memories, $p prompt:"
    "$ALTERNATE" -shell -rounds "$RUNS" -json "$OUT/hook-$N-$p-sh.alternate.json" "hello=$J/$p.json=$HELLO" \
      "hook=$J/$p.json=$HOOK prompt" | tee -a "$OUT/hook-$N.interleaved"
  done
  # Claude Code (2.1.196 on) names each prompt (prompt_id), and the hook
  # claims it before answering (hooks/once.go): the match prompt again with
  # a new id before every run, as a session sends it, beside the same prompt
  # without one, so that the difference is the claim's cost.
  sed 's/}$/, "prompt_id": "bench-@N@"}/' "$J/match.json" >"$J/match-id.tmpl"
  printf 'n=$(($(cat %s 2>/dev/null || echo 0) + 1)); echo $n >%s; sed "s/@N@/$n/" %s >%s\n' \
    "$J/id.n" "$J/id.n" "$J/match-id.tmpl" "$J/match-id.json" >"$J/next-id.sh"
  sh "$J/next-id.sh"
  [ -n "$("$HOOK" prompt <"$J/match-id.json")" ] || echo "bench: WARNING: the match prompt with a prompt_id injects nothing"
  echo "interleaved, $N memories, match prompt with a new prompt_id each run:"
  "$ALTERNATE" -rounds "$RUNS" -prepare "sh $J/next-id.sh" "hello=$J/match-id.json=$HELLO" \
    "hook=$J/match-id.json=$HOOK prompt" "hook, no id=$J/match.json=$HOOK prompt" | tee -a "$OUT/hook-$N.interleaved"

  # Peak RSS, whole process, five runs of each prompt.
  declare -A rss=()
  rss_max=0
  for p in $PROMPTS; do
    rss[$p]=0
    for _ in 1 2 3 4 5; do
      kb=$(/usr/bin/time -v "$HOOK" prompt <"$J/$p.json" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}')
      [ "$kb" -gt "${rss[$p]}" ] && rss[$p]=$kb
      [ "$kb" -gt "$rss_max" ] && rss_max=$kb
    done
  done
  hello_kb=$(/usr/bin/time -v "$HELLO" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}')
  sqlite_kb=$(/usr/bin/time -v sqlite3 "$DB" <"$J/long.sql" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}')
  echo "peak RSS (max of 5, KB): hook match ${rss[match]}, silent ${rss[silent]}, long ${rss[long]}; hello $hello_kb; sqlite3 (long) $sqlite_kb"
  printf '%s\t%s\n' "$N" "$rss_max" >>"$SUMMARY_ROWS"

  # Index build, whole process: full rebuild, one touched file, nothing changed.
  if [ "$N" -le 1000 ]; then iw=3 ir=30; else iw=1 ir=5; fi
  touched=$R/.claude/agent-memory/m000001.md
  load
  hf --warmup "$iw" --runs "$ir" --export-json "$OUT/index-$N.json" --export-markdown "$OUT/index-$N.md" \
    -n "mem index --rebuild" --prepare true "$MEM -C $R index --rebuild --quiet" \
    -n "mem index (1 file touched)" --prepare "touch $touched" "$MEM -C $R index --quiet" \
    -n "mem index (nothing changed)" --prepare "true" "$MEM -C $R index --quiet" \
    >"$OUT/index-$N.log" 2>&1 || { cat "$OUT/index-$N.log"; exit 1; }
  load

  # A refresh after an edit writes a delta beside the cache (the touched
  # runs above did), which the hook then reads with it: the match prompt
  # again, beside a copy of the repository whose cache was rebuilt whole,
  # so that what a delta costs the hook is measured.
  if [ -f "${INDEX%.bin}.delta" ]; then
    cp -a "$R" "$R.whole"
    "$MEM" -C "$R.whole" index --rebuild --quiet
    rm -f "$R.whole"/.git/mem/index-*.delta
    hook_json match "$R.whole" >"$J/match-whole.json"
    echo "interleaved, $N memories, match prompt, the cache with a delta beside it ($(du -k "${INDEX%.bin}.delta" | cut -f1) KB) and rebuilt whole:"
    "$ALTERNATE" -rounds "$RUNS" -json "$OUT/hook-$N-match-delta.alternate.json" "hello=$J/match.json=$HELLO" \
      "hook=$J/match.json=$HOOK prompt" "hook, whole=$J/match-whole.json=$HOOK prompt" | tee -a "$OUT/hook-$N.interleaved"
  else
    echo "no delta beside the cache after an edit (a cache under 2 MB is rewritten whole): the hook is not timed with one"
  fi
done

log "summary (medians, ms; ratios of medians)"
python3 - "$OUT" "$SUMMARY_ROWS" $SIZES <<'EOF'
import json, sys
out, rss_file, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
rss = dict(l.split("\t") for l in open(rss_file).read().split("\n") if l)
def med(path):
    return {r["command"]: r["median"] * 1000 for r in json.load(open(path))["results"]}
fails = []
for n in sizes:
    m = med("%s/hook-%s.json" % (out, n))
    sh = m["sh:baseline"]
    print("\n%s memories   (sh -c ': < file' alone: %.2f ms; 'net' subtracts it)   %s at the end of the run"
          % (n, sh, open("%s/hook-%s.load" % (out, n)).read().strip()))
    print("%-7s %8s %8s %8s %8s | %10s %9s %13s %11s" %
          ("prompt", "hello", "hook", "sqlite3", "python", "hook/hello", "net h/h", "hook/sqlite3", "python/hook"))
    for p in ("match", "silent", "long"):
        he, ho, sq, py = (m["%s:%s" % (c, p)] for c in ("hello", "hook", "sqlite3", "python"))
        print("%-7s %8.2f %8.2f %8.2f %8.2f | %9.2fx %8.2fx %12.2fx %10.1fx" %
              (p, he, ho, sq, py, ho / he, (ho - sh) / max(he - sh, 1e-9), ho / sq, py / ho))
        if n == "500" and ho / he > 1.5:
            fails.append("%s@%s: hook/hello %.2fx > 1.5x" % (p, n, ho / he))
        if ho >= sq:
            fails.append("%s@%s: hook %.2f ms not faster than sqlite3 %.2f ms" % (p, n, ho, sq))
    # The same prompts in strict alternation (bench/alternate), exec'd
    # directly and through sh -c, and the match prompt with a delta beside
    # the cache; each export's "hook" row (and "hook, whole" for the delta).
    for how, suffix, prompts in (("without a shell", "", ("match", "silent", "long", "match-delta")),
                                 ("through sh -c", "-sh", ("match", "silent", "long"))):
        ratios = {}
        for p in prompts:
            try:
                rows = json.load(open("%s/hook-%s-%s%s.alternate.json" % (out, n, p, suffix)))
            except OSError:
                continue
            ratios[p] = next(r["ratio"] for r in rows if r["name"] == "hook")
            if p == "match-delta":
                ratios["match-whole"] = next(r["ratio"] for r in rows if r["name"] == "hook, whole")
        print("interleaved, %s: " % how + ", ".join("%s %.2fx" % (p, r) for p, r in ratios.items()) + " hello")
        for p, r in ratios.items():
            if n == "500" and r > 1.5 and p in ("match", "silent", "long"):
                fails.append("%s@%s interleaved %s: hook/hello %.2fx > 1.5x" % (p, n, how, r))
    ix = med("%s/index-%s.json" % (out, n))
    print("index:   " + ",   ".join("%s %.1f ms" % (k, v) for k, v in ix.items()))
    if n == "500" and ix["mem index --rebuild"] > 100:
        fails.append("index rebuild at 500: %.1f ms > 100 ms" % ix["mem index --rebuild"])
    print("peak RSS of the hook: %s KB (%.1f MB)" % (rss[n], int(rss[n]) / 1024))
    if n == "10000" and int(rss[n]) > 40 * 1024:
        fails.append("peak RSS at 10000: %s KB > 40 MB" % rss[n])
print("\ntargets (DESIGN.md, Budgets): hook at 500 <= 1.5x hello (through sh, as settings.json runs it, timed")
print("by hyperfine and interleaved, and interleaved without a shell); hook faster than sqlite3 at 500 and 10000;")
print("peak RSS <= 40 MB at 10000; mem index --rebuild at 500 <= 100 ms (whole process here).")
print("verdict: " + ("all met" if not fails else "MISSED: " + "; ".join(fails)))
EOF
echo
echo "exports: $OUT/hook-*.{json,md,log}, $OUT/index-*.{json,md,log}"
