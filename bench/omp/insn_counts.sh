#!/bin/sh
# bench/omp/insn_counts.sh BUILD_DIR - instructions the OpenMP runtime spends per explicit
# task in EPCC's task kernel (bench/omp/epcc_omp.c --only task, 2 threads), on libgomp and
# on libweft-omp, counted by valgrind's callgrind: exact and independent of the machine's
# load, unlike the wall-clock figures of run_runtimes.sh.  The figure is GOMP_task's
# inclusive cost minus the task bodies it runs (k_task._omp_fn.1), over the 22,000
# GOMP_task calls of --reps 20000 (20,000 measured + 2,000 warm-up).  Most of these tasks
# run undeferred (both runtimes run a task at once once 64 x threads are queued), so this
# is the cost of the task path without the queue; the deferred path is in the patterns
# of run_runtimes.sh.  OMP_WAIT_POLICY=passive so that no thread spins inside GOMP_task.
set -eu
B=${1:?usage: insn_counts.sh BUILD_DIR}
B=$(cd "$B" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
gcc -O2 -std=gnu11 -fopenmp "$SRC/bench/omp/epcc_omp.c" -o "$OUT/epcc"
for rt in libgomp weft-omp; do
    pre=
    [ $rt = weft-omp ] && pre=$B/libweft-omp.so
    OMP_WAIT_POLICY=passive valgrind --tool=callgrind --trace-children=yes \
        --callgrind-out-file="$OUT/cg.$rt.%p" env LD_PRELOAD="$pre" \
        "$OUT/epcc" --threads 2 --reps 20000 --repeats 1 --only task >/dev/null 2>&1
    f=$(ls "$OUT"/cg.$rt.* | tail -1)
    callgrind_annotate --inclusive=yes "$f" 2>/dev/null | tr -d ',' | awk -v rt=$rt '
        /:GOMP_task( |$)/ && !g { g = $1 }
        /k_task\._omp_fn\.1/ && !b { b = $1 }
        END { printf "%-9s %6.1f instructions per task (GOMP_task inclusive minus task bodies)\n", rt, (g - b) / 22000 }'
done
