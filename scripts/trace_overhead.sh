#!/usr/bin/env bash
# scripts/trace_overhead.sh [BENCH_DIR] [STREAMS] [REPEATS] - the cost of WEFT_TRACE on a
# run of 10^6 units: bench/fork_join --callgrind ult --n 1000 --iters 1000 --time, run
# alternately without and with WEFT_TRACE (the trace goes to TRACE_DIR, default /tmp),
# REPEATS times each (default 5).  Prints the median time of the rounds (the program's
# work: recording, with the writer thread formatting beside it), of ABT_finalize (which
# writes what the writer has not), of the whole process, and the traced/untraced ratios.
# RUN_PREFIX (e.g. "chrt -f 50") goes before each run: on a machine that other programs
# keep busy, a real-time stream is not preempted by them (the ratio then measures the
# tracer, not the neighbours; the SCHED_IDLE writer still gets only what is left).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build/release/bench}
streams=${2:-1}
reps=${3:-5}
dir=${TRACE_DIR:-/tmp}
read -r -a pre <<<"${RUN_PREFIX:-}"
cmd=(${pre[@]+"${pre[@]}"} "$b/fork_join" --callgrind ult --n 1000 --iters 1000 --streams "$streams" --time)
one() { # prints: rounds_ms finalize_ms wall_ms
  local t0 t1 out
  t0=$(date +%s%N)
  out=$("$@")
  t1=$(date +%s%N)
  echo "$(sed -n 's/.*rounds \([0-9.]*\) ms/\1/p' <<<"$out") $(sed -n 's/.*ABT_finalize \([0-9.]*\) ms/\1/p' <<<"$out") $(((t1 - t0) / 1000000))"
}
off=() on=()
for ((i = 0; i < reps; i++)); do
  off+=("$(one "${cmd[@]}")")
  on+=("$(one env WEFT_TRACE="$dir/weft_trace_overhead.json" "${cmd[@]}")")
done
size=$(stat -c %s "$dir/weft_trace_overhead.json")
rm -f "$dir/weft_trace_overhead.json"
printf '%s\n' "${off[@]}" >/tmp/weft_trace_off.$$
printf '%s\n' "${on[@]}" >/tmp/weft_trace_on.$$
python3 - "$streams" "$reps" "$size" /tmp/weft_trace_off.$$ /tmp/weft_trace_on.$$ "${cmd[*]}" <<'PY'
import statistics, sys
streams, reps, size, f_off, f_on, cmd = sys.argv[1:]
rows = lambda f: [list(map(float, l.split())) for l in open(f) if l.strip()]
off, on = rows(f_off), rows(f_on)
med = lambda rs, i: statistics.median(r[i] for r in rs)
print("10^6 ULTs (fork_join, %s stream%s), median of %s alternating runs; trace %.0f MB" %
      (streams, "s" if streams != "1" else "", reps, int(size) / 1e6))
print("command: %s   [traced: WEFT_TRACE=<file> before it]" % cmd)
print("%-28s %12s %12s %8s" % ("", "untraced", "traced", "ratio"))
for i, name in enumerate(["rounds (the run) ms", "ABT_finalize ms", "whole process ms"]):
    a, b = med(off, i), med(on, i)
    print("%-28s %12.1f %12.1f %7.2fx" % (name, a, b, b / a if a else float("nan")))
PY
rm -f /tmp/weft_trace_off.$$ /tmp/weft_trace_on.$$
