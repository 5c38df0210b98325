#!/usr/bin/env python3
"""bench/relic/run.py - the Relic paper's evaluation in one run: every kernels_<framework>
program built in BUILD/bench (Relic, weft ULTs, weft tasklets, GNU and LLVM OpenMP tasks,
oneTBB task_group), one after the other, then speedups over serial per kernel, their
geometric means, the empty-task round trips, a Markdown table and the figures.

    python3 bench/relic/run.py [--build build/bench] [--iters 105] [--repeats 31]
                               [--out bench/figures] [--quick]

Speedup of a kernel = median serial time / median parallel time of the same program (the
two are sampled interleaved, so both see the same machine).  Two geometric means, as the
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/bench")
    ap.add_argument("--iters", type=int, default=105)
    ap.add_argument("--repeats", type=int, default=31)
    ap.add_argument("--out", default="bench/figures")
    ap.add_argument("--quick", action="store_true", help="5 repeats: a smoke run")
    a = ap.parse_args()
    reps = 5 if a.quick else a.repeats
    bindir = os.path.join(a.build, "bench")
    speed, rt, remote, labels = {}, {}, {}, []
    for prog, label, env in FRAMEWORKS:
        path = os.path.join(bindir, prog)
        if not os.path.exists(path):
            print(f"{label}: {path} not built, skipped", file=sys.stderr)
            continue
        e = dict(os.environ, **env)
        r = subprocess.run([path, "--json", "--iters", str(a.iters), "--repeats", str(reps)],
                           env=e, capture_output=True, text=True, timeout=1800)
        sys.stderr.write(r.stderr)
        if r.returncode != 0:
            print(f"{label}: exit {r.returncode}", file=sys.stderr)
        ser, par = {}, {}
        for line in r.stdout.splitlines():
            d = json.loads(line)
            med = statistics.median(d["samples"])
            if d["bench"] == "relic_roundtrip" and d["metric"] == "remote_fraction":
                remote[label] = med
            elif d["bench"] == "relic_roundtrip":
                rt[label] = med
            elif d["metric"] == "serial_ns":
                ser[d["kernel"]] = med
            else:
                par[d["kernel"]] = med
        speed[label] = {k: ser[k] / par[k] for k in ser if k in par}
        labels.append(label)

    kernels = [k for k in KERNELS if any(k in speed[l] for l in labels)]
    os.makedirs(a.out, exist_ok=True)
    lines = ["| framework | " + " | ".join(kernels) +
             " | geomean (all) | geomean (no negative outliers) | empty round trip ns |"
             " empty tasks run remotely |",
             "|---" * (len(kernels) + 5) + "|"]
    summary = {}
    for l in labels:
        s = speed[l]
        g_all = geomean([s[k] for k in kernels if k in s])
        g_pos = geomean([max(1.0, s[k]) for k in kernels if k in s])
        summary[l] = (g_all, g_pos)
        cells = [f"{(s[k] - 1) * 100:+.1f}%" if k in s else "-" for k in kernels]
        lines.append(f"| {l} | " + " | ".join(cells) +
                     f" | {(g_all - 1) * 100:+.1f}% | {(g_pos - 1) * 100:+.1f}% | "
                     f"{rt.get(l, float('nan')):.0f} | "
                     f"{remote.get(l, float('nan')) * 100:.0f}% |")
    table = "\n".join(lines)
    print(table)
    best_other = max((summary[l][1] for l in labels if l != "Relic"), default=None)
    omp_rt = [rt[l] for l in ("GNU OpenMP", "LLVM OpenMP") if l in rt]
    if "Relic" in summary and best_other is not None:
        print(f"\nRelic geomean (no negative outliers) {(summary['Relic'][1] - 1) * 100:+.1f}%, "
              f"best other {(best_other - 1) * 100:+.1f}%: "
              f"{'highest' if summary['Relic'][1] > best_other else 'NOT the highest'}")
    if "Relic" in rt and omp_rt:
        print(f"Relic round trip {rt['Relic']:.0f} ns, best OpenMP {min(omp_rt):.0f} ns: "
              f"ratio {rt['Relic'] / min(omp_rt):.2f} (criterion: <= 0.33)")
    with open(os.path.join(a.out, "relic_summary.md"), "w") as f:
        f.write(table + "\n")
    with open(os.path.join(a.out, "relic_results.json"), "w") as f:
        json.dump({"speedup": speed, "roundtrip_ns": rt, "remote_fraction": remote,
                   "iters": a.iters,
                   "repeats": reps}, f, indent=1)

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
