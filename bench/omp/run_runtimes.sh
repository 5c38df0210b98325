#!/bin/sh
# bench/omp/run_runtimes.sh BUILD_DIR - run the same gcc -fopenmp binaries on three
# OpenMP runtimes in one run: libgomp (as linked), LLVM libomp (LD_PRELOAD: it exports
# the GOMP ABI) and libweft-omp (LD_PRELOAD).  The binaries are built here, once, by gcc
# (-fopenmp, linked against libgomp).  Prints each runtime's figures side by side.
#   patterns: bench/omp/patterns_omp.c (for, task_single, task_parallel, nested),
#             2 threads, OMP_NESTED=true for the nested pattern;
#   EPCC overheads: bench/omp/epcc_omp.c on 2 threads.
set -eu
B=${1:?usage: run_runtimes.sh BUILD_DIR}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$B/bench-omp
mkdir -p "$OUT"
gcc -O2 -std=gnu11 -fopenmp -I"$SRC/bench/common" "$SRC/bench/omp/patterns_omp.c" \
    -o "$OUT/patterns_gcc" -lm
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/epcc_omp.c" -o "$OUT/epcc_gcc"
LIBOMP=$(ls /usr/lib/llvm-*/lib/libomp.so /usr/lib/x86_64-linux-gnu/libomp.so.5 2>/dev/null | head -1 || true)
WEFT=$B/libweft-omp.so
run() { # name preload cmd...
    name=$1; pre=$2; shift 2
    echo "== $name"
    if [ -n "$pre" ]; then LD_PRELOAD=$pre "$@"; else "$@"; fi
}
for rt in libgomp libomp weft-omp; do
    case $rt in
        libgomp) pre= ;;
        libomp) [ -n "$LIBOMP" ] || { echo "== libomp: not installed"; continue; }; pre=$LIBOMP ;;
        weft-omp) pre=$WEFT ;;
    esac
    run "$rt patterns (T=2)" "$pre" env OMP_NESTED=true OMP_MAX_ACTIVE_LEVELS=2 \
        "$OUT/patterns_gcc" --threads 2 --repeats ${REPEATS:-5}
    run "$rt EPCC overheads (T=2)" "$pre" "$OUT/epcc_gcc" --threads 2 --reps ${REPS:-20000}
done
