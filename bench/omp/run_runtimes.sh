#!/bin/sh
# bench/omp/run_runtimes.sh BUILD_DIR - run the same gcc -fopenmp binaries on three
# OpenMP runtimes in one run: libgomp (as linked), LLVM libomp (LD_PRELOAD: it exports
# the GOMP ABI) and libweft-omp (LD_PRELOAD).  The binaries are built here, once, by gcc
# (-fopenmp, linked against libgomp):
#   patterns: bench/omp/patterns_omp.c (for, task_single, task_parallel, nested), T=2,
#             OMP_MAX_ACTIVE_LEVELS=2 (so the nested pattern nests);
#   EPCC-style overheads: bench/omp/epcc_omp.c, T=2.
# The runtimes take turns, ROUNDS times (default 5), so that a load change on the machine
# hits all of them alike; the table gives each figure's median over the rounds and the
# ratio libgomp / weft-omp (> 1: weft-omp is faster), then the best round of each (the
# least disturbed by other load).  Raw lines: BUILD_DIR/bench-omp/raw.txt
set -eu
B=${1:?usage: run_runtimes.sh BUILD_DIR}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$B/bench-omp
ROUNDS=${ROUNDS:-5}
mkdir -p "$OUT"
gcc -O2 -std=gnu11 -fopenmp -I"$SRC/bench/common" "$SRC/bench/omp/patterns_omp.c" \
    -o "$OUT/patterns_gcc" -lm
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/epcc_omp.c" -o "$OUT/epcc_gcc"
LIBOMP=$(ls /usr/lib/llvm-*/lib/libomp.so /usr/lib/x86_64-linux-gnu/libomp.so.5 2>/dev/null | head -1 || true)
WEFT=$B/libweft-omp.so
raw=$OUT/raw.txt
: > "$raw"
echo "load average before: $(cat /proc/loadavg)"
r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for rt in libgomp libomp weft-omp; do
        case $rt in
            libgomp) pre= ;;
            libomp) [ -n "$LIBOMP" ] || continue; pre=$LIBOMP ;;
            weft-omp) pre=$WEFT ;;
        esac
        LD_PRELOAD=$pre OMP_MAX_ACTIVE_LEVELS=2 KMP_WARNINGS=0 "$OUT/patterns_gcc" --threads 2 \
            --repeats ${REPEATS:-3} 2>/dev/null |
            awk -v rt=$rt '$2 == 2 && $3 ~ /^[0-9.]+$/ { print rt, "pattern_" $1, $3 }' >> "$raw"
        LD_PRELOAD=$pre KMP_WARNINGS=0 "$OUT/epcc_gcc" --threads 2 --reps ${REPS:-20000} \
            --repeats 3 2>/dev/null | awk -v rt=$rt '{ print rt, "epcc_" $1, $2 }' >> "$raw"
    done
done
echo "load average after:  $(cat /proc/loadavg)"
python3 - "$raw" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    rt, name, v = line.split()
    rows.setdefault(name, {}).setdefault(rt, []).append(float(v))
rts = ["libgomp", "libomp", "weft-omp"]
for label, agg in (("median", statistics.median), ("best", min)):
    print("%-22s %12s %12s %12s %14s" % ("figure (us, %s)" % label, *rts, "libgomp/weft"))
    for name in rows:
        med = {rt: agg(rows[name][rt]) for rt in rts if rt in rows[name]}
        ratio = ""
        if "libgomp" in med and "weft-omp" in med and med["weft-omp"] > 0:
            ratio = "%.2f" % (med["libgomp"] / med["weft-omp"])
        print("%-22s %12s %12s %12s %14s" % (name, *[("%.3f" % med[rt]) if rt in med else "-" for rt in rts], ratio))
    print()
PY
