"""sstime.py N DIR CMD...: run each CMD (one quoted command line) in DIR with
a SessionStart input whose session_id is new each run (so no claim of an
earlier run answers it), the commands interleaved N times; medians, ratios
to the first."""
import json, os, shlex, statistics, subprocess, sys, time

n, cwd, cmds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
res = {c: [] for c in cmds}
env = dict(os.environ, MEM_BACKGROUND="off")
for i in range(n):
    for k, c in enumerate(cmds):
        inp = json.dumps({"session_id": "bench-%d-%d" % (i, k), "cwd": cwd,
                          "hook_event_name": "SessionStart", "source": "startup"}).encode()
        t0 = time.perf_counter()
        subprocess.run(shlex.split(c), input=inp, stdout=subprocess.DEVNULL, cwd=cwd, env=env, check=True)
        res[c].append((time.perf_counter() - t0) * 1000)
m0 = statistics.median(res[cmds[0]])
for c in cmds:
    m = statistics.median(res[c])
    print("%-60s median %6.2f ms (%.2fx)" % (c, m, m / m0))
