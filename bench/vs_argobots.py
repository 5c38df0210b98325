#!/usr/bin/env python3
"""bench/vs_argobots.py BENCH_DIR [--rounds R] - weft and Argobots side by side, in one run.

The wall-clock lines of issue 17 (fork-join techniques) compare weft with Argobots 1.2 "side by
side in one run".  On a shared 2-core machine the load changes from one second to the next, so
this runner alternates the two builds of the same benchmark source (bench/abt/*.c, linked to weft
and, as *_abt, to an installed Argobots: configure with -DWEFT_BENCH_ARGOBOTS_PREFIX=<prefix>)
round after round, swapping which goes first, and reports for every configuration:

  weft and Argobots: the median over rounds of each run's median (ns per unit);
  ratio: weft / Argobots of those medians;  paired: the median of the per-round ratios;
  wins: in how many rounds weft was the faster.

Configurations: fork_join (create + join + free of N units) on 1 stream, N = 256 and 4096, ULT
and tasklet; on 2 streams, the modes "one" (one creator feeds both streams) and "each" (both
streams fork); the deviation microbenchmark (N ULTs forked and joined, D % of them yield once) at
N = 256 and 4096 on 1 and 2 streams.  Standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# (label prefix, program, arguments, key of a result line -> configuration label)
FJ1 = ["--n", "256,4096", "--streams", "1", "--kinds", "ult,tasklet"]
FJ2 = ["--n", "256,4096", "--streams", "2", "--kinds", "ult,tasklet", "--modes", "one,each"]
DEV = ["--d", "0,1,5,10,25,50,100"]


def fj_label(r):
    mode = " " + r["mode"] if r.get("streams", 1) > 1 else ""
    return "fork_join %s N=%d %d stream%s%s" % (r["kind"], r["n"], r["streams"],
                                              "s" if r["streams"] > 1 else "", mode)


def dev_label(streams):
    return lambda r: "deviation N=%d %d stream%s D=%d%%" % (r["n"], streams,
                                                           "s" if streams > 1 else "", r["d"])


RUNS = [
    ("fork_join", FJ1, fj_label),
    ("fork_join", FJ2, fj_label),
    ("deviation", ["--n", "256", "--streams", "1"] + DEV, dev_label(1)),
    ("deviation", ["--n", "4096", "--streams", "1"] + DEV, dev_label(1)),
    ("deviation", ["--n", "256", "--streams", "2"] + DEV, dev_label(2)),
    ("deviation", ["--n", "4096", "--streams", "2"] + DEV, dev_label(2)),
]


def run(path, args, label, common):
    out = subprocess.run([path] + args + common + ["--json"], check=True, text=True,
                         stdout=subprocess.PIPE).stdout
    res = {}
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("metric", "total") != "total":
            continue
        res[label(r)] = statistics.median(r["samples"])
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench_dir")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5, help="samples per run (default 5)")
    ap.add_argument("--sample-ms", type=int, default=10)
    ap.add_argument("--only", default="", help="comma-separated: fork_join, deviation")
    a = ap.parse_args()
    common = ["--repeats", str(a.repeats), "--sample-ms", str(a.sample_ms)]
    runs = [x for x in RUNS if not a.only or x[0] in a.only.split(",")]
    for prog, _, _ in runs:
        for suffix in ("", "_abt"):
            p = os.path.join(a.bench_dir, prog + suffix)
            if not os.access(p, os.X_OK):
                sys.exit("vs_argobots: %s is missing (the _abt programs need a build configured "
                         "with -DWEFT_BENCH_ARGOBOTS_PREFIX=<an installed Argobots 1.2>)" % p)
    weft, abt, order = {}, {}, []
    for rnd in range(a.rounds):
        for prog, args, label in runs:
            pair = [("weft", prog), ("abt", prog + "_abt")]
            if rnd % 2:
                pair.reverse()
            got = {}
            for who, exe in pair:
                got[who] = run(os.path.join(a.bench_dir, exe), args, label, common)
            for k in got["weft"]:
                if k in got["abt"]:
                    if k not in weft:
                        order.append(k)
                    weft.setdefault(k, []).append(got["weft"][k])
                    abt.setdefault(k, []).append(got["abt"][k])
        print("round %d of %d done" % (rnd + 1, a.rounds), file=sys.stderr, flush=True)
    print("weft vs Argobots, %d alternating rounds (%s; each run: the median of %d samples of "
          "~%d ms)" % (a.rounds, a.bench_dir, a.repeats, a.sample_ms))
    print("%-42s %9s %9s %7s %7s %6s" % ("configuration (ns per unit)", "weft", "Argobots",
                                         "ratio", "paired", "wins"))
    for k in order:
        w, b = weft[k], abt[k]
        mw, mb = statistics.median(w), statistics.median(b)
        paired = statistics.median(x / y for x, y in zip(w, b))
        wins = sum(x < y for x, y in zip(w, b))
        print("%-42s %9.1f %9.1f %7.2f %7.2f %3d/%-2d" % (k, mw, mb, mw / mb, paired, wins,
                                                          len(w)))


if __name__ == "__main__":
    main()
