#!/usr/bin/env python3
"""bench/io/plot.py RESULTS.md OUT.png - draw the last "Medians over the rounds" table of
bench/io/run.sh's output in RESULTS.md: requests/s and server CPU per request against the
number of connections, one line per server."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

tables, cur = [], None
for line in open(sys.argv[1]):
    if line.startswith("Medians over the rounds"):
        cur = {}
        tables.append(cur)
        continue
    f = [c.strip() for c in line.strip().strip("|").split("|")]
    if cur is not None and len(f) == 4 and f[1].isdigit():
        try:
            cur.setdefault(f[0], []).append((int(f[1]), float(f[2]), float(f[3])))
        except ValueError:
            pass
    elif cur is not None and line.startswith("#"):
        cur = None
if not tables:
    sys.exit("no 'Medians over the rounds' table in " + sys.argv[1])
rows = tables[-1]
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
for name, pts in rows.items():
    pts.sort()
    a.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    b.plot([p[0] for p in pts], [p[2] for p in pts], marker="o", label=name)
for ax, t in ((a, "requests/s (median of rounds)"), (b, "server CPU per request (us)")):
    ax.set_xscale("log")
    ax.set_xlabel("connections")
    ax.set_title(t)
    ax.grid(True, alpha=0.3)
a.legend()
fig.suptitle("kvserver protocol on loopback, 2 cores shared with the load generator")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=100)
