#!/usr/bin/env bash
# bench/io/ab.sh - servers side by side at one load point, interleaved rounds: each round
# starts every server in turn, drives it with kv_load and prints its req/s, its CPU per
# request (kv_load -P: /proc/PID/stat, user + system of every thread, over the measured
# window only) and kv_load's own (client and server share the machine's cores: req/s
# follows the sum of the two).  For before/after comparisons
# of a change on a loaded machine (the rounds share the load's ups and downs).
#   bench/io/ab.sh BUILD_DIR NAME=COMMAND... (COMMAND: a server printing 127.0.0.1:PORT)
# Environment: C (connections, default 1000), D (seconds per point, 2), R (rounds, 3),
# N (kv_load -n: answers per point, D then the bound), W (warm-up seconds, 1).  Example, a base build against
# this one and the epoll loop:
#   bench/io/ab.sh build/rel "base=/tmp/base/src/io/kvserver -p 0 -s 2 -q" \
#     "new=build/rel/src/io/kvserver -p 0 -s 2 -q" "epoll=build/rel/bench/io/kv_epoll -p 0"
set -uo pipefail
B=$1
shift
C=${C:-1000} D=${D:-2} R=${R:-3} N=${N:-} W=${W:-1}
ulimit -n "$(ulimit -Hn)"
log=/tmp/weft_ab.$$
trap 'rm -f $log' EXIT
for r in $(seq "$R"); do
  for spec in "$@"; do
    name=${spec%%=*}
    cmd=${spec#*=}
    : >"$log" # emptied here: the background job's own redirection may come after our grep
    $cmd >"$log" 2>&1 &
    sp=$!
    P=""
    for _ in $(seq 50); do
      P=$(grep -o '127.0.0.1:[0-9]*' "$log" 2>/dev/null | cut -d: -f2 || true)
      [ -n "$P" ] && break
      sleep 0.1
    done
    if [ -z "$P" ]; then
      echo "$r $name: did not start" >&2
      kill "$sp" 2>/dev/null
      continue
    fi
    out=$("$B/bench/io/kv_load" -p "$P" -c "$C" -d "$D" -w "$W" -P "$sp" ${N:+-n "$N"})
    kill "$sp"
    wait "$sp" 2>/dev/null
    rps=$(sed -n 's/.*rps=\([0-9]*\).*/\1/p' <<<"$out")
    cpu=$(sed -n 's/.*server_cpu_us_per_req=\([0-9.]*\).*/\1/p' <<<"$out")
    ccpu=$(sed -n 's/.*client_cpu_us_per_req=\([0-9.]*\).*/\1/p' <<<"$out")
    echo "round $r $name conns=$C req/s=${rps:-fail} server_cpu_us_per_req=${cpu:-} client_cpu_us_per_req=${ccpu:-}"
  done
done
