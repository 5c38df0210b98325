#!/usr/bin/env bash
# bench/deviation_techniques.sh BUILD_DIR [OUT_DIR] - weft's fork-join techniques on the
# deviation microbenchmark (trade-off paper §4.1: Fig. 10/22 ns vs D, Fig. 21 instructions,
# Fig. 24 memory).  Builds nothing: BUILD_DIR is a weft build with the benchmarks
# (-DWEFT_BUILD_BENCH=ON, the default; `cmake --build BUILD_DIR --target deviation`), or its
# bench/ directory.  Writes into OUT_DIR (default bench/figures):
#   deviation_techniques.jsonl  every result (the --json lines of bench/abt/deviation)
#   deviation_techniques.md     the tables
#   deviation_techniques.png    ns per fork-join vs D, one line per technique, one panel
#                               per stream count
# Three steps:
#   1. sweep: deviation --fork all, N = 4096, D = 0,1,5,10,25,50,100 %, 1 and 2 streams
#      (REPEATS samples of SAMPLE_MS each, median);
#   2. callgrind at D = 0, 1 stream, N = 256: instructions per fork-join as the difference
#      of two iteration counts (10 and 30 rounds), the method of scripts/insn_counts.sh;
#   3. memory: N = 65,536, D = 0, one process per technique, peak RSS (VmHWM).
# Environment: REPEATS (default 15), SAMPLE_MS (default 10), TECHS (default all),
# STEPS (default sweep,callgrind,memory), PYTHON (an interpreter with matplotlib).
# About half a minute on a 2-core VM with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '2,19p' "$0"
  exit $(($# < 1))
fi
b=$1
[ -x "$b/deviation" ] || b=$1/bench
if [ ! -x "$b/deviation" ]; then
  echo "deviation_techniques: no deviation program in $1 or $1/bench (build it: cmake --build $1 --target deviation)" >&2
  exit 1
fi
out=${2:-bench/figures}
mkdir -p "$out"
repeats=${REPEATS:-15}
sample_ms=${SAMPLE_MS:-10}
techs=${TECHS:-all}
steps=${STEPS:-sweep,callgrind,memory}
all="full full-l roc roc-l ss ss-l sc c-full c-full-e c-roc c-roc-e tasklet"
[ "$techs" = all ] && list=$all || list=${techs//,/ }
jl=$out/deviation_techniques.jsonl
: >"$jl"

if [[ ,$steps, == *,sweep,* ]]; then
  echo "== sweep: N = 4096, D = 0..100 %, 1 and 2 streams, $repeats x ${sample_ms} ms, techniques: $techs"
  "$b/deviation" --json --fork "$techs" --n 4096 --d 0,1,5,10,25,50,100 --streams 1,2 \
    --repeats "$repeats" --sample-ms "$sample_ms" >>"$jl"
fi

if [[ ,$steps, == *,callgrind,* ]]; then
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "== callgrind: valgrind not found (apt-get install valgrind): skipped"
  else
    echo "== callgrind: instructions per fork-join, D = 0, 1 stream, N = 256, rounds 10 and 30"
    ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
           sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
    for t in $list; do
      if ! "$b/deviation" --callgrind "$t" --n 1 --iters 1 2>/dev/null; then
        echo "   $t: not available"
        echo "{\"bench\":\"deviation_callgrind\",\"fork\":\"$t\",\"available\":false}" >>"$jl"
        continue
      fi
      i1=$(ir "$b/deviation" --callgrind "$t" --n 256 --iters 10)
      i2=$(ir "$b/deviation" --callgrind "$t" --n 256 --iters 30)
      awk -v t="$t" -v a="$i1" -v c="$i2" 'BEGIN {
        v = (c - a) / (20 * 256)
        printf "   %-9s %7.1f instructions per fork-join\n", t, v > "/dev/stderr"
        printf "{\"bench\":\"deviation_callgrind\",\"fork\":\"%s\",\"d\":0,\"n\":256,\"metric\":\"insn\",\"unit\":\"instructions_per_unit\",\"samples\":[%.1f]}\n", t, v
      }' >>"$jl"
    done
  fi
fi

if [[ ,$steps, == *,memory,* ]]; then
  echo "== memory: N = 65536, D = 0, peak RSS per technique (one process each)"
  for t in $list; do
    rc=0
    "$b/deviation" --json --memory --fork "$t" --n 65536 --d 0 >>"$jl" 2>"$out/.dev_mem_err" || rc=$?
    if [ -s "$out/.dev_mem_err" ]; then
      sed 's/^/   /' "$out/.dev_mem_err"
    fi
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
      echo "   $t: exit status $rc"
    fi
  done
  rm -f "$out/.dev_mem_err"
fi

py=${PYTHON:-}
if [ -z "$py" ]; then
  for c in /usr/bin/python3 python3; do
    if "$c" -c 'import matplotlib' >/dev/null 2>&1; then
      py=$c
      break
    fi
  done
fi
if [ -z "$py" ]; then
  echo "== no Python with matplotlib (apt-get install python3-matplotlib): tables only"
  py=python3
fi
"$py" bench/deviation_techniques.py "$jl" "$out"
