#!/usr/bin/env python3
"""Run bench/pthread/apps_pthread on glibc's Pthreads and under
LD_PRELOAD=libweft-pthread.so side by side (alternating, in one run), check that both
print the same results, and report the median times and their ratio.

  bench/pthread/preload_ratio.py BUILD_DIR [--rounds R] [--programs a,b,c]

BUILD_DIR is a build tree with WEFT_BUILD_BENCH=ON (bench/apps_pthread and
src/pthread/libweft-pthread.so).  Each round runs every program once per mode with
`--repeats 5` (the program's own median of 5); the table shows the median over the
rounds.  Extra environment (WEFT_PTHREAD_STREAMS, ...) passes through to both modes."""
import argparse
import os
import re
import statistics
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("build_dir")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--programs", default="create_join,worker_pool,quicksort")
args = ap.parse_args()

prog = os.path.join(args.build_dir, "bench", "apps_pthread")
lib = os.path.join(args.build_dir, "src", "pthread", "libweft-pthread.so")
for f in (prog, lib):
    if not os.path.exists(f):
        sys.exit(f"missing {f} (configure with -DWEFT_BUILD_BENCH=ON and build apps_pthread "
                 "weft_pthread)")


def run(name, preload):
    env = dict(os.environ)
    if preload:
        env["LD_PRELOAD"] = lib
    p = subprocess.run([prog, name, "--repeats", "5"], env=env, capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"{name} ({'preload' if preload else 'glibc'}) failed: {p.stderr}")
    m = re.search(r"time \S+ ([0-9.]+) ms", p.stderr)
    return p.stdout, float(m.group(1))


print(f"# {prog} {{glibc | LD_PRELOAD={lib}}}, {args.rounds} rounds, "
      f"WEFT_PTHREAD_STREAMS={os.environ.get('WEFT_PTHREAD_STREAMS', '(cores)')}")
print(f"{'program':<12} {'glibc ms':>10} {'weft ms':>10} {'ratio':>8}  output")
ok = True
for name in args.programs.split(","):
    t = {False: [], True: []}
    out = {}
    for r in range(args.rounds):
        for preload in (False, True):
            o, ms = run(name, preload)
            t[preload].append(ms)
            out.setdefault(preload, o)
            if o != out[preload]:
                sys.exit(f"{name}: output changed between rounds")
    g, w = statistics.median(t[False]), statistics.median(t[True])
    same = out[False] == out[True]
    ok &= same
    print(f"{name:<12} {g:>10.3f} {w:>10.3f} {g / w:>7.1f}x  {'same' if same else 'DIFFERENT'}: "
          f"{out[True].strip()}")
sys.exit(0 if ok else 1)
