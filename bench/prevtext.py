#!/usr/bin/env python3
"""How far back from a typed prompt the previous assistant text begins, in
the real Claude Code sessions under ../shared/external/transcripts: what
internal/transcript's first read window (tailWindow) is sized by.

    python3 bench/prevtext.py [DIR]
"""
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "external", "transcripts")
if not os.path.isdir(root):
    print("bench: skipping: no transcripts at %s" % root)
    sys.exit(0)


def has_text(content, kind):
    if isinstance(content, str):
        return kind == "user"
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "text" and (kind == "user" or b.get("text", "").strip()) for b in content)


reach, files = [], 0
for path in glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True):
    files += 1
    pos, last = 0, None
    for line in open(path, "rb").read().split(b"\n"):
        start, pos = pos, pos + len(line) + 1
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        kind = entry.get("type")
        content = (entry.get("message") or {}).get("content")
        if kind == "assistant" and has_text(content, kind):
            last = start
        elif kind == "user" and has_text(content, kind) and last is not None:
            reach.append(start - last)
if not reach:
    sys.exit("bench: no typed prompt after an assistant text in %s" % root)
print("%d typed prompts in %d sessions; the previous assistant text began within:" % (len(reach), files))
for kb in (4, 8, 16, 32, 64):
    print("  %2d KB of the prompt: %3.0f%%" % (kb, 100 * sum(r <= kb << 10 for r in reach) / len(reach)))
