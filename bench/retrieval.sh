#!/usr/bin/env bash
# Retrieval figures through the product's whole path: each store copied into a
# fresh git repository at .claude/agent-memory, measured with `mem eval`, then
# enriched from the recorded cassette (a model's recorded answers to
# `mem enrich`) and measured again, and, for a store of ours whose curate
# prompts have recorded answers (curator/testdata), curated and measured a
# third time. Prints one table; keeps nothing unless KEEP=1.
#
#   bash bench/retrieval.sh              # the dev battery, our own prompts for its store
#                                        # (written apart from it), the four real stores and
#                                        # our two stores of other domains (quarry: the test store)
#   KEEP=1 bash bench/retrieval.sh       # keep the repositories (enriched and not)
#   CASSETTE=FILE bash bench/retrieval.sh   # answers recorded for this enrich prompt
#                                        # (default: internal/enrich/enrichtest/testdata/cassette.jsonl)
#
# Not a test: the floors live in TestDevBattery, TestUnseenStores and TestLocomo.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bench_init
# No detached pass after a curate or an enrich: it would still be writing
# into a repository the exit trap removes.
export MEM_BACKGROUND=off
CASSETTE=${CASSETTE:-$ROOT/internal/enrich/enrichtest/testdata/cassette.jsonl}
# Absolute: mem enrich runs in each store's repository, where the replay reads it.
[ -f "$CASSETTE" ] && CASSETTE=$(cd "$(dirname "$CASSETTE")" && pwd)/$(basename "$CASSETTE")
if [ ! -f "$CASSETTE" ] || [ ! -d "$SHARED/eval/store" ]; then
  echo "bench: skipping: shared data not found at $SHARED (set SHARED=DIR to the folder holding eval/ and cassettes/)"
  exit 0
fi
command -v python3 >/dev/null || { echo "bench: the cassette replay needs python3" >&2; exit 1; }
build_bins >/dev/null
NOW=${NOW:-2026-11-29}

# name, store directory (relative to $SHARED), battery
stores=(
  "dev|eval/store|$SHARED/eval/battery-dev.jsonl"
  "larkspur-unseen|eval/store|$ROOT/internal/eval/testdata/larkspur.jsonl"
  "application-pipeline|external/memory-files/4444J99__application-pipeline/.claude/memory|$ROOT/internal/eval/testdata/application-pipeline.jsonl"
  "bga-assistant|external/memory-files/AnotherSava__bga-assistant/.claude/memory|$ROOT/internal/eval/testdata/bga-assistant.jsonl"
  "niotebook|external/memory-files/Akram012388__niotebook_v0.2/.claude/agent-memory|$ROOT/internal/eval/testdata/niotebook.jsonl"
  "compose-envkit|external/memory-files/InfernalRabbit__compose-envkit/.claude/agent-memory|$ROOT/internal/eval/testdata/compose-envkit.jsonl"
  # Stores of other domains, with their labels: fernhill is tuned on, quarry is the test store.
  "fernhill|@fernhill|$ROOT/internal/eval/testdata/fernhill/battery.jsonl"
  "quarry (test)|@quarry|$ROOT/internal/eval/testdata/quarry/battery.jsonl"
)

# figures DIR BATTERY: hit@1 hit@2 silence precision score, from mem eval --json.
figures() {
  (cd "$1" && "$MEM" eval --json --now "$NOW" ${3:+--labels "$3"} "$2") |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.2f %.2f %.2f %.2f %+d" % (r["hit_at_1"], r["hit_at_2"], r["silence"], r["precision"], r["score"]))'
}

printf '%-22s %-30s %-30s %s\n' store "plain: h@1 h@2 sil prec score" "enriched: h@1 h@2 sil prec score" "curated (where recorded)"
for s in "${stores[@]}"; do
  IFS='|' read -r name src battery <<<"$s"
  repo=$TMP/${name%% *}
  mkdir -p "$repo/.claude"
  git init -q "$repo"
  labels=
  if [[ $src == @* ]]; then # a store of our own, with its labels
    cp -r "$ROOT/internal/eval/testdata/${src#@}/store" "$repo/.claude/agent-memory"
    labels=$ROOT/internal/eval/testdata/${src#@}/labels.json
  else
    cp -r "$SHARED/$src" "$repo/.claude/agent-memory"
  fi
  git -C "$repo" add -A && git -C "$repo" commit -qm "the store as found"
  plain=$(figures "$repo" "$battery" "$labels")
  (cd "$repo" && MEM_MODEL_CMD="$SHARED/cassettes/replay" MEM_CASSETTE="$CASSETTE" \
    "$MEM" enrich >"$repo.enrich.log" 2>&1) || { echo "bench: mem enrich failed on $name (a replay that exits 3 means the cassette was recorded for another enrich prompt):" >&2; tail -3 "$repo.enrich.log" >&2; exit 1; }
  enriched=$(figures "$repo" "$battery" "$labels")
  # A store of our own whose curate prompts have recorded answers is curated
  # too (after enrich, as the sweep does) and measured a third time.
  curated=
  answers=$ROOT/curator/testdata/${src#@} # NAME-{pair,merge,fold}-cassette.jsonl
  if [[ $src == @* && -f $answers-pair-cassette.jsonl ]]; then
    (cd "$repo" && MEM_MODEL_CMD="$SHARED/cassettes/replay" MEM_CASSETTE="$answers-pair-cassette.jsonl:$answers-merge-cassette.jsonl:$answers-fold-cassette.jsonl" \
      "$MEM" curate >"$repo.curate.log" 2>&1) || { echo "bench: mem curate failed on $name:" >&2; tail -3 "$repo.curate.log" >&2; exit 1; }
    curated=$(figures "$repo" "$battery" "$labels")
  fi
  printf '%-22s %-30s %-30s %s\n' "$name" "$plain" "$enriched" "$curated"
done
