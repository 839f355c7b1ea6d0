#!/usr/bin/env bash
# The retrieval of the reference hook (../shared/bench/ref_fts5.py: SQLite
# FTS5, bm25, the top three of any match), scored as `mem eval` scores mem:
# hit@1, hit@2, silence, precision of what it injects, and the signed score.
# The yardstick issue 17 names beside mem's own figures (bench/retrieval.sh).
#
#   bash bench/naive.sh                        # the dev battery and larkspur.jsonl on the dev store
#   bash bench/naive.sh STORE_DIR BATTERY      # another store and battery
#
# Environment: SHARED (default ../shared).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
need_shared
command -v python3 >/dev/null || { echo "bench: needs python3" >&2; exit 1; }
if [ $# -eq 2 ]; then
  pairs=("$1|$2")
else
  pairs=("$SHARED/eval/store|$SHARED/eval/battery-dev.jsonl" "$SHARED/eval/store|$ROOT/internal/eval/testdata/larkspur.jsonl")
fi
for p in "${pairs[@]}"; do
  IFS='|' read -r store battery <<<"$p"
  python3 - "$SHARED/bench/ref_fts5.py" "$store" "$battery" "$TMP/naive.db" <<'PY'
import json, os, re, subprocess, sys
ref, store, battery, db = sys.argv[1:]
subprocess.run([sys.executable, ref, "build", store, db], check=True)
topical = silent = h1 = h2 = quiet = injected = right = score = 0
for line in open(battery, encoding="utf-8"):
    c = json.loads(line)
    out = subprocess.run([sys.executable, ref, "hook", db], input=json.dumps({"prompt": c["prompt"]}),
                         capture_output=True, text=True, check=True).stdout
    ctx = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
    got = re.findall(r"^- .* \(([^()]+)\): ", ctx, re.M)
    want = set(c["expect"])
    injected += len(got)
    right += sum(s in want for s in got)
    if not want:
        silent += 1
        quiet += not got
        score += -1 if got else 1
        continue
    topical += 1
    h1 += bool(got) and got[0] in want
    hit = any(s in want for s in got[:2])
    h2 += hit
    score += 1 if hit else (-1 if got else 0)
print("%-50s naive fts5: h@1 %.2f h@2 %.2f sil %.2f prec %.2f score %+d" % (
    os.path.basename(battery), h1 / max(topical, 1), h2 / max(topical, 1), quiet / max(silent, 1),
    right / max(injected, 1), score))
PY
done
