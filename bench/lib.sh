# Shared helpers for the whole-process benchmarks in bench/. Sourced, not run.
# shellcheck shell=bash

# bench_init sets ROOT (the repository), SHARED (../shared unless $SHARED),
# OUT (bench/out unless $OUT) and TMP (a temp dir removed on exit unless
# KEEP=1), and exports CGO_ENABLED=0 and a quiet git identity.
bench_init() {
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  SHARED=${SHARED:-$ROOT/../shared}
  OUT=${OUT:-$ROOT/bench/out}
  mkdir -p "$OUT"
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/mem-bench.XXXXXX")
  if [ "${KEEP:-0}" = 1 ]; then
    trap 'echo "bench: kept $TMP"' EXIT
  else
    trap 'rm -rf "$TMP"' EXIT
  fi
  trap 'exit 130' INT TERM
  export CGO_ENABLED=0
  export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.invalid
  export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.invalid
  export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
}

log() { printf '\n== %s\n' "$*"; }

# load prints the load average, which every measurement should be read with.
load() { printf 'load: %s\n' "$(uptime | sed 's/.*load average/load average/')"; }

# need_shared exits 0 with a clear message when the shared data is absent.
need_shared() {
  if [ ! -f "$SHARED/bench/gencorpus.py" ] || [ ! -d "$SHARED/external/memory-files" ]; then
    echo "bench: skipping: shared data not found at $SHARED (set SHARED=DIR to the folder holding bench/gencorpus.py and external/memory-files)"
    exit 0
  fi
}

# need_tools installs the Debian packages for the given commands when any is
# missing. Arguments are command:package pairs.
need_tools() {
  local missing=() pair cmd pkg
  for pair in "$@"; do
    cmd=${pair%%:*} pkg=${pair#*:}
    if ! command -v "$cmd" >/dev/null 2>&1; then missing+=("$pkg"); fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "bench: need ${missing[*]} and cannot install them (not root, no sudo)" >&2; exit 1; }
    sudo=sudo
  fi
  echo "bench: installing ${missing[*]}"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# real_python prints the interpreter python3 resolves to, so that a version
# manager's shim (pyenv's is a bash script) is not timed as part of Python.
real_python() { python3 -c 'import sys; print(sys.executable)'; }

# build_alternate builds bench/alternate into $ALTERNATE.
build_alternate() {
  ALTERNATE=$TMP/alternate
  (cd "$ROOT" && go build -o "$ALTERNATE" ./bench/alternate)
}

# build_bins builds mem, mem-hook and a Go hello world into $TMP/bin.
build_bins() {
  mkdir -p "$TMP/bin" "$TMP/hello"
  (cd "$ROOT" && go build -o "$TMP/bin/" ./cmd/mem ./cmd/mem-hook)
  cat >"$TMP/hello/main.go" <<'EOF'
package main

import "fmt"

func main() { fmt.Println("hello, world") }
EOF
  printf 'module hello\n\ngo 1.26\n' >"$TMP/hello/go.mod"
  (cd "$TMP/hello" && GOFLAGS= go build -o "$TMP/bin/hello" .)
  MEM=$TMP/bin/mem HOOK=$TMP/bin/mem-hook HELLO=$TMP/bin/hello
  echo "built: $(go version | cut -d' ' -f3), mem-hook $(du -k "$HOOK" | cut -f1) KB, mem $(du -k "$MEM" | cut -f1) KB, hello $(du -k "$HELLO" | cut -f1) KB"
  echo "source: $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && [ -n "$(git status --porcelain -- '*.go')" ] && echo ' + uncommitted .go changes in the work tree')"
}

# make_repo N DIR: a fresh git repository at DIR whose store
# .claude/agent-memory holds N generated memories, committed once, with the
# search cache built by `mem index`. Each memory gets seven aliases of five
# to eight words drawn from its own body, as `mem enrich` gives every
# memory (ALIASES=0 leaves them out).
make_repo() {
  local n=$1 dir=$2
  mkdir -p "$dir/.claude"
  git -C "$dir" init -q
  python3 "$SHARED/bench/gencorpus.py" "$SHARED/external/memory-files" "$dir/.claude/agent-memory" "$n" >/dev/null
  if [ "${ALIASES:-1}" = 1 ]; then add_aliases "$dir/.claude/agent-memory"; fi
  printf '# bench repo\n' >"$dir/README.md"
  git -C "$dir" add -A
  git -C "$dir" -c commit.gpgsign=false commit -qm "corpus of $n memories"
  "$MEM" -C "$dir" index --quiet
}

# add_aliases DIR gives every generated memory in DIR an aliases line of
# seven phrases drawn from its body (deterministically).
add_aliases() {
  python3 - "$1" <<'PY'
import os, random, re, sys
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    p = os.path.join(d, name)
    text = open(p, encoding="utf-8").read()
    head, sep, body = text.partition("\n---\n")
    words = re.findall(r"[a-z][a-z0-9_]{2,20}", body.lower()) or ["memory"]
    rnd = random.Random(name)
    phrases = [" ".join(rnd.choice(words) for _ in range(rnd.randint(5, 8))) for _ in range(7)]
    open(p, "w", encoding="utf-8").write(head + "\naliases: [" + ", ".join(phrases) + "]" + sep + body)
PY
}

# mtime_ns PATH prints the modification time in nanoseconds.
mtime_ns() { python3 -c 'import os,sys; print(os.stat(sys.argv[1]).st_mtime_ns)' "$1"; }

# lines PATH prints the number of lines (0 when the file is missing).
lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }

# hf runs hyperfine without a shell (-N) and the common options; callers
# pass --warmup/--runs and the commands.
hf() { hyperfine -N --style basic "$@"; }
