#!/usr/bin/env python3
"""weft benchmark runner: builds the suite in Release, runs every benchmark with
repeats, writes results.json / results.csv / summary.md and draws the figures.

Normally started through bench/run.sh, which installs the baseline packages
first and runs this script with /usr/bin/python3 (Debian's matplotlib).

  bench/run.sh [--quick] [--argobots PREFIX] [--out DIR] [--build DIR]
               [--only fork_join,yield,join_many,deviation,memory,patterns,sync,recursive,
                       callgrind]
               [--threads 1,2] [--skip-build] [--no-plots]
"""
import argparse
import csv
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

ALL_BENCHES = ["fork_join", "yield", "join_many", "deviation", "memory", "patterns", "sync",
               "recursive", "callgrind"]

# bench/sync rows: key (the "op" of its results) -> label of the summary table
SYNC_OPS = [("mutex", "mutex lock + unlock"), ("mutex_trylock", "mutex trylock + unlock"),
            ("mutex_contended", "mutex contended, 2 streams"),
            ("rwlock_rd", "rwlock rdlock + unlock"), ("rwlock_wr", "rwlock wrlock + unlock"),
            ("cond_rt_1", "cond round trip, 1 stream"), ("cond_rt_2", "cond round trip, 2 streams"),
            ("cond_signal", "cond signal, no waiter"), ("eventual", "eventual set + wait + reset"),
            ("future", "future set + wait + reset"),
            ("eventual_pingpong", "eventual ping-pong, 2 streams"),
            ("barrier_2", "barrier of 2"), ("barrier_32", "barrier of 32")]

IMPL_LABEL = {
    "weft": "weft",
    "argobots": "Argobots",
    "pthread": "Pthreads",
    "gomp": "GCC OpenMP (libgomp)",
    "libomp": "LLVM OpenMP (libomp)",
    "tbb": "oneTBB",
}
# suffix of the binary -> implementation
SUFFIX_IMPL = [("_abt", "argobots"), ("_pthread", "pthread"), ("_gomp", "gomp"),
               ("_libomp", "libomp"), ("_tbb", "tbb"), ("", "weft")]


def log(msg=""):
    print(msg, flush=True)


# --------------------------------------------------------------------------- build
def build(args):
    bdir = args.build
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    cmd = ["cmake", "-S", REPO, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
           "-DWEFT_BUILD_BENCH=ON", "-DWEFT_BUILD_TESTS=OFF"] + gen
    cmd.append("-DWEFT_BENCH_ARGOBOTS_PREFIX=" + (args.argobots or ""))
    log("== configure: " + " ".join(cmd))
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in r.stdout.splitlines():
        if "bench:" in line or "Error" in line or "error" in line:
            log("   " + line.strip())
    if r.returncode != 0:
        log(r.stdout[-4000:])
        sys.exit("configure failed")
    jobs = str(os.cpu_count() or 2)
    cmd = ["cmake", "--build", bdir, "--target", "bench", "--parallel", jobs]
    log("== build: " + " ".join(cmd))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        log(r.stdout[-6000:])
        sys.exit("build failed")
    log("   built in %.0f s" % (time.time() - t0))


def binaries(bench_dir, base):
    """[(impl, path)] of the built variants of program `base`."""
    out = []
    for suffix, impl in SUFFIX_IMPL:
        p = os.path.join(bench_dir, base + suffix)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            out.append((impl, p))
    return out


