#!/usr/bin/python3
"""bench/mpi/run.py - libweft-mpi beside plain MPI: runs the programs of bench/mpi under
mpirun, interleaved and repeated, and writes the medians and the figures.

  bench/mpi/run.py [--build build/rel] [--repeats 5] [--out bench/figures] [--quick]

Needs a build with the MPI face and the benchmarks (cmake -DWEFT_BUILD_BENCH=ON; ninja
mpi_pingpong mpi_pingpong_plain mpi_stencil_bench).  Every configuration runs once per
round, rounds repeat --repeats times, and each figure is the median over the rounds, so
a plain-MPI figure and its weft figure come from runs minutes apart at most (the machine's
load moves them together).  Writes OUT/mpi_results.json, OUT/mpi_summary.md and
OUT/mpi_latency.png, OUT/mpi_rate.png, OUT/mpi_stencil.png (figures need matplotlib).

Configurations (2 ranks: one process per core on the 2-core reference machine):
  latency  8-byte ping-pong round trip: plain MPI (1 process per rank) vs 1, 8, 64 ULT
           pairs per rank (each pair bounces its own message; all at once on one stream)
  rate     osu_mbw_mr with ULT pairs: 8-byte messages with blocking MPI_Send / MPI_Recv,
           a window of 64 then an ack, per pair: plain MPI (one pair of processes, one
           per core) vs 1, 8, 64 ULT pairs per rank pair, MPI_THREAD_MULTIPLE and FUNNELED;
           plus, as a reference only, plain MPI initialised with MPI_THREAD_MULTIPLE (Open
           MPI's own thread-safety cost: it locks at every level above SINGLE, and ULTs of
           several streams need at least SERIALIZED).  The criterion's baseline stays plain MPI at SINGLE.
           And the plain MPI program with LD_PRELOAD=libweft-mpi.so (no ULT calls MPI: the
           layer keeps SINGLE and takes no lock, so this should match plain MPI).
  stencil  examples/mpi/stencil.c, with the layer vs WEFT_MPI_BYPASS=1 (the same binary,
           every call straight to PMPI), on 2 and 4 ranks: thin slabs (65536 columns, 32
           rows per rank), so that the halo rows (512 KiB) are a visible part of an
           iteration; with thick slabs (8192 x 256) the halo is ~0.3% of it on shared
           memory and both take the same time within noise
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def mpirun(np_, prog, args, env=None):
    cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--timeout", "300", "-np", str(np_)]
    for k, v in (env or {}).items():
        cmd += ["-x", f"{k}={v}"]
    cmd += [prog] + [str(a) for a in args]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stdout}\n{out.stderr}")
    return cmd, out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(root, "build", "rel"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(root, "bench", "figures"))
    ap.add_argument("--quick", action="store_true", help="fewer iterations, 3 rounds")
    ap.add_argument("--only", default="latency,rate,stencil",
                    help="comma-separated benchmarks to run (default: all three)")
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the figures and summary from OUT/mpi_results.json")
    a = ap.parse_args()
    if a.quick:
        a.repeats = min(a.repeats, 3)
    b = os.path.join(a.build, "bench", "mpi")
    pp, plain, st = (os.path.join(b, n) for n in ("mpi_pingpong", "mpi_pingpong_plain", "mpi_stencil"))
    for p in (pp, plain, st):
        if not os.path.exists(p):
            sys.exit(f"{p} is missing: build with -DWEFT_BUILD_BENCH=ON and the MPI face")
    it_lat = 2000 if a.quick else 10000
    it_rate = 64 * (2000 if a.quick else 20000)  # messages per rank, split over the ULTs

    configs = []  # (key, np, prog, args, env, kind)
    configs.append((("latency", "plain", 1, "single"), 2, plain, ["latency", 1, it_lat], {}, "json"))
    for k in (1, 8, 64):
        configs.append((("latency", "weft", k, "multiple"), 2, pp,
                        ["latency", k, max(200, it_lat // k)], {}, "json"))
    configs.append((("rate", "plain", 1, "single"), 2, plain, ["rate", 1, it_rate], {}, "json"))
    configs.append((("rate", "plain", 1, "multiple"), 2, plain, ["rate", 1, it_rate, "multiple"], {},
                    "json"))
    # the plain MPI program (MPI_THREAD_SINGLE, no ULT) with the layer preloaded: what the
    # layer costs a program that never blocks a ULT in MPI
    preload = {"LD_PRELOAD": os.path.join(a.build, "src", "mpi", "libweft-mpi.so"),
               "LD_LIBRARY_PATH": a.build}
    configs.append((("rate", "preload", 1, "single"), 2, plain, ["rate", 1, it_rate], preload,
                    "json"))
    for k in (1, 8, 64):
        for lvl in ("multiple", "funneled"):
            configs.append((("rate", "weft", k, lvl), 2, pp,
                            ["rate", k, max(64, it_rate // k // 64 * 64), lvl], {}, "json"))
    sargs = [65536, 32, 10 if a.quick else 30, 16, 1]  # thin slabs: 512 KiB halo rows
    for np_ in (2, 4):
        for layer in (True, False):
            env = {} if layer else {"WEFT_MPI_BYPASS": "1"}
            configs.append((("stencil", "layer" if layer else "bypass", np_, "multiple"), np_, st,
                            sargs, env, "stencil"))

    only = set(a.only.split(","))
    configs = [c for c in configs if c[0][0] in only]
    runs = {c[0]: [] for c in configs}
    cmds = {}
    if a.replot:
        with open(os.path.join(a.out, "mpi_results.json")) as f:
            old = json.load(f)
        a.repeats = old["repeats"]
        for x in old["results"]:
            key = (x["bench"], x["impl"], x["n"], x["level"])
            runs[key] = x["runs"]
            cmds[key] = x["command"]
    for r in range(0 if a.replot else a.repeats):
        for key, np_, prog, args, env, kind in configs:
            cmd, out = mpirun(np_, prog, args, env)
            cmds[key] = " ".join(cmd)
            if kind == "json":
                d = json.loads(out.strip().splitlines()[-1])
                runs[key].append(d["rtt_us"] if key[0] == "latency" else d["msg_per_s"])
            else:
                line = [l for l in out.splitlines() if l.startswith("stencil")][-1]
                runs[key].append(float(line.rsplit(":", 1)[1].split()[0]))
        print(f"round {r + 1}/{a.repeats} done", file=sys.stderr)

    res = []
    for key, vals in runs.items():
        res.append({"bench": key[0], "impl": key[1], "n": key[2], "level": key[3],
                    "median": statistics.median(vals), "runs": vals, "command": cmds[key]})
    med = {(x["bench"], x["impl"], x["n"], x["level"]): x["median"] for x in res}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "mpi_results.json"), "w") as f:
        json.dump({"repeats": a.repeats, "results": res}, f, indent=1)

    def paired(num, den):
        """Median over rounds of num/den, each ratio from the same round (minutes apart)."""
        return statistics.median(x / y for x, y in zip(runs[num], runs[den]))

    lines = ["# libweft-mpi vs plain MPI (bench/mpi/run.py)", "",
             f"Medians of {a.repeats} interleaved rounds, 2 ranks unless said; "
             f"`nproc` = {os.cpu_count()}, load average at the end "
             f"{os.getloadavg()[0]:.1f}.  \"vs plain MPI\": the ratio of the medians, and "
             "in brackets the median of the per-round ratios (each weft run against the "
             "plain run of its own round).", "",
             "| benchmark | configuration | median | vs plain MPI |", "|---|---|---|---|"]
    if "latency" in only:
        pl = med[("latency", "plain", 1, "single")]
        lines.append(f"| ping-pong RTT | plain MPI | {pl:.2f} us | 1.00 |")
        for k in (1, 8, 64):
            key = ("latency", "weft", k, "multiple")
            v = med[key]
            lines.append(f"| ping-pong RTT | weft-mpi, {k} ULT pairs | {v:.2f} us | {v / pl:.2f}x "
                         f"({paired(key, ('latency', 'plain', 1, 'single')):.2f}x) |")
    if "rate" in only:
        pr = med[("rate", "plain", 1, "single")]
        pkey, pmkey = ("rate", "plain", 1, "single"), ("rate", "plain", 1, "multiple")
        prm = med[pmkey]
        lines.append(f"| message rate | plain MPI | {pr / 1e6:.3f} M/s | 1.00 |")
        lines.append(f"| message rate | plain MPI at MPI_THREAD_MULTIPLE (reference) | "
                     f"{prm / 1e6:.3f} M/s | {prm / pr:.2f}x ({paired(pmkey, pkey):.2f}x) |")
        plk = ("rate", "preload", 1, "single")
        if plk in med:  # not in a --replot of a results file without it
            lines.append(f"| message rate | plain MPI with LD_PRELOAD=libweft-mpi.so | "
                         f"{med[plk] / 1e6:.3f} M/s | {med[plk] / pr:.2f}x "
                         f"({paired(plk, pkey):.2f}x) |")
        for k in (1, 8, 64):
            for lvl in ("multiple", "funneled"):
                key = ("rate", "weft", k, lvl)
                v = med[key]
                lines.append(f"| message rate | weft-mpi, {k} ULTs, {lvl} | {v / 1e6:.3f} M/s | "
                             f"{v / pr:.2f}x ({paired(key, pkey):.2f}x); vs plain at MULTIPLE "
                             f"{v / prm:.2f}x ({paired(key, pmkey):.2f}x) |")
    if "stencil" in only:
        for np_ in (2, 4):
            lk, bk = ("stencil", "layer", np_, "multiple"), ("stencil", "bypass", np_, "multiple")
            w, wo = med[lk], med[bk]
            lines.append(f"| stencil, {np_} ranks | with the layer | {w:.4f} s | "
                         f"{wo / w:.2f}x ({paired(bk, lk):.2f}x) faster than without "
                         f"({wo:.4f} s) |")
    lines += ["", "Commands (one round):", ""]
    lines += [f"- `{c}`" for c in sorted(set(cmds.values()))]
    with open(os.path.join(a.out, "mpi_summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    if only != {"latency", "rate", "stencil"}:
        return  # the figures need every benchmark
    pl = med[("latency", "plain", 1, "single")]
    pr = med[("rate", "plain", 1, "single")]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: figures skipped (apt-get install python3-matplotlib)", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = ["plain MPI"] + [f"{k} ULT pairs" for k in (1, 8, 64)]
    vals = [pl] + [med[("latency", "weft", k, "multiple")] for k in (1, 8, 64)]
    ax.bar(names, vals, color=["grey"] + ["tab:blue"] * 3)
    ax.set_ylabel("round trip seen by one pair (us)")
    ax.set_title("8-byte ping-pong, 2 ranks")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "mpi_latency.png"), dpi=100)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [1, 8, 64]
    for lvl, c in (("multiple", "tab:blue"), ("funneled", "tab:green")):
        ax.plot(xs, [med[("rate", "weft", k, lvl)] / 1e6 for k in xs], "o-", color=c,
                label=f"weft-mpi, MPI_THREAD_{lvl.upper()}")
    ax.axhline(pr / 1e6, color="grey", ls="--", label="plain MPI (1 process per core)")
    prm = med[("rate", "plain", 1, "multiple")]
    ax.axhline(prm / 1e6, color="tab:red", ls="-.", label="plain MPI at MPI_THREAD_MULTIPLE")
    ax.axhline(0.8 * pr / 1e6, color="grey", ls=":", label="0.8x plain")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("ULTs per rank")
    ax.set_ylabel("messages per second (M)")
    ax.set_title("8-byte message rate, 2 ranks")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "mpi_rate.png"), dpi=100)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    lab, wv, wov = [], [], []
    for np_ in (2, 4):
        lab.append(f"{np_} ranks")
        wv.append(med[("stencil", "layer", np_, "multiple")])
        wov.append(med[("stencil", "bypass", np_, "multiple")])
    x = range(len(lab))
    ax.bar([i - 0.2 for i in x], wv, 0.4, label="with libweft-mpi")
    ax.bar([i + 0.2 for i in x], wov, 0.4, label="without (WEFT_MPI_BYPASS=1)")
    ax.set_xticks(list(x), lab)
    ax.set_ylabel("time (s)")
    ax.set_title("stencil " + "x".join(str(s) for s in sargs[:3]) + f", {sargs[3]} ULTs, 1 stream per rank")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "mpi_stencil.png"), dpi=100)


if __name__ == "__main__":
    main()
