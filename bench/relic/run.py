#!/usr/bin/env python3
"""bench/relic/run.py - the Relic paper's evaluation in one run: every kernels_<framework>
program built in BUILD/bench (Relic, weft ULTs, weft tasklets, GNU and LLVM OpenMP tasks,
oneTBB task_group), one after the other, then speedups over serial per kernel, their
geometric means, the empty-task round trips, a Markdown table and the figures.

    python3 bench/relic/run.py [--build build/bench] [--iters 105] [--rounds 5] [--repeats 7]
                               [--out bench/figures] [--quick]

The frameworks are interleaved: a round runs every program once (--repeats samples of
--iters pairs each), in an order rotated from round to round, and each figure is the median
over the rounds of the per-round figure, so that a busy minute of the machine hits every
framework alike instead of the one that happened to run then.  Speedup of a kernel in a
round = median serial time / median parallel time of that program run (the two are
sampled interleaved, so both see the same machine).  The summary also shows every round
on its own (Relic's geomean against the best other, the round-trip ratio).  Two geometric means, as the
paper: over all kernels ("all"), and with degradations replaced by the serial time
("no negative outliers", the paper's Fig. 4: a developer would keep the serial code).
The figures need matplotlib (Debian python3-matplotlib; run with /usr/bin/python3)."""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys

FRAMEWORKS = [  # program, label, extra environment
    ("kernels_relic", "Relic", {}),
    ("kernels_weft_ult", "weft ULT", {}),
    ("kernels_weft_tasklet", "weft tasklet", {}),
    ("kernels_gomp", "GNU OpenMP", {"OMP_PROC_BIND": "close", "OMP_PLACES": "threads"}),
    ("kernels_libomp", "LLVM OpenMP", {"OMP_PROC_BIND": "close", "OMP_PLACES": "threads"}),
    ("kernels_tbb", "oneTBB", {}),
]
KERNELS = ["BC", "BFS", "CC_SV", "PR", "SSSP", "TC", "JSON"]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def run_round(a, reps, order):
    """One round: every framework's program once, in `order`; per framework its speedups
    per kernel (median serial / median parallel of this program run), its round trip and
    remote fraction."""
    bindir = os.path.join(a.build, "bench")
    out = {}
    for prog, label, env in order:
        path = os.path.join(bindir, prog)
        if not os.path.exists(path):
            continue
        e = dict(os.environ, **env)
        r = subprocess.run([path, "--json", "--iters", str(a.iters), "--repeats", str(reps)],
                           env=e, capture_output=True, text=True, timeout=1800)
        sys.stderr.write(r.stderr)
        if r.returncode != 0:
            print(f"{label}: exit {r.returncode}", file=sys.stderr)
        ser, par, rt, remote = {}, {}, None, None
        for line in r.stdout.splitlines():
            d = json.loads(line)
            med = statistics.median(d["samples"])
            if d["bench"] == "relic_roundtrip" and d["metric"] == "remote_fraction":
                remote = med
            elif d["bench"] == "relic_roundtrip":
                rt = med
            elif d["metric"] == "serial_ns":
                ser[d["kernel"]] = med
            else:
                par[d["kernel"]] = med
        out[label] = {"speedup": {k: ser[k] / par[k] for k in ser if k in par},
                      "roundtrip_ns": rt, "remote_fraction": remote}
    return out