# --------------------------------------------------------------------------- running
class Runner:
    def __init__(self, args, jobs):
        self.args = args
        self.jobs = jobs
        self.results = []
        self.errors = []
        self.done = 0
        self.t_start = time.time()

    def run_all(self):
        total = len(self.jobs)
        for job in self.jobs:
            self.done += 1
            label = "[%2d/%d] %-10s %-9s %s" % (self.done, total, job["bench"], job["impl"],
                                                job.get("what", ""))
            print(label.ljust(62), end="", flush=True)
            t0 = time.time()
            try:
                out = job["fn"](job) if "fn" in job else self.run_json(job)
                ok = "ok"
            except Exception as e:  # keep going: one failing program must not stop the run
                out = []
                ok = "FAILED: %s" % str(e).splitlines()[0][:80] if str(e) else "FAILED"
                self.errors.append({"job": label.strip(), "error": str(e)[-2000:]})
            self.results.extend(out)
            el = time.time() - t0
            total_el = time.time() - self.t_start
            print("%6.1f s  (total %4.0f s)  %s" % (el, total_el, ok), flush=True)

    def run_json(self, job):
        r = subprocess.run(job["cmd"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=job.get("timeout", self.args.timeout),
                           env=job.get("env"))
        if r.returncode != 0:
            raise RuntimeError("exit %d: %s" % (r.returncode, r.stderr.strip()[-500:]))
        out = []
        for line in r.stdout.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            rec["impl"] = job.get("impl_override", {}).get(rec.get("kind"), job["impl"])
            s = rec.get("samples", [])
            if s:
                rec["median"] = statistics.median(s)
                rec["min"] = min(s)
                rec["max"] = max(s)
            out.append(rec)
        if not out:
            raise RuntimeError("no result lines; stderr: " + r.stderr.strip()[-300:])
        return out


def callgrind_ir(cmd, timeout):
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("valgrind exit %d: %s" % (r.returncode, r.stderr[-400:]))
    m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if not m:
        raise RuntimeError("no 'Collected' line in callgrind output")
    return int(m.group(1))


def make_jobs(args, bench_dir):
    q = args.quick
    rep = str(args.repeats)
    ms = str(args.sample_ms)
    common = ["--json", "--repeats", rep, "--sample-ms", ms]
    jobs = []
    only = set(args.only.split(",")) if args.only else set(ALL_BENCHES)
    have_weft = os.path.isfile(os.path.join(bench_dir, "fork_join"))

    if "fork_join" in only:
        for impl, path in binaries(bench_dir, "fork_join"):
            if impl not in ("weft", "argobots"):
                continue  # the task twins are run below
            cmd = [path] + common + ["--n", "256,4096", "--streams", "1,2"]
            job = {"bench": "fork_join", "impl": impl, "cmd": cmd}
            if impl == "weft":
                job["what"] = "ULT, tasklet, pthread"
                job["impl_override"] = {"pthread": "pthread"}
            elif impl == "argobots":
                if have_weft:
                    cmd += ["--kinds", "ult,tasklet"]
                    job["what"] = "ULT, tasklet"
                else:
                    job["impl_override"] = {"pthread": "pthread"}
            jobs.append(job)
        for impl in ("gomp", "libomp", "tbb"):
            p = os.path.join(bench_dir, "fork_join_" + impl)
            if os.path.isfile(p):
                jobs.append({"bench": "fork_join", "impl": impl, "what": "tasks",
                             "cmd": [p] + common + ["--n", "256,4096", "--streams", "1,2"]})
        # private-pool variant (1 stream), weft and Argobots
        for impl, path in binaries(bench_dir, "fork_join"):
            if impl in ("weft", "argobots"):
                jobs.append({"bench": "fork_join", "impl": impl, "what": "private pool",
                             "cmd": [path] + common + ["--n", "256,4096", "--streams", "1",
                                                       "--pool", "priv",
                                                       "--kinds", "ult,tasklet"]})

    if "yield" in only:
        for impl, path in binaries(bench_dir, "yield"):
            if impl in ("weft", "argobots"):
                jobs.append({"bench": "yield", "impl": impl, "what": "yield, yield_to",
                             "cmd": [path] + common + ["--streams", "1,2"]})
                jobs.append({"bench": "yield", "impl": impl, "what": "private pool",
                             "cmd": [path] + common + ["--pool", "priv"]})
        for impl in ("pthread", "gomp", "libomp"):
            p = os.path.join(bench_dir, "yield_" + impl)
            if os.path.isfile(p):
                jobs.append({"bench": "yield", "impl": impl,
                             "cmd": [p] + common + ["--streams", "1,2"]})

    if "join_many" in only:
        for impl, path in binaries(bench_dir, "join_many"):
            jobs.append({"bench": "join_many", "impl": impl,
                         "cmd": [path] + common + ["--n", "256,4096"]})

    dlist = "0,10,50,100" if q else "0,1,5,10,25,50,100"
    if "deviation" in only:
        for impl, path in binaries(bench_dir, "deviation"):
            d = "0" if impl == "tbb" else dlist
            if impl == "pthread" and q:
                d = "0,100"
            jobs.append({"bench": "deviation", "impl": impl, "what": "N=4096, D=" + d,
                         "cmd": [path] + common + ["--n", "4096", "--d", d]})

    if "memory" in only:
        mem_d = [0, 10, 50, 100] if q else [0, 1, 5, 10, 25, 50, 100]
        for impl, path in binaries(bench_dir, "deviation"):
            for d in mem_d:
                if impl == "tbb" and d != 0:
                    continue
                if impl == "pthread" and q and d != 0:
                    continue
                jobs.append({"bench": "memory", "impl": impl, "what": "N=65536, D=%d" % d,
                             "cmd": [path, "--json", "--memory", "--n", "65536",
                                     "--d", str(d)]})

    if "patterns" in only:
        th = args.threads
        for impl, path in binaries(bench_dir, "patterns"):
            cmd = [path] + ["--json", "--repeats", rep, "--sample-ms", str(args.sample_ms * 2),
                            "--threads", th]
            jobs.append({"bench": "patterns", "impl": impl, "what": "T=" + th, "cmd": cmd})

    if "recursive" in only:
        # fib, N-Queens and a UTS-like tree on 1 and 2 streams (a pool per stream, RANDWS),
        # the library's default technique; bench/README.md has the per-technique table
        for impl, path in binaries(bench_dir, "recursive"):
            jobs.append({"bench": "recursive", "impl": impl, "what": "fib, nqueens, uts",
                         "cmd": [path, "--json", "--repeats", rep]})

    if "sync" in only:
        for impl, path in binaries(bench_dir, "sync"):
            cmd = [path] + common
            job = {"bench": "sync", "impl": impl, "cmd": cmd, "what": "mutex, cond, ..."}
            if impl == "argobots" and have_weft:
                cmd += ["--kinds", "ult"]  # the Pthreads column comes from the weft run
            else:
                job["impl_override"] = {"pthread": "pthread"}
                job["what"] += " and pthread"
            jobs.append(job)

    if "callgrind" in only and shutil.which("valgrind"):
        for impl, path in binaries(bench_dir, "fork_join"):
            if impl not in ("weft", "argobots"):
                continue
            for kind in ("ult", "tasklet"):
                # caller's default pool, explicit join then free
                jobs.append(cg_job(impl, "fork_join", kind, "create+join+free", path,
                                   lambda it, p=path, k=kind: [p, "--callgrind", k, "--n", "256",
                                                               "--iters", str(it)],
                                   (10, 30), 256, args))
                # private pool, free joins implicitly (the setting of the reference figures)
                if q:
                    continue
                jobs.append(cg_job(impl, "fork_join", kind, "create+free (priv pool)", path,
                                   lambda it, p=path, k=kind: [p, "--callgrind", k, "--n", "256",
                                                               "--iters", str(it), "--pool",
                                                               "priv", "--free-only"],
                                   (10, 30), 256, args, variant="priv_free_only"))
        for impl, path in binaries(bench_dir, "yield"):
            if impl not in ("weft", "argobots"):
                continue
            for op in ("yield", "yield_to"):
                jobs.append(cg_job(impl, "yield", op, op, path,
                                   lambda it, p=path, o=op: [p, "--callgrind", o, "--iters",
                                                             str(it)],
                                   (1000, 11000), 2, args))
                if q:
                    continue
                jobs.append(cg_job(impl, "yield", op, op + " (priv pool)", path,
                                   lambda it, p=path, o=op: [p, "--callgrind", o, "--iters",
                                                             str(it), "--pool", "priv"],
                                   (1000, 11000), 2, args, variant="priv"))
        for impl, path in binaries(bench_dir, "join_many"):
            if impl not in ("weft", "argobots") or q:
                continue
            for v in ("loop", "many"):
                jobs.append(cg_job(impl, "join_many", v, "create+join+free", path,
                                   lambda it, p=path, vv=v: [p, "--callgrind", vv, "--n", "256",
                                                             "--iters", str(it)],
                                   (10, 30), 256, args))
    elif "callgrind" in only:
        log("   (valgrind not found: instruction counts skipped)")
    return jobs


def cg_job(impl, prog, kind, op, path, cmd_for, iters, units_per_iter, args,
           variant="default"):
    """A callgrind job: Ir at two iteration counts, difference per operation."""
    def fn(job):
        i1, i2 = iters
        ir1 = callgrind_ir(cmd_for(i1), args.timeout)
        ir2 = callgrind_ir(cmd_for(i2), args.timeout)
        per = (ir2 - ir1) / float((i2 - i1) * units_per_iter)
        return [{"bench": "callgrind", "impl": impl, "program": prog, "kind": kind,
                 "op": op, "variant": variant, "n": 256 if prog != "yield" else None,
                 "iters": [i1, i2], "ir": [ir1, ir2], "metric": "instructions",
                 "unit": "Ir_per_op", "samples": [per], "median": per, "min": per, "max": per}]
    return {"bench": "callgrind", "impl": impl, "fn": fn,
            "what": "%s %s%s" % (prog, kind, "" if variant == "default" else " " + variant)}


# --------------------------------------------------------------------------- output
CONFIG_KEYS = ["kind", "op", "variant", "pattern", "n", "streams", "mode", "pool", "d",
               "threads", "program", "created"]


def write_outputs(args, results, errors, meta):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": results, "errors": errors}, f, indent=1)
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["bench", "impl"] + CONFIG_KEYS + ["metric", "unit", "median", "min", "max",
                                                      "samples"])
        for r in results:
            w.writerow([r.get("bench"), r.get("impl")] + [r.get(k, "") for k in CONFIG_KEYS] +
                       [r.get("metric"), r.get("unit"), fmt(r.get("median")), fmt(r.get("min")),
                        fmt(r.get("max")), len(r.get("samples", []))])


