#!/usr/bin/env bash
# scripts/glt_insn_counts.sh [BENCH_DIR] - instructions of GLT on weft against abt.h, with
# callgrind, for the patterns of bench/glt/glt_patterns.c built three ways (library,
# header-only, native abt.h).  As scripts/insn_counts.sh: each figure is the difference of
# two iteration counts (exact, load-independent; init and finalize cancel out), here per
# pattern execution, and per created unit.  One GLT thread (T=1: no idle stream spinning
# under valgrind, so the counts are deterministic).  BENCH_DIR defaults to
# build/release/bench (configure with -DWEFT_BUILD_BENCH=ON and build glt_patterns_*).
# When the build has the Argobots twins (configure with -DWEFT_BENCH_ARGOBOTS_PREFIX=<an
# installed Argobots>), two more columns: the native pattern on Argobots and header-only
# GLT on Argobots (glt.h over Argobots' abt.h), with its overhead over native Argobots.
#   EMPTY=1   the kernel does nothing: only the threading cost remains (the strict test)
#   N=100     vector length (nested: N x N)      M=250  units per ULT of nested_cj
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build/release/bench}/glt
n=${N:-100}
m=${M:-250}
flags=(--threads 1 --n "$n" --m "$m")
[ "${EMPTY:-0}" = 1 ] && flags+=(--empty)
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
       sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
per_exec() { # build pattern kind -> instructions per pattern execution
  local a c
  a=$(ir "$b/glt_patterns_$1" --callgrind "$2" --kinds "$3" "${flags[@]}" --iters 5)
  c=$(ir "$b/glt_patterns_$1" --callgrind "$2" --kinds "$3" "${flags[@]}" --iters 15)
  echo $(( (c - a) / 10 ))
}
units() { # units created per execution with T=1
  case $1 in
    for) echo 1 ;; task_single) echo "$n" ;; task_parallel) echo $((n + 1)) ;;
    nested) echo $((n + 1)) ;; nested_cj) echo $((m + 1)) ;;
  esac
}
argo=0
[ -x "$b/glt_patterns_fast_argobots" ] && [ -x "$b/glt_patterns_abt_argobots" ] && argo=1
printf "%-14s %-8s %12s %12s %8s %12s %8s   %-22s" pattern kind "abt.h" "header-only" "+%" \
       "library" "+%" "Ir/unit abt, fast, lib"
[ $argo = 1 ] && printf " | %12s %12s %8s" "Argobots" "GLT-on-ABT" "+%"
echo
for p in for task_single task_parallel nested nested_cj; do
  for k in ult tasklet; do
    x=$(per_exec abt "$p" "$k"); f=$(per_exec fast "$p" "$k"); l=$(per_exec lib "$p" "$k")
    u=$(units "$p")
    awk -v p="$p" -v k="$k" -v x="$x" -v f="$f" -v l="$l" -v u="$u" 'BEGIN {
      printf "%-14s %-8s %12d %12d %+7.2f%% %12d %+7.2f%%   %6.1f, %6.1f, %6.1f", p, k, x, f,
             100 * (f - x) / x, l, 100 * (l - x) / x, x / u, f / u, l / u }'
    if [ $argo = 1 ]; then
      ax=$(per_exec abt_argobots "$p" "$k"); af=$(per_exec fast_argobots "$p" "$k")
      awk -v x="$ax" -v f="$af" 'BEGIN { printf " | %12d %12d %+7.2f%%", x, f, 100 * (f - x) / x }'
    fi
    echo
  done
done
