"""freshids.py N INPUT.json CMD...: run each CMD (one quoted command line)
N times, interleaved, with INPUT.json on stdin and a prompt_id that is new
each run, as Claude Code sends every UserPromptSubmit (bench/alternate
gives every run the same input, so a hook that claims prompts by their id
would see each repeat as the prompt's other handler); medians, ratios to
the first. Each run's prompt_id is unique across invocations too."""
import json, shlex, statistics, subprocess, sys, time, uuid

n, base, cmds = int(sys.argv[1]), json.load(open(sys.argv[2])), sys.argv[3:]
run = uuid.uuid4().hex
res = {c: [] for c in cmds}
for i in range(n):
    for k, c in enumerate(cmds):
        inp = json.dumps(dict(base, prompt_id="%s-%d-%d" % (run, i, k))).encode()
        t0 = time.perf_counter()
        subprocess.run(shlex.split(c), input=inp, stdout=subprocess.DEVNULL, check=True)
        res[c].append((time.perf_counter() - t0) * 1000)
m0 = statistics.median(res[cmds[0]])
for c in cmds:
    m = statistics.median(res[c])
    print("%-50s median %6.3f ms (%.2fx)" % (c, m, m / m0))