def fmt(x):
    return "" if x is None else ("%.3f" % x)


def find(results, **kw):
    out = []
    for r in results:
        if all(r.get(k) == v for k, v in kw.items()):
            out.append(r)
    return out


def one(results, **kw):
    f = find(results, **kw)
    return f[0] if f else None


def med(results, **kw):
    r = one(results, **kw)
    return None if r is None else r["median"]


def cell(v, unit=""):
    if v is None:
        return "–"
    if v >= 1000:
        return "{:,.0f}{}".format(v, unit)
    if v >= 100:
        return "%.0f%s" % (v, unit)
    return "%.1f%s" % (v, unit)


def summary_md(args, results, meta):
    L = []
    L.append("Machine: %s, %s CPUs, Linux %s; %s. Command: `%s`." % (
        meta["cpu"], meta["cpus"], meta["kernel"], meta["date"], meta["command"]))
    L.append("")
    # fork-join
    impls = [i for i in ("weft", "argobots") if find(results, impl=i)]
    if find(results, bench="fork_join"):
        L += fork_join_md(args, results, impls)
    if find(results, bench="yield"):
        L += yield_md(results, impls)
    L += rest_md(results, impls)
    if find(results, bench="recursive"):
        L += recursive_md(results)
    if find(results, bench="sync"):
        L += sync_md(results)
    return "\n".join(L)


