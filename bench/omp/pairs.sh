#!/bin/sh
# bench/omp/pairs.sh BUILD_DIR [N] - the Done-when figures of the OpenMP face (EPCC
# parallel, barrier, task; task patterns in a single region and in a parallel region;
# 2 threads) as N pairs (default 40) of back-to-back runs, libgomp then libweft-omp
# (LD_PRELOAD), each pair close in time so that both see the same machine state.  Prints
# per figure both medians and in how many pairs weft-omp was at least as fast, then every
# value sorted (this 2-core VM has a fast and a slow mode, which the sorted values show).
set -eu
B=${1:?usage: pairs.sh BUILD_DIR [N]}
N=${2:-40}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
gcc -O2 -std=gnu11 -fopenmp -I"$SRC/bench/common" "$SRC/bench/omp/patterns_omp.c" \
    -o "$OUT/patterns" -lm
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/epcc_omp.c" -o "$OUT/epcc"
echo "load average before: $(cat /proc/loadavg)"
i=0
while [ $i -lt "$N" ]; do
    i=$((i + 1))
    for rt in libgomp weft-omp; do
        pre=
        [ $rt = weft-omp ] && pre=$B/libweft-omp.so
        LD_PRELOAD=$pre "$OUT/epcc" --threads 2 --reps 20000 --repeats 3 \
            --only parallel,barrier,task | awk -v rt=$rt -v i=$i '{ print i, rt, $1, $2 }'
        LD_PRELOAD=$pre "$OUT/patterns" --patterns task_single,task_parallel --threads 2 \
            --repeats 3 | awk -v rt=$rt -v i=$i '$2 == 2 { print i, rt, $1, $3 }'
    done
done > "$OUT/raw"
echo "load average after:  $(cat /proc/loadavg)"
python3 - "$OUT/raw" <<'PY'
import sys, statistics
d = {}
for line in open(sys.argv[1]):
    i, rt, name, v = line.split()
    d.setdefault(name, {}).setdefault(rt, {})[i] = float(v)
for name, x in d.items():
    g, w = x["libgomp"], x["weft-omp"]
    ks = [k for k in g if k in w]
    wins = sum(1 for k in ks if w[k] <= g[k])
    print("%-14s libgomp median %9.3f  weft-omp median %9.3f  weft-omp <= libgomp in %d of %d pairs"
          % (name, statistics.median(g.values()), statistics.median(w.values()), wins, len(ks)))
for name, x in d.items():
    for rt in ("libgomp", "weft-omp"):
        print("%-14s %-8s %s" % (name, rt, " ".join("%.3f" % v for v in sorted(x[rt].values()))))
PY
