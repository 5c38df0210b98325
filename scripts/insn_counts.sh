#!/usr/bin/env bash
# scripts/insn_counts.sh [BENCH_DIR] - instructions per operation of weft's hot paths,
# measured with callgrind as the difference of two iteration counts (exact, load-independent).
# BENCH_DIR defaults to build/release/bench (build it with -DWEFT_BUILD_BENCH=ON).
# SUFFIX=_abt measures the Argobots twins of the same benchmarks (configure the build with
# -DWEFT_BENCH_ARGOBOTS_PREFIX=<an installed Argobots>).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build/release/bench}
x=${SUFFIX:-}
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
       sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
per() { # label units_per_iter i1 i2 cmd... (cmd ends with --iters)
  local label=$1 u=$2 i1=$3 i2=$4; shift 4
  local a b; a=$(ir "$@" "$i1"); b=$(ir "$@" "$i2")
  awk -v l="$label" -v a="$a" -v b="$b" -v u="$u" -v i1="$i1" -v i2="$i2" \
      'BEGIN { printf "%-40s %7.1f\n", l, (b - a) / ((i2 - i1) * u) }'
}
per "ULT create+join+free"              256 10 30    "$b/fork_join$x" --callgrind ult --n 256 --iters
per "tasklet create+join+free"          256 10 30    "$b/fork_join$x" --callgrind tasklet --n 256 --iters
per "ULT create+free (free joins)"         256 10 30    "$b/fork_join$x" --callgrind ult --n 256 --free-only --iters
per "tasklet create+free (free joins)"     256 10 30    "$b/fork_join$x" --callgrind tasklet --n 256 --free-only --iters
per "ULT create+free (priv pool)"       256 10 30    "$b/fork_join$x" --callgrind ult --n 256 --pool priv --free-only --iters
per "tasklet create+free (priv pool)"   256 10 30    "$b/fork_join$x" --callgrind tasklet --n 256 --pool priv --free-only --iters
per "yield"                             2 1000 11000 "$b/yield$x" --callgrind yield --iters
per "yield_to"                          2 1000 11000 "$b/yield$x" --callgrind yield_to --iters
per "join_many (many)"                  256 10 30    "$b/join_many$x" --callgrind many --n 256 --iters
per "barrier wait (2 ULTs, 1 stream)"   2 1000 11000 "$b/sync$x" --callgrind barrier --n 2 --iters
per "barrier wait (32 ULTs, 1 stream)"  32 100 1100  "$b/sync$x" --callgrind barrier --n 32 --iters
per "cond round trip (primary ULT, ULT)"  1 1000 11000 "$b/sync$x" --callgrind cond_rt_main --iters
per "cond round trip (2 ULTs, 1 stream)"  1 1000 11000 "$b/sync$x" --callgrind cond_rt --iters
per "cond_signal (no waiter)"           1 1000 11000 "$b/sync$x" --callgrind cond_signal --iters
per "eventual set+wait+reset"           1 1000 11000 "$b/sync$x" --callgrind eventual --iters
per "future set+wait+reset (1)"         1 1000 11000 "$b/sync$x" --callgrind future --iters
