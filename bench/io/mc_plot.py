#!/usr/bin/env python3
"""bench/io/mc_plot.py RESULTS.md OUT.png - draw the "Medians over the rounds" table of
bench/io/mc_bench.sh's output: requests/s and server CPU per request against the number of
connections, one line per server and value size."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows, on = {}, False
for line in open(sys.argv[1]):
    if line.startswith("## "):
        on = line.startswith("## Medians over the rounds")
        continue
    f = [c.strip() for c in line.strip().strip("|").split("|")]
    if on and len(f) == 8 and f[0].isdigit():
        rows.setdefault((f[2], int(f[1])), []).append((int(f[0]), float(f[3]), float(f[6])))
if not rows:
    sys.exit("no 'Medians over the rounds' table in " + sys.argv[1])
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
for (srv, size), pts in sorted(rows.items()):
    pts.sort()
    style = "-" if size <= 100 else "--"
    lab = "%s, %d B" % (srv, size)
    a.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", label=lab)
    b.plot([p[0] for p in pts], [p[2] for p in pts], style, marker="o", label=lab)
for ax, t in ((a, "requests/s (median of rounds)"), (b, "server CPU per request (us)")):
    ax.set_xscale("log")
    ax.set_xlabel("connections")
    ax.set_title(t)
    ax.grid(True, alpha=0.3)
a.legend(fontsize=7)
fig.suptitle("weft-kvserver -t 2 vs memcached -t 2, loopback, load generator on the same 2 cores")
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=100)