def recursive_md(results):
    rimpls = [i for i in ("weft", "argobots") if find(results, bench="recursive", impl=i)]
    L = []
    L.append("**Recursive divide-and-conquer (bench/abt/recursive.c, default technique, a pool "
             "per stream under RANDWS), ms per execution on 1 / 2 streams, and the speedup**")
    L.append("")
    L.append("| program | " + " | ".join(IMPL_LABEL[i] for i in rimpls) + " |")
    L.append("|---|" + "---:|" * len(rimpls))
    for prog in ("fib", "nqueens", "uts"):
        cells = []
        for i in rimpls:
            one_s = med(results, bench="recursive", impl=i, program=prog, streams=1)
            two_s = med(results, bench="recursive", impl=i, program=prog, streams=2)
            if one_s is None or two_s is None:
                cells.append(cell(None))
            else:
                cells.append("%s / %s (%.2fx)" % (cell(one_s), cell(two_s), one_s / two_s))
        L.append("| %s | " % prog + " | ".join(cells) + " |")
    L.append("")
    return L


def sync_md(results):
    simpls = [i for i in ("weft", "argobots", "pthread") if find(results, bench="sync", impl=i)]
    L = []
    L.append("**Synchronization objects (bench/sync), ns per operation; Pthreads between OS "
             "threads**")
    L.append("")
    L.append("| operation | " + " | ".join(IMPL_LABEL[i] for i in simpls) + " |")
    L.append("|---|" + "---:|" * len(simpls))
    for op, label in SYNC_OPS:
        vals = [med(results, bench="sync", impl=i, op=op) for i in simpls]
        if any(v is not None for v in vals):
            L.append("| %s | " % label + " | ".join(cell(v) for v in vals) + " |")
    L.append("")
    return L


def fork_join_md(args, results, impls):
    L = []
    L.append("**Fork-join, ns per unit (create + join + free), median of %d samples**" %
             args.repeats)
    L.append("")
    hdr = "| N | streams |"
    sep = "|---|---|"
    cols = []
    for i in impls:
        for k in ("ult", "tasklet"):
            cols.append((i, k))
            hdr += " %s %s |" % (IMPL_LABEL[i], "ULT" if k == "ult" else "tasklet")
            sep += "---:|"
    for i in ("gomp", "libomp", "tbb"):
        if find(results, bench="fork_join", impl=i):
            cols.append((i, "task"))
            hdr += " %s task |" % IMPL_LABEL[i]
            sep += "---:|"
    cols.append(("pthread", "pthread"))
    hdr += " pthread |"
    sep += "---:|"
    L += [hdr, sep]
    for streams, mode, label, pool in ((1, "-", "1", "default"),
                                       (1, "-", "1, private pool", "priv"),
                                       (2, "one", "2, one creator", "default"),
                                       (2, "each", "2, each forks", "default")):
        if not find(results, bench="fork_join", pool=pool, streams=streams, mode=mode):
            continue
        for n in (256, 4096):
            row = "| %d | %s |" % (n, label)
            for impl, kind in cols:
                kw = dict(bench="fork_join", impl=impl, kind=kind, n=n, streams=streams,
                          mode=mode, metric="total")
                if impl in ("weft", "argobots", "pthread"):
                    kw["pool"] = pool
                elif pool != "default":
                    row += " |"
                    continue
                row += " %s |" % cell(med(results, **kw))
            L.append(row)
    L.append("")
    return L


def yield_md(results, impls):
    L = []
    L.append("**Yield, ns per yield (ping-pong of two ULTs on a stream)**")
    L.append("")
    L.append("| op | streams | " + " | ".join(IMPL_LABEL[i] for i in impls) + " |")
    L.append("|---|---|" + "---:|" * len(impls))
    for op in ("yield", "yield_to"):
        for s, pool, label in ((1, "default", "1"), (2, "default", "2"),
                               (1, "priv", "1, private pool")):
            L.append("| %s | %s | " % (op, label) + " | ".join(
                cell(med(results, bench="yield", impl=i, op=op, streams=s, pool=pool))
                for i in impls) + " |")
    pt = [med(results, bench="yield", impl="pthread", streams=s) for s in (1, 2)]
    if pt[0] is not None:
        L.append("| sched_yield (Pthreads) | 1 / 2 | %s / %s |" % (cell(pt[0]), cell(pt[1])) +
                 " |" * (len(impls) - 1))
    L.append("")
    return L


