"""mcptime.py N BIN...: start each BIN as `BIN mcp` (a store must be found
from the working directory), time from spawn to its answer to initialize and
to tools/list, the binaries interleaved N times; medians, ratios to the first."""
import json, statistics, subprocess, sys, time

init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}) + "\n"
rest = (json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n" +
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n").encode()
n, bins = int(sys.argv[1]), sys.argv[2:]
res = {b: ([], []) for b in bins}
for _ in range(n):
    for b in bins:
        t0 = time.perf_counter()
        p = subprocess.Popen([b, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        p.stdin.write(init.encode()); p.stdin.flush()
        p.stdout.readline(); t1 = time.perf_counter()
        p.stdin.write(rest); p.stdin.flush()
        p.stdout.readline(); t2 = time.perf_counter()
        p.stdin.close(); p.wait()
        res[b][0].append((t1 - t0) * 1000); res[b][1].append((t2 - t0) * 1000)
i0, l0 = (statistics.median(x) for x in res[bins[0]])
for b in bins:
    i, l = (statistics.median(x) for x in res[b])
    print("%-40s initialize %6.2f ms (%.2fx)   tools/list %6.2f ms (%.2fx)   n=%d" % (b, i, i / i0, l, l / l0, n))
