#!/usr/bin/env python3
"""bench/deviation_techniques.py JSONL OUT_DIR - tables and figure of
bench/deviation_techniques.sh: reads the --json lines of bench/abt/deviation
(deviation, deviation_callgrind, deviation_memory) and writes
OUT_DIR/deviation_techniques.md and OUT_DIR/deviation_techniques.png (ns per
fork-join vs D, one line per technique, one panel per stream count)."""
import json
import os
import statistics
import sys

TECHS = ["full", "full-l", "roc", "roc-l", "ss", "ss-l", "sc",
         "c-full", "c-full-e", "c-roc", "c-roc-e", "tasklet"]
LABEL = {"full": "Full", "full-l": "Full-L", "roc": "RoC", "roc-l": "RoC-L (default)",
         "ss": "SS", "ss-l": "SS-L", "sc": "SC", "c-full": "C-Full", "c-full-e": "C-Full-E",
         "c-roc": "C-RoC", "c-roc-e": "C-RoC-E", "tasklet": "tasklet"}
# parent-first solid, child-first dashed; eager/lazy pairs share a colour family
STYLE = {"full": ("tab:blue", "-", "o"), "full-l": ("tab:cyan", "-", "s"),
         "roc": ("tab:red", "-", "o"), "roc-l": ("tab:orange", "-", "s"),
         "c-full": ("tab:green", "--", "^"), "c-full-e": ("tab:olive", "--", "v"),
         "c-roc": ("tab:purple", "--", "^"), "c-roc-e": ("tab:pink", "--", "v"),
         "ss": ("tab:brown", "-.", "D"), "ss-l": ("tab:gray", "-.", "d"),
         "sc": ("black", ":", "x")}
DS = [0, 1, 5, 10, 25, 50, 100]


def cell(x):
    if x is None:
        return "–"
    if x >= 1000:
        return "{:,.0f}".format(x)
    return "%.1f" % x if x < 100 else "%.0f" % x


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    out = sys.argv[2]

    ns = {}    # (fork, streams, d) -> (median, min, max)
    for r in rows:
        if r.get("bench") == "deviation" and "fork" in r:
            s = r["samples"]
            ns[(r["fork"], r["streams"], r["d"])] = (statistics.median(s), min(s), max(s))
    insn = {r["fork"]: r["samples"][0] for r in rows
            if r.get("bench") == "deviation_callgrind" and "samples" in r}
    mem, created = {}, {}
    for r in rows:
        if r.get("bench") == "deviation_memory" and r.get("metric") == "vmhwm":
            mem[r["fork"]] = r["samples"][0] / 1024.0
            created[r["fork"]] = r.get("created", r["n"])
    streams = sorted({k[1] for k in ns})
    have = [t for t in TECHS if any(k[0] == t for k in ns) or t in insn or t in mem]
    na = [t for t in TECHS if t not in have]

    md = []
    for s in streams:
        md.append("**ns per fork-join, N = 4096, %d stream%s (median)**\n" % (s, "s" if s > 1 else ""))
        md.append("| technique | " + " | ".join("D = %d %%" % d for d in DS) + " |")
        md.append("|---|" + "---:|" * len(DS))
        for t in have:
            md.append("| %s | " % LABEL[t] +
                      " | ".join(cell(ns.get((t, s, d), (None,))[0]) for d in DS) + " |")
        md.append("")
    md.append("**D = 0: instructions per fork-join (callgrind, N = 256, 1 stream) and peak RSS "
              "at N = 65,536 (VmHWM)**\n")
    md.append("| technique | instructions | x tasklet | ns (1 stream) | x tasklet | peak MiB |")
    md.append("|---|---:|---:|---:|---:|---:|")
    ti, tn = insn.get("tasklet"), ns.get(("tasklet", 1, 0), (None,))[0]
    for t in have:
        i, n = insn.get(t), ns.get((t, 1, 0), (None,))[0]
        m = cell(mem.get(t))
        if t in created and created[t] < 65536:
            m += " (%d created)" % created[t]
        md.append("| %s | %s | %s | %s | %s | %s |" % (
            LABEL[t], cell(i), "%.2f" % (i / ti) if i and ti else "–",
            cell(n), "%.2f" % (n / tn) if n and tn else "–", m))
    if na:
        md.append("\nNot available in this build: " + ", ".join(LABEL[t] for t in na) + ".")
    md_path = os.path.join(out, "deviation_techniques.md")
    with open(md_path, "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    print("wrote " + md_path)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        print("(matplotlib not available: %s; no figure. apt-get install python3-matplotlib "
              "and run with /usr/bin/python3)" % e)
        return
    if not streams:
        return
    fig, axes = plt.subplots(1, len(streams), figsize=(6.2 * len(streams), 4.8), sharey=True,
                             squeeze=False)
    for ax, s in zip(axes[0], streams):
        for t in have:
            if t == "tasklet":
                if ("tasklet", s, 0) in ns:
                    ax.axhline(ns[("tasklet", s, 0)][0], color="black", linestyle=":",
                               label="tasklet (D = 0 only)")
                continue
            pts = [(d,) + ns[(t, s, d)] for d in DS if (t, s, d) in ns]
            if not pts:
                continue
            c, ls, mk = STYLE.get(t, ("gray", "-", "x"))
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[[p[1] - p[2] for p in pts], [p[3] - p[1] for p in pts]],
                        color=c, linestyle=ls, marker=mk, markersize=4, capsize=2,
                        label=LABEL[t])
        ax.set_xlabel("deviation probability D (%)")
        ax.set_title("N = 4096, %d stream%s%s" % (s, "s" if s > 1 else "",
                                                  " (shared pool)" if s > 1 else ""))
        ax.grid(which="both", alpha=0.3)
        ax.set_yscale("log")  # SC's promotions at D > 0 are 100x the rest
    axes[0][0].set_ylabel("ns per fork-join (median, min-max; log scale)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=8)
    if na:
        fig.text(0.01, 0.01, "not available: " + ", ".join(LABEL[t] for t in na), fontsize=8)
    fig.suptitle("weft fork-join techniques, deviation microbenchmark")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    p = os.path.join(out, "deviation_techniques.png")
    fig.savefig(p, dpi=110)
    plt.close(fig)
    print("wrote " + p)


if __name__ == "__main__":
    main()