def rest_md(results, impls):
    L = []
    cg = find(results, bench="callgrind")
    if cg:
        L.append("**Instructions per operation (callgrind, difference of two iteration counts, "
                 "1 stream, N = 256)**")
        L.append("")
        L.append("| operation | " + " | ".join(IMPL_LABEL[i] for i in impls) + " |")
        L.append("|---|" + "---:|" * len(impls))
        for prog, kind, var, label in (
                ("fork_join", "ult", "default", "ULT create + join + free"),
                ("fork_join", "tasklet", "default", "tasklet create + join + free"),
                ("fork_join", "ult", "priv_free_only", "ULT create + free, private pool"),
                ("fork_join", "tasklet", "priv_free_only", "tasklet create + free, private pool"),
                ("yield", "yield", "default", "yield (per call)"),
                ("yield", "yield_to", "default", "yield_to (per call)"),
                ("yield", "yield", "priv", "yield (per call), private pool"),
                ("yield", "yield_to", "priv", "yield_to (per call), private pool"),
                ("join_many", "loop", "default", "ULT create + join + free (join_many bench)"),
                ("join_many", "many", "default", "ULT create + join_many + free_many")):
            vals = [med(results, bench="callgrind", impl=i, program=prog, kind=kind,
                        variant=var) for i in impls]
            if any(v is not None for v in vals):
                L.append("| %s | " % label + " | ".join(cell(v) for v in vals) + " |")
        L.append("")
    # deviation + memory
    dimpls = [i for i in ("weft", "argobots", "gomp", "libomp", "tbb", "pthread")
              if find(results, bench="deviation", impl=i)]
    if dimpls:
        L.append("**Deviation microbenchmark: ns per fork-join, N = 4096; peak RSS at N = "
                 "65536 (MiB)**")
        L.append("")
        L.append("| D | " + " | ".join("%s ns" % IMPL_LABEL[i] for i in dimpls) + " | " +
                 " | ".join("%s MiB" % IMPL_LABEL[i] for i in dimpls) + " |")
        L.append("|---|" + "---:|" * (2 * len(dimpls)))
        for d in (0, 1, 5, 10, 25, 50, 100):
            row = "| %d %% |" % d
            for i in dimpls:
                row += " %s |" % cell(med(results, bench="deviation", impl=i, d=d))
            for i in dimpls:
                m = med(results, bench="deviation_memory", impl=i, d=d, metric="maxrss")
                row += " %s |" % cell(None if m is None else m / 1024.0)
            L.append(row)
        L.append("")
    # patterns
    pimpl = [("weft", "ult"), ("weft", "tasklet"), ("argobots", "ult"), ("argobots", "tasklet"),
             ("gomp", "omp"), ("libomp", "omp"), ("tbb", "tbb"), ("pthread", "pthread")]
    pimpl = [p for p in pimpl if find(results, bench="patterns", impl=p[0], kind=p[1])]
    if pimpl:
        ths = sorted({r["threads"] for r in find(results, bench="patterns")})
        L.append("**OpenMP code patterns with scal (1,000 elements; nested 1,000 x 1,000), us "
                 "per execution**")
        L.append("")
        L.append("| pattern | T | " + " | ".join(
            IMPL_LABEL[i] + ("" if k not in ("ult", "tasklet") else " " + k.replace("ult", "ULT"))
            for i, k in pimpl) + " |")
        L.append("|---|---|" + "---:|" * len(pimpl))
        for p in ("for", "task_single", "task_parallel", "nested"):
            for t in ths:
                L.append("| %s | %d | " % (p, t) + " | ".join(
                    cell(med(results, bench="patterns", impl=i, kind=k, pattern=p, threads=t))
                    for i, k in pimpl) + " |")
        L.append("")
    return L


# --------------------------------------------------------------------------- plots
COLORS = {"weft": "#d62728", "argobots": "#1f77b4", "pthread": "#7f7f7f", "gomp": "#2ca02c",
          "libomp": "#9467bd", "tbb": "#ff7f0e"}


