#!/bin/sh
# bench/omp/run_runtimes.sh [--load N] [--suite standard|load] [--bolt PREFIX] [BUILD_DIR]
# - run the same gcc -fopenmp binaries on several OpenMP runtimes in one run: libgomp
# (as linked), LLVM libomp (LD_PRELOAD: it exports the GOMP ABI; installed with
# `apt-get install libomp-dev`, skipped with a message when absent), libweft-omp
# (LD_PRELOAD), and BOLT (LLVM OpenMP over Argobots) when --bolt gives its installed
# prefix (PREFIX/lib/libomp.so, LD_LIBRARY_PATH=PREFIX/lib).  BUILD_DIR defaults to the
# source tree's build/rel.  The binaries are built here, once, by gcc (-fopenmp, linked
# against libgomp):
#   --suite standard (the default):
#     patterns: bench/omp/patterns_omp.c (for, task_single, task_parallel, nested), T=2,
#               OMP_MAX_ACTIVE_LEVELS=2 (so the nested pattern nests);
#     EPCC-style overheads: bench/omp/epcc_omp.c, T=2.
#     The runtimes take turns, ROUNDS times (default 5), so that a load change on the
#     machine hits all of them alike; the table gives each figure's median over the
#     rounds and the ratio libgomp / weft-omp (> 1: weft-omp is faster), then the best
#     round of each (the least disturbed by other load).
#   --suite load: bench/omp/load_omp.c, issue 35's Done-when figures: a nested 2x2
#     `parallel for` and an empty `parallel` region, T=2, RUNS runs (default 7) of
#     SECONDS_PER_RUN (default 1) seconds each per runtime, every run printed with the
#     load average.
# --load N starts N busy processes pinned on each CPU (bench/common/load.sh) for the
# whole run and stops them at its end, on an error or on Ctrl-C.
# Raw lines: BUILD_DIR/bench-omp/raw.txt
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
LOAD=0
SUITE=standard
BOLT=
B=
while [ $# -gt 0 ]; do
    case $1 in
        --load) LOAD=${2:?--load N}; shift 2 ;;
        --suite) SUITE=${2:?--suite standard|load}; shift 2 ;;
        --bolt) BOLT=${2:?--bolt PREFIX}; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        -*) echo "run_runtimes.sh: unknown option $1" >&2; exit 2 ;;
        *) B=$1; shift ;;
    esac
done
B=${B:-$SRC/build/rel}
B=$(cd "$B" && pwd)
. "$SRC/bench/common/load.sh"
OUT=$B/bench-omp
ROUNDS=${ROUNDS:-5}
mkdir -p "$OUT"
gcc -O2 -std=gnu11 -fopenmp -I"$SRC/bench/common" "$SRC/bench/omp/patterns_omp.c" \
    -o "$OUT/patterns_gcc" -lm
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/epcc_omp.c" -o "$OUT/epcc_gcc"
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/load_omp.c" -o "$OUT/load_gcc"
LIBOMP=$(ls /usr/lib/llvm-*/lib/libomp.so /usr/lib/x86_64-linux-gnu/libomp.so.5 2>/dev/null | head -1 || true)
[ -n "$LIBOMP" ] || echo "LLVM libomp not found (apt-get install libomp-dev): skipped"
RTS="libgomp libomp weft-omp"
if [ -n "$BOLT" ]; then
    [ -f "$BOLT/lib/libomp.so" ] || { echo "no $BOLT/lib/libomp.so (--bolt PREFIX)" >&2; exit 2; }
    RTS="$RTS bolt"
fi
WEFT=${WEFT_OMP_LIB:-$B/libweft-omp.so} # WEFT_OMP_LIB: another copy (a before/after comparison)
raw=$OUT/raw.txt
: > "$raw"
load_start "$LOAD"
[ "$LOAD" -eq 0 ] || echo "load: $LOAD busy processes per CPU ($(echo $LOAD_PIDS | wc -w) in all)"
# run_rt RT CMD...: CMD with RT's library preloaded (libomp, BOLT: without warnings)
run_rt() {
    rt=$1
    shift
    case $rt in
        libgomp) "$@" ;;
        libomp) LD_PRELOAD=$LIBOMP KMP_WARNINGS=0 "$@" ;;
        weft-omp) LD_PRELOAD=$WEFT "$@" ;;
        bolt) LD_PRELOAD=$BOLT/lib/libomp.so LD_LIBRARY_PATH=$BOLT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
            KMP_WARNINGS=0 "$@" ;;
    esac
}
if [ "$SUITE" = load ]; then
    echo "load average before: $(cat /proc/loadavg)"
    for rt in $RTS; do
        [ "$rt" != libomp ] || [ -n "$LIBOMP" ] || continue
        run_rt $rt env OMP_MAX_ACTIVE_LEVELS=2 "$OUT/load_gcc" --threads 2 --runs "${RUNS:-7}" \
            --seconds "${SECONDS_PER_RUN:-1}" 2>/dev/null | while read -r fig run us; do
            echo "$rt $fig $run $us load $(cut -d' ' -f1-3 /proc/loadavg)"
        done | tee -a "$raw"
    done
    echo "load average after:  $(cat /proc/loadavg)"
    python3 - "$raw" <<'PY'
import sys
rows = {}
rts = ["libgomp", "libomp", "weft-omp", "bolt"]
for line in open(sys.argv[1]):
    f = line.split()
    if f[2] == "max":
        rows.setdefault(f[1], {})[f[0]] = float(f[3])
print("%-20s %s" % ("worst run (us)", " ".join("%10s" % rt for rt in rts)))
for fig, v in rows.items():
    print("%-20s %s" % (fig, " ".join("%10s" % ("%.2f" % v[rt] if rt in v else "-") for rt in rts)))
PY
    exit 0
fi
echo "load average before: $(cat /proc/loadavg)"
r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for rt in $RTS; do
        [ "$rt" != libomp ] || [ -n "$LIBOMP" ] || continue
        run_rt $rt env OMP_MAX_ACTIVE_LEVELS=2 "$OUT/patterns_gcc" --threads 2 \
            --repeats ${REPEATS:-3} 2>/dev/null |
            awk -v rt=$rt '$2 == 2 && $3 ~ /^[0-9.]+$/ { print rt, "pattern_" $1, $3 }' >> "$raw"
        run_rt $rt "$OUT/epcc_gcc" --threads 2 --reps ${REPS:-20000} \
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
rts = ["libgomp", "libomp", "weft-omp", "bolt"]
for label, agg in (("median", statistics.median), ("best", min)):
    print("%-22s %12s %12s %12s %12s %14s" % ("figure (us, %s)" % label, *rts, "libgomp/weft"))
    for name in rows:
        med = {rt: agg(rows[name][rt]) for rt in rts if rt in rows[name]}
        ratio = ""
        if "libgomp" in med and "weft-omp" in med and med["weft-omp"] > 0:
            ratio = "%.2f" % (med["libgomp"] / med["weft-omp"])
        print("%-22s %12s %12s %12s %12s %14s" % (name, *[("%.3f" % med[rt]) if rt in med else "-" for rt in rts], ratio))
    print()
PY
