#!/usr/bin/env bash
# bench/pthread/debian_apps.sh - Debian's threaded programs under LD_PRELOAD=libweft-pthread.so
# against themselves on glibc's threads, side by side: each round runs every program once
# natively and once under the preload, in alternating order, on the same input; the
# outputs must be byte-identical, and the table gives the median wall times over the
# rounds and the median of the per-round ratios.  Then pbzip2 -d runs HANGRUNS times under
# the preload with 2 and 4 streams, each bounded by a timeout: a run that does not end in
# time counts as a hang.  Benchmarks are not tests: nothing here fails on timing.
#
#   bench/pthread/debian_apps.sh [BUILD_DIR]      (default build/release)
#     env ROUNDS (5), SIZE_MB (24, the input), STREAMS (2: WEFT_PTHREAD_STREAMS),
#         HANGRUNS (40), OUT (bench/results/<today>-debian-apps.md), LOAD (0: busy
#         processes per CPU started for the whole run, bench/common/load.sh when present)
# Needs pigz, xz-utils, zstd, lbzip2, pbzip2 (apt-get install pigz xz-utils zstd lbzip2 pbzip2);
# a missing program is skipped with one line.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build/release}
LIB=$B/src/pthread/libweft-pthread.so
[ -f "$LIB" ] || { echo "debian_apps: $LIB missing (cmake --build $B --target weft_pthread)" >&2; exit 2; }
LIB=$(realpath "$LIB")
ROUNDS=${ROUNDS:-5}
SIZE_MB=${SIZE_MB:-24}
STREAMS=${STREAMS:-2}
HANGRUNS=${HANGRUNS:-40}
LOAD=${LOAD:-0}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)-debian-apps.md}
work=$(mktemp -d /tmp/weft_apps.XXXXXX)
loadpid=
cleanup() {
  [ -n "$loadpid" ] && kill "$loadpid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
if [ "$LOAD" -gt 0 ] && [ -x bench/common/load.sh ]; then
  bench/common/load.sh "$LOAD" -- sleep 100000 &
  loadpid=$!
fi

# The input: text-like data (words drawn from a fixed list by a fixed LCG), compressible
# about 3:1, the same on every machine.
python3 - "$work/in" "$SIZE_MB" <<'EOF'
import sys
words = ("weft stream pool unit yield join fork spare thread kernel block time slice "
         "queue barrier mutex cond future eventual tasklet scheduler monitor").split()
x, out, n = 12345, [], int(sys.argv[2]) << 20
size = 0
with open(sys.argv[1], "w") as f:
    while size < n:
        line = []
        for _ in range(12):
            x = (x * 1103515245 + 12345) & 0x7fffffff
            line.append(words[x % len(words)] + str(x % 97))
        s = " ".join(line) + "\n"
        f.write(s)
        size += len(s)
EOF

# name | command (reads $work/in or $work/in.<ext>, writes stdout)
progs=(
  "pigz -p4|pigz -p4 -c $work/in"
  "pigz -p4 -d|pigz -p4 -d -c $work/in.gz"
  "xz -T4|xz -T4 -c -3 $work/in"
  "xz -T4 -d|xz -T4 -d -c $work/in.xz"
  "zstd -T4|zstd -T4 -q -c $work/in"
  "zstd -T4 -d|zstd -T4 -q -d -c $work/in.zst"
  "lbzip2 -n4|lbzip2 -n4 -c $work/in"
  "lbzip2 -n4 -d|lbzip2 -n4 -d -c $work/in.bz2"
  "pbzip2 -p4|pbzip2 -p4 -c $work/in"
  "pbzip2 -p4 -d|pbzip2 -p4 -d -c $work/in.pbz2"
  "sort --parallel=4|sort --parallel=4 -S 64M $work/in"
)
# the compressed inputs, made natively
have() { command -v "$1" >/dev/null 2>&1; }
have pigz && pigz -c "$work/in" >"$work/in.gz"
have xz && xz -T4 -3 -c "$work/in" >"$work/in.xz"
have zstd && zstd -q -c "$work/in" >"$work/in.zst"
have lbzip2 && lbzip2 -c "$work/in" >"$work/in.bz2"
have pbzip2 && pbzip2 -c "$work/in" >"$work/in.pbz2"

now() { date +%s.%N; }
run() { # run MODE CMD OUTFILE: its status; the wall seconds go to $work/t
  local t0 t1 rc
  t0=$(now)
  if [ "$1" = weft ]; then
    WEFT_PTHREAD_STREAMS=$STREAMS LD_PRELOAD=$LIB timeout 120 sh -c "$2" >"$3" 2>"$3.err"
  else
    timeout 120 sh -c "$2" >"$3" 2>"$3.err"
  fi
  rc=$?
  t1=$(now)
  echo "$t1 - $t0" | bc -l >"$work/t"
  return $rc
}

declare -A tn tw ratios same
for ((r = 1; r <= ROUNDS; r++)); do
  for p in "${progs[@]}"; do
    name=${p%%|*} cmd=${p#*|}
    have "${name%% *}" || continue
    order=(native weft)
    ((r % 2 == 0)) && order=(weft native)
    for m in "${order[@]}"; do
      run "$m" "$cmd" "$work/out.$m"
      rc=$?
      t=$(cat "$work/t")
      [ "$rc" -eq 0 ] || { echo "debian_apps: $name ($m) exited $rc: $(head -c 300 "$work/out.$m.err")" >&2; t=nan; }
      if [ "$m" = native ]; then tn[$name]+="$t "; a=$t; else tw[$name]+="$t "; b=$t; fi
    done
    if cmp -s "$work/out.native" "$work/out.weft"; then same[$name]=${same[$name]:-yes}; else same[$name]=no; fi
    ratios[$name]+="$(echo "$b / $a" | bc -l 2>/dev/null || echo nan) "
  done
  echo "debian_apps: round $r of $ROUNDS done" >&2
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

hangs() { # hangs STREAMS: pbzip2 -d runs under the preload that did not end within 60 s
  local n=0 i
  for ((i = 0; i < HANGRUNS; i++)); do
    WEFT_PTHREAD_STREAMS=$1 LD_PRELOAD=$LIB timeout 60 pbzip2 -p4 -d -c "$work/in.pbz2" >/dev/null 2>&1
    [ $? -eq 124 ] && n=$((n + 1))
  done
  echo "$n"
}

mkdir -p "$(dirname "$OUT")"
{
  echo "# Debian's threaded programs under libweft-pthread, $(date -u +%Y-%m-%d)"
  echo
  echo "Written by \`bench/pthread/debian_apps.sh\` (the command below): each program natively and under"
  echo "\`LD_PRELOAD=libweft-pthread.so\` with \`WEFT_PTHREAD_STREAMS=$STREAMS\`, alternating, on a ${SIZE_MB} MiB text input."
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); busy processes per CPU: $LOAD."
  echo
  echo '```'
  echo "ROUNDS=$ROUNDS SIZE_MB=$SIZE_MB STREAMS=$STREAMS HANGRUNS=$HANGRUNS LOAD=$LOAD bench/pthread/debian_apps.sh $B"
  echo '```'
  echo
  echo "| program | native s | weft s | weft / native (median of rounds) | same output |"
  echo "|---|---:|---:|---:|---|"
  for p in "${progs[@]}"; do
    name=${p%%|*}
    have "${name%% *}" || { echo "| $name | | | not installed | |"; continue; }
    printf '| %s | %.3f | %.3f | %.2f | %s |\n' "$name" "$(echo "${tn[$name]}" | median)" \
      "$(echo "${tw[$name]}" | median)" "$(echo "${ratios[$name]}" | median)" "${same[$name]}"
  done
  if have pbzip2 && [ "$HANGRUNS" -gt 0 ]; then
    echo
    echo "pbzip2 -p4 -d under the preload, $HANGRUNS runs each (a run over 60 s is a hang):"
    for s in 2 4; do echo "- WEFT_PTHREAD_STREAMS=$s: $(hangs "$s") hangs"; done
  fi
} >"$OUT"
cat "$OUT"
echo "debian_apps: wrote $OUT" >&2