def geomeans(sp, kernels):
    return (geomean([sp[k] for k in kernels if k in sp]),
            geomean([max(1.0, sp[k]) for k in kernels if k in sp]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/bench")
    ap.add_argument("--iters", type=int, default=105)
    ap.add_argument("--rounds", type=int, default=5,
                    help="rounds; each runs every framework once, in a rotated order")
    ap.add_argument("--repeats", type=int, default=7, help="samples per program run")
    ap.add_argument("--out", default="bench/figures")
    ap.add_argument("--quick", action="store_true", help="3 rounds of 3 repeats: a smoke run")
    a = ap.parse_args()
    reps = 3 if a.quick else a.repeats
    rounds = 3 if a.quick else a.rounds
    fws = [f for f in FRAMEWORKS if os.path.exists(os.path.join(a.build, "bench", f[0]))]
    for f in FRAMEWORKS:
        if f not in fws:
            print(f"{f[1]}: {os.path.join(a.build, 'bench', f[0])} not built, skipped",
                  file=sys.stderr)
    per_round = []
    for r in range(rounds):
        # rotate the order, so that no framework always runs first or right after another
        order = fws[r % len(fws):] + fws[:r % len(fws)]
        per_round.append(run_round(a, reps, order))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    labels = [f[1] for f in fws if all(f[1] in x for x in per_round)]
    kernels = [k for k in KERNELS if any(k in x[l]["speedup"] for x in per_round for l in labels)]
    # A framework's figure: the median over rounds of its per-round figure (each round
    # saw every framework within a minute or so).
    speed, rt, remote = {}, {}, {}
    for l in labels:
        speed[l] = {k: statistics.median(x[l]["speedup"][k] for x in per_round)
                    for k in kernels if all(k in x[l]["speedup"] for x in per_round)}
        rts = [x[l]["roundtrip_ns"] for x in per_round if x[l]["roundtrip_ns"] is not None]
        if rts:
            rt[l] = statistics.median(rts)
        rems = [x[l]["remote_fraction"] for x in per_round if x[l]["remote_fraction"] is not None]
        if rems:
            remote[l] = statistics.median(rems)

    os.makedirs(a.out, exist_ok=True)
    lines = ["| framework | " + " | ".join(kernels) +
             " | geomean (all) | geomean (no negative outliers) | empty round trip ns |"
             " empty tasks run remotely |",
             "|---" * (len(kernels) + 5) + "|"]
    summary = {}
    for l in labels:
        s = speed[l]
        g_all, g_pos = geomeans(s, kernels)
        summary[l] = (g_all, g_pos)
        cells = [f"{(s[k] - 1) * 100:+.1f}%" if k in s else "-" for k in kernels]
        lines.append(f"| {l} | " + " | ".join(cells) +
                     f" | {(g_all - 1) * 100:+.1f}% | {(g_pos - 1) * 100:+.1f}% | "
                     f"{rt.get(l, float('nan')):.0f} | "
                     f"{remote.get(l, float('nan')) * 100:.0f}% |")
    # Every round on its own: Relic's geomean against the best other's, the round trips.
    rl = ["", "| round | Relic geomean (no neg.) | best other (which) | Relic round trip ns | "
          "best OpenMP round trip ns | ratio |", "|---|---|---|---|---|---|"]
    wins_g = wins_rt = 0
    for i, x in enumerate(per_round):
        g = {l: geomeans(x[l]["speedup"], kernels)[1] for l in labels}
        others = [(g[l], l) for l in labels if l != "Relic"]
        bo = max(others) if others else (float("nan"), "-")
        omp = [x[l]["roundtrip_ns"] for l in ("GNU OpenMP", "LLVM OpenMP")
               if l in x and x[l]["roundtrip_ns"] is not None]
        rrt = x.get("Relic", {}).get("roundtrip_ns")
        ratio = rrt / min(omp) if omp and rrt else float("nan")
        if "Relic" in g and g["Relic"] > bo[0]:
            wins_g += 1
        if ratio <= 1 / 3:
            wins_rt += 1
        rl.append(f"| {i + 1} | {(g.get('Relic', float('nan')) - 1) * 100:+.1f}% | "
                  f"{(bo[0] - 1) * 100:+.1f}% ({bo[1]}) | {rrt if rrt else float('nan'):.0f} | "
                  f"{min(omp) if omp else float('nan'):.0f} | {ratio:.2f} |")
    table = "\n".join(lines + rl)
    print(table)
    best_other = max((summary[l][1] for l in labels if l != "Relic"), default=None)
    omp_rt = [rt[l] for l in ("GNU OpenMP", "LLVM OpenMP") if l in rt]
    verdict = []
    if "Relic" in summary and best_other is not None:
        verdict.append(f"Relic geomean (no negative outliers) {(summary['Relic'][1] - 1) * 100:+.1f}%, "
                       f"best other {(best_other - 1) * 100:+.1f}%: "
                       f"{'highest' if summary['Relic'][1] > best_other else 'NOT the highest'} "
                       f"(highest in {wins_g} of {rounds} rounds)")
    if "Relic" in rt and omp_rt:
        verdict.append(f"Relic round trip {rt['Relic']:.0f} ns, best OpenMP {min(omp_rt):.0f} ns: "
                       f"ratio {rt['Relic'] / min(omp_rt):.2f} (criterion: <= 0.33; "
                       f"held in {wins_rt} of {rounds} rounds)")
    best_all = max((summary[l][0] for l in labels if l != "Relic"), default=None)
    if "Relic" in summary and best_all is not None:
        verdict.append(f"Relic geomean (all kernels) {(summary['Relic'][0] - 1) * 100:+.1f}%, "
                       f"best other {(best_all - 1) * 100:+.1f}%")
    print("\n" + "\n".join(verdict))
    with open(os.path.join(a.out, "relic_summary.md"), "w") as f:
        f.write(f"Medians over {rounds} interleaved rounds of {reps} samples of {a.iters} "
                f"iterations each (`bench/relic/run.py --rounds {rounds} --repeats {reps}`); "
                f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs.\n\n")
        f.write(table + "\n\n" + "\n".join(verdict) + "\n")
    with open(os.path.join(a.out, "relic_results.json"), "w") as f:
        json.dump({"speedup": speed, "roundtrip_ns": rt, "remote_fraction": remote,
                   "iters": a.iters, "repeats": reps, "rounds": rounds,
                   "per_round": per_round}, f, indent=1)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no figures (run with /usr/bin/python3)", file=sys.stderr)
        return
    # Fig. 1 / Fig. 3 of the paper: speedup over serial per kernel, one bar per framework.
    fig, ax = plt.subplots(figsize=(11, 4.2))
    w = 0.8 / max(1, len(labels))
    for i, l in enumerate(labels):
        xs = [j + (i - (len(labels) - 1) / 2) * w for j in range(len(kernels))]
        ys = [(speed[l].get(k, 1.0) - 1) * 100 for k in kernels]
        ax.bar(xs, ys, w, label=l)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(kernels)
    ax.set_ylabel("speedup over serial (%)")
    ax.set_title("Two kernel instances in parallel (Kronecker 32 nodes, degree 4; JSON widget)")
    ax.legend(ncol=3, fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "relic_kernels.png"), dpi=110)
    # Fig. 4: geometric means per framework, and the round trip.
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    ax1.bar(labels, [(summary[l][1] - 1) * 100 for l in labels], color="tab:blue",
            label="no negative outliers")
    ax1.bar(labels, [(summary[l][0] - 1) * 100 for l in labels], color="tab:orange",
            alpha=0.6, label="all kernels")
    ax1.axhline(0, color="black", linewidth=0.8)
    ax1.set_ylabel("geometric-mean speedup (%)")
    ax1.legend(fontsize=8)
    ax1.tick_params(axis="x", labelrotation=30)
    ax2.bar([l for l in labels if l in rt], [rt[l] for l in labels if l in rt],
            color="tab:green")
    ax2.set_yscale("log")
    ax2.set_ylabel("empty task submit + wait (ns)")
    ax2.tick_params(axis="x", labelrotation=30)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "relic_geomean.png"), dpi=110)
    print(f"figures: {a.out}/relic_kernels.png, {a.out}/relic_geomean.png")


if __name__ == "__main__":
    main()