def plots(args, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        log("   (matplotlib not available: %s; no plots. Install python3-matplotlib and run "
            "with /usr/bin/python3)" % e)
        return []
    out = []

    def save(fig, name):
        p = os.path.join(args.out, name)
        fig.tight_layout()
        fig.savefig(p, dpi=110)
        plt.close(fig)
        out.append(p)

    def err(r):
        return [[r["median"] - r["min"]], [r["max"] - r["median"]]]

    # ---- fork-join vs N and streams (Argobots Fig. 6 / Fig. 2) ----
    series = []
    for impl in ("weft", "argobots"):
        for kind in ("ult", "tasklet"):
            if find(results, bench="fork_join", impl=impl, kind=kind, pool="default"):
                series.append((impl, kind, "%s %s" % (IMPL_LABEL[impl],
                                                      "ULT" if kind == "ult" else "tasklet")))
    for impl in ("gomp", "libomp", "tbb"):
        if find(results, bench="fork_join", impl=impl):
            series.append((impl, "task", IMPL_LABEL[impl] + " task"))
    if find(results, bench="fork_join", impl="pthread"):
        series.append(("pthread", "pthread", "Pthreads"))
    configs = [(1, "-", "1 stream"), (2, "one", "2 streams\none creator"),
               (2, "each", "2 streams\neach forks")]
    if series:
        lows = [r["min"] for r in find(results, bench="fork_join", metric="total")]
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
        for ax, n in zip(axes, (256, 4096)):
            w = 0.8 / len(series)
            for si, (impl, kind, label) in enumerate(series):
                xs, ys, es = [], [], [[], []]
                for ci, (s, mode, _) in enumerate(configs):
                    kw = dict(bench="fork_join", impl=impl, kind=kind, n=n, streams=s, mode=mode,
                              metric="total")
                    if impl in ("weft", "argobots"):
                        kw["pool"] = "default"
                    r = one(results, **kw)
                    if r:
                        xs.append(ci + si * w - 0.4 + w / 2)
                        ys.append(r["median"])
                        e = err(r)
                        es[0].append(e[0][0])
                        es[1].append(e[1][0])
                if xs:
                    hatch = "//" if kind == "tasklet" else None
                    ax.bar(xs, ys, w, yerr=es, label=label, color=COLORS[impl], hatch=hatch,
                           alpha=0.85 if kind != "tasklet" else 0.55, edgecolor="black",
                           linewidth=0.4, capsize=2)
            ax.set_xticks(range(len(configs)))
            ax.set_xticklabels([c[2] for c in configs])
            ax.set_yscale("log")
            if lows:
                ax.set_ylim(bottom=min(lows) / 2)
            ax.set_title("fork-join of N = %d empty units" % n)
            ax.grid(axis="y", which="both", alpha=0.3)
        axes[0].set_ylabel("ns per unit (create + join + free), log scale")
        axes[1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        save(fig, "fork_join.png")

        # create / join / free split, 1 stream (Argobots Fig. 2-5)
        sp = [(i, k, l) for i, k, l in series if i in ("weft", "argobots")]
        if sp:
            fig, ax = plt.subplots(figsize=(8, 4.2))
            labels, x = [], 0
            for n in (256, 4096):
                for impl, kind, label in sp:
                    base = 0
                    for ph, col in (("create", "#4c72b0"), ("join", "#dd8452"),
                                    ("free", "#55a868")):
                        v = med(results, bench="fork_join", impl=impl, kind=kind, n=n, streams=1,
                                metric=ph, pool="default") or 0
                        ax.bar(x, v, 0.7, bottom=base, color=col,
                               label=ph if x == 0 else None, edgecolor="black", linewidth=0.3)
                        base += v
                    labels.append("%s\nN=%d" % (label.replace(" ", "\n", 1), n))
                    x += 1
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels(labels, fontsize=7)
            ax.set_ylabel("ns per unit")
            ax.set_title("create / join / free split, 1 stream")
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
            ax.grid(axis="y", alpha=0.3)
            save(fig, "fork_join_split.png")

    # ---- yield (Argobots Fig. 8) ----
    ys = []
    for impl in ("weft", "argobots"):
        for op in ("yield", "yield_to"):
            if find(results, bench="yield", impl=impl, op=op, pool="default"):
                ys.append((impl, op, "%s %s" % (IMPL_LABEL[impl], op)))
    for impl, op, label in (("pthread", "sched_yield", "Pthreads sched_yield"),
                            ("gomp", "taskyield", "libgomp taskyield (no switch)"),
                            ("libomp", "taskyield", "libomp taskyield (no switch)")):
        if find(results, bench="yield", impl=impl, op=op):
            ys.append((impl, op, label))
    if ys:
        fig, ax = plt.subplots(figsize=(9, 4.2))
        w = 0.8 / len(ys)
        for si, (impl, op, label) in enumerate(ys):
            xs_, vs, es = [], [], [[], []]
            for ci, s in enumerate((1, 2)):
                kw = dict(bench="yield", impl=impl, op=op, streams=s)
                if impl in ("weft", "argobots"):
                    kw["pool"] = "default"
                r = one(results, **kw)
                if r:
                    xs_.append(ci + si * w - 0.4 + w / 2)
                    vs.append(r["median"])
                    e = err(r)
                    es[0].append(e[0][0])
                    es[1].append(e[1][0])
            ax.bar(xs_, vs, w, yerr=es, label=label, color=COLORS[impl],
                   hatch="//" if op in ("yield_to", "taskyield") else None,
                   alpha=0.85, edgecolor="black", linewidth=0.4, capsize=2)
        ax.set_xticks([0, 1])
        ax.set_xticklabels(["1 stream", "2 streams"])
        ax.set_yscale("log")
        ax.set_ylim(bottom=min(r["min"] for r in find(results, bench="yield")) / 2)
        ax.set_ylabel("ns per yield, log scale")
        ax.set_title("yield ping-pong between two units of a stream")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.grid(axis="y", which="both", alpha=0.3)
        save(fig, "yield.png")

    # ---- join_many (Argobots Fig. 4) ----
    jm = [i for i in ("weft", "argobots") if find(results, bench="join_many", impl=i)]
    if jm:
        fig, ax = plt.subplots(figsize=(7, 4))
        labels, x = [], 0
        for n in (256, 4096):
            for impl in jm:
                for v in ("loop", "many"):
                    base = 0
                    for ph, col in (("create", "#4c72b0"), ("join", "#dd8452"),
                                    ("free", "#55a868")):
                        val = med(results, bench="join_many", impl=impl, variant=v, n=n,
                                  metric=ph) or 0
                        ax.bar(x, val, 0.7, bottom=base, color=col,
                               label=ph if x == 0 else None, edgecolor="black", linewidth=0.3)
                        base += val
                    labels.append("%s\n%s\nN=%d" % (IMPL_LABEL[impl], "join" if v == "loop"
                                                    else "join_many", n))
                    x += 1
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("ns per ULT")
        ax.set_title("join loop vs join_many / free_many, 1 stream")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.grid(axis="y", alpha=0.3)
        save(fig, "join_many.png")

    # ---- deviation curve (trade-off paper Fig. 10 / 22) ----
    dv = [i for i in ("weft", "argobots", "gomp", "libomp", "pthread", "tbb")
          if find(results, bench="deviation", impl=i)]
    if dv:
        fig, ax = plt.subplots(figsize=(8, 4.6))
        for impl in dv:
            rs = sorted(find(results, bench="deviation", impl=impl), key=lambda r: r["d"])
            if impl == "tbb" and rs:
                ax.axhline(rs[0]["median"], color=COLORS[impl], linestyle="--",
                           label="oneTBB (run to completion, D = 0 only)")
                continue
            ax.errorbar([r["d"] for r in rs], [r["median"] for r in rs],
                        yerr=[[r["median"] - r["min"] for r in rs],
                              [r["max"] - r["median"] for r in rs]],
                        marker="o", capsize=2, color=COLORS[impl],
                        label=IMPL_LABEL[impl] + (" tasks + taskyield" if impl in ("gomp", "libomp")
                                                  else ""))
        ax.set_xlabel("deviation probability D (%)")
        ax.set_ylabel("ns per fork-join, log scale")
        ax.set_yscale("log")
        ax.set_title("deviation microbenchmark, N = 4096, 1 stream")
        ax.legend(fontsize=8)
        ax.grid(which="both", alpha=0.3)
        save(fig, "deviation.png")

    # ---- memory vs D (trade-off paper Fig. 24) ----
    mv = [i for i in ("weft", "argobots", "gomp", "libomp", "pthread", "tbb")
          if find(results, bench="deviation_memory", impl=i)]
    if mv:
        fig, ax = plt.subplots(figsize=(8, 4.6))
        for impl in mv:
            rs = sorted(find(results, bench="deviation_memory", impl=impl, metric="maxrss"),
                        key=lambda r: r["d"])
            label = IMPL_LABEL[impl]
            created = [r.get("created") for r in rs if r.get("created") not in (None, r["n"])]
            if created:
                label += " (only %d of 65536 created: vm.max_map_count)" % min(created)
            if impl == "tbb":
                ax.axhline(rs[0]["median"] / 1024.0, color=COLORS[impl], linestyle="--",
                           label=label + " (D = 0 only)")
                continue
            ax.plot([r["d"] for r in rs], [r["median"] / 1024.0 for r in rs], marker="o",
                    color=COLORS[impl], label=label)
        ax.set_xlabel("deviation probability D (%)")
        ax.set_ylabel("peak RSS (MiB), log scale")
        ax.set_yscale("log")
        ax.set_title("memory footprint, N = 65,536 units (ru_maxrss)")
        ax.legend(fontsize=8)
        ax.grid(which="both", alpha=0.3)
        save(fig, "memory.png")

    # ---- OpenMP patterns vs threads (threading-libraries paper Fig. 10-13) ----
    pimpl = [("weft", "ult", "weft ULT"), ("weft", "tasklet", "weft tasklet"),
             ("argobots", "ult", "Argobots ULT"), ("argobots", "tasklet", "Argobots tasklet"),
             ("gomp", "omp", IMPL_LABEL["gomp"]), ("libomp", "omp", IMPL_LABEL["libomp"]),
             ("tbb", "tbb", "oneTBB"), ("pthread", "pthread", "Pthreads")]
    pimpl = [p for p in pimpl if find(results, bench="patterns", impl=p[0], kind=p[1])]
    if pimpl:
        fig, axes = plt.subplots(2, 2, figsize=(12, 8))
        titles = {"for": "for loop (Fig. 10)", "task_single": "tasks, single region (Fig. 11)",
                  "task_parallel": "tasks, parallel region (Fig. 12)",
                  "nested": "nested parallel for 1,000 x 1,000 (Fig. 13)"}
        for ax, p in zip(axes.flat, ("for", "task_single", "task_parallel", "nested")):
            for impl, kind, label in pimpl:
                rs = sorted(find(results, bench="patterns", impl=impl, kind=kind, pattern=p),
                            key=lambda r: r["threads"])
                if not rs:
                    continue
                ax.errorbar([r["threads"] for r in rs], [r["median"] for r in rs],
                            yerr=[[r["median"] - r["min"] for r in rs],
                                  [r["max"] - r["median"] for r in rs]],
                            marker="s" if kind == "tasklet" else "o", capsize=2,
                            color=COLORS[impl], linestyle="--" if kind == "tasklet" else "-",
                            label=label)
            ax.set_title(titles[p])
            ax.set_xlabel("threads / execution streams")
            ax.set_ylabel("us per execution, log scale")
            ax.set_yscale("log")
            ths = sorted({r["threads"] for r in find(results, bench="patterns")})
            ax.set_xticks(ths)
            ax.grid(which="both", alpha=0.3)
        axes[0][0].legend(fontsize=7)
        save(fig, "patterns.png")
    return out


# --------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short run (under a minute)")
    ap.add_argument("--argobots", default=os.environ.get("WEFT_BENCH_ARGOBOTS_PREFIX", ""),
                    help="prefix of an installed Argobots for the side-by-side twins")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--build", default=os.path.join(REPO, "build-bench"))
    ap.add_argument("--only", default="", help="comma list of: " + ",".join(ALL_BENCHES))
    ap.add_argument("--threads", default="",
                    help="thread counts of the OpenMP patterns (default 1..CPUs, at most 4)")
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--sample-ms", type=float, default=0)
    ap.add_argument("--timeout", type=int, default=0, help="per program, seconds")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--replot", action="store_true",
                    help="only redraw the figures and summary.md from OUT/results.json")
    args = ap.parse_args()
    if not args.repeats:
        args.repeats = 3 if args.quick else 15
    if not args.sample_ms:
        args.sample_ms = 2 if args.quick else 20
    if not args.timeout:
        args.timeout = 60 if args.quick else 240
    if not args.threads:
        n = os.cpu_count() or 2
        args.threads = ",".join(str(t) for t in range(1, min(n, 4) + 1))
    if args.argobots:
        args.argobots = os.path.abspath(args.argobots)
    args.out = os.path.abspath(args.out)
    args.build = os.path.abspath(args.build)

    if args.replot:
        with open(os.path.join(args.out, "results.json")) as f:
            data = json.load(f)
        args.repeats = data["meta"].get("repeats", args.repeats)
        md = summary_md(args, data["results"], data["meta"])
        with open(os.path.join(args.out, "summary.md"), "w") as f:
            f.write(md + "\n")
        for p in plots(args, data["results"]):
            log("wrote " + p)
        return

    t0 = time.time()
    if not args.skip_build:
        build(args)
    bench_dir = os.path.join(args.build, "bench")
    if not os.path.isdir(bench_dir):
        sys.exit("no %s: build first (drop --skip-build)" % bench_dir)

    jobs = make_jobs(args, bench_dir)
    impls = sorted({j["impl"] for j in jobs})
    log("== running %d benchmark programs (%s), %d samples of ~%g ms each%s" % (
        len(jobs), ", ".join(impls), args.repeats, args.sample_ms,
        ", quick mode" if args.quick else ""))
    t_run = time.time()
    runner = Runner(args, jobs)
    runner.run_all()

    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    meta = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release(),
        "command": "bench/run.sh " + " ".join(sys.argv[1:]),
        "quick": args.quick, "repeats": args.repeats, "sample_ms": args.sample_ms,
        "argobots_prefix": args.argobots, "threads": args.threads,
        "run_seconds": round(time.time() - t_run, 1),
        "total_seconds": round(time.time() - t0, 1),
        "reference_argobots_perf_callgrind": {"ult": 432, "tasklet": 265, "yield": 166},
    }
    write_outputs(args, runner.results, runner.errors, meta)
    md = summary_md(args, runner.results, meta)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(md + "\n")
    pngs = [] if args.no_plots else plots(args, runner.results)
    log("")
    log(md)
    log("")
    log("== wrote %s/{results.json,results.csv,summary.md}%s" % (
        args.out, "" if not pngs else " and " + ", ".join(os.path.basename(p) for p in pngs)))
    if runner.errors:
        log("== %d program(s) failed:" % len(runner.errors))
        for e in runner.errors:
            log("   %s: %s" % (e["job"], e["error"].splitlines()[0] if e["error"] else ""))
    log("== run %.0f s, total %.0f s" % (time.time() - t_run, time.time() - t0))


if __name__ == "__main__":
    main()
