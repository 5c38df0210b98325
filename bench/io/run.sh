#!/usr/bin/env bash
# bench/io/run.sh - the I/O benchmarks of bench/io/README.md, loopback only and bounded:
#   kvserver (weft, io_uring and threads backends) vs a thread-per-connection Pthreads server
#   vs a one-thread epoll loop, at 1, 100, 1,000 and 10,000 connections (req/s, p50, p99);
#   the CPU an idle kvserver uses; 4 KiB random preads by 64 ULTs on one stream vs 64
#   Pthreads (page cache, and O_DIRECT).
#   bench/io/run.sh [BUILD_DIR] [SECONDS_PER_POINT]   (default build/bench, 3)
# BUILD_DIR: a Release build with -DWEFT_BUILD_BENCH=ON (targets kvserver kv_load
# kv_threads kv_epoll pread_bench are built here if missing).
# Environment: CONNS (default "1 100 1000 10000"); ROUNDS (default 3): every point is
# measured ROUNDS times, the servers taking turns within each round (interleaved, so a
# change in the machine's load hits them all alike), then the medians are printed;
# REQS: end each load point after that many answers (kv_load -n; SECONDS_PER_POINT is
# then the upper bound), so every server does the same work; WARM (default 1): seconds of
# load after every connection is made and before the measurement.  The server's CPU per
# request is its CPU (user + system, all threads: /proc/PID/stat) over the measured window
# only (kv_load -P), divided by the answers in it.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build/bench}
D=${2:-3}
CONNS=${CONNS:-"1 100 1000 10000"}
ROUNDS=${ROUNDS:-3}
REQS=${REQS:-}
WARM=${WARM:-1}
if [ ! -d "$B" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_BENCH=ON >/dev/null
fi
ninja -C "$B" kvserver kv_load kv_threads kv_epoll pread_bench >/dev/null
ulimit -n "$(ulimit -Hn)"
KV=$B/src/io/kvserver
BI=$B/bench/io

srv_pid=""
start() { # start SERVER ARGS...: sets PORT
  rm -f /tmp/weft_bench_srv.$$
  PORT=""
  "$@" >/tmp/weft_bench_srv.$$ 2>&1 &
  srv_pid=$!
  for _ in $(seq 50); do
    PORT=$(grep -o '127.0.0.1:[0-9]*' /tmp/weft_bench_srv.$$ 2>/dev/null | cut -d: -f2 || true)
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  echo "server did not start: $*" >&2
  exit 1
}
sched_ns() { # the same from schedstat (ns resolution; live threads only)
  local s=0 t
  for t in /proc/$srv_pid/task/*/schedstat; do s=$((s + $(cut -d' ' -f1 "$t" 2>/dev/null || echo 0))); done
  echo $s
}
stop() { kill "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; srv_pid=""; }
trap 'stop; rm -f /tmp/weft_bench_srv.$$ /tmp/weft_bench_rows.$$' EXIT

med() { sort -g | awk '{a[NR]=$1} END{if (NR) print a[int((NR+1)/2)]}'; } # median of stdin
rows=/tmp/weft_bench_rows.$$
: >"$rows"
echo "## kvserver protocol, closed loop (kv_load: 2 client threads, 90% GET), ${D} s per point${REQS:+ (at most; $REQS answers)}, $ROUNDS interleaved rounds"
echo
echo "| round | server | conns | req/s | p50 us | p99 us | errors | server CPU us/req |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for c in $CONNS; do
  for round in $(seq "$ROUNDS"); do
    for s in weft-uring weft-threads pthread-per-conn epoll-1-thread; do
      case $s in
        weft-uring) WEFT_IO_BACKEND=uring start "$KV" -p 0 -s 2 -q ;;
        weft-threads) WEFT_IO_BACKEND=threads start "$KV" -p 0 -s 2 -q ;;
        pthread-per-conn) start "$BI/kv_threads" -p 0 ;;
        epoll-1-thread) start "$BI/kv_epoll" -p 0 ;;
      esac
      r=$("$BI/kv_load" -p "$PORT" -c "$c" -d "$D" -w "$WARM" -P "$srv_pid" ${REQS:+-n "$REQS"} || true)
      stop
      rps=$(sed -n 's/.*rps=\([0-9.]*\).*/\1/p' <<<"$r")
      p50=$(sed -n 's/.*p50_us=\([0-9.]*\).*/\1/p' <<<"$r")
      p99=$(sed -n 's/.*p99_us=\([0-9.]*\).*/\1/p' <<<"$r")
      err=$(sed -n 's/.*errors=\([0-9]*\).*/\1/p' <<<"$r")
      cpu=$(sed -n 's/.*server_cpu_us_per_req=\([0-9.]*\).*/\1/p' <<<"$r")
      echo "| $round | $s | $c | ${rps:-fail} | ${p50:-} | ${p99:-} | ${err:-} | ${cpu:-} |"
      echo "$s $c ${rps:-0} ${cpu:-0}" >>"$rows"
    done
  done
done
echo
echo "Medians over the rounds:"
echo
echo "| server | conns | req/s | server CPU us/req |"
echo "|---|---:|---:|---:|"
for c in $CONNS; do
  for s in weft-uring weft-threads pthread-per-conn epoll-1-thread; do
    m_rps=$(awk -v s=$s -v c=$c '$1 == s && $2 == c {print $3}' "$rows" | med)
    m_cpu=$(awk -v s=$s -v c=$c '$1 == s && $2 == c {print $4}' "$rows" | med)
    echo "| $s | $c | $m_rps | $m_cpu |"
  done
done
rm -f "$rows"

echo
echo "## idle kvserver (2 streams, 100 idle connections): CPU over 5 s (/proc schedstat)"
echo
echo "| backend | CPU ms per second |"
echo "|---|---:|"
for b in uring threads; do
  WEFT_IO_BACKEND=$b start "$KV" -p 0 -s 2 -q
  exec {hold}< <(python3 -c "
import socket,time
s=[socket.create_connection(('127.0.0.1',$PORT)) for _ in range(100)]
time.sleep(7)" 2>/dev/null)
  sleep 1
  t0=$(sched_ns)
  sleep 5
  t1=$(sched_ns)
  echo "| $b | $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b-a)/1e6/5}') |"
  stop
  exec {hold}<&-
done

echo
echo "## 4 KiB random preads on a 256 MiB file, 64 workers, ${D} s, $ROUNDS interleaved rounds"
echo
echo "reads per CPU-second: the process's user + system time (getrusage); on a loaded"
echo "machine one stream and 64 threads get different shares of the CPUs."
echo
echo "| round | workers | file | reads/s | MiB/s | CPU s | reads per CPU-s |"
echo "|---:|---|---|---:|---:|---:|---:|"
for direct in "" "-D"; do
  for round in $(seq "$ROUNDS"); do
    for m in ult pthread; do
      r=$("$BI/pread_bench" -m $m -n 64 -d "$D" $direct)
      rps=$(sed -n 's/.*reads_per_s=\([0-9.]*\).*/\1/p' <<<"$r")
      mib=$(sed -n 's/.*MiB_per_s=\([0-9.]*\).*/\1/p' <<<"$r")
      cs=$(sed -n 's/.* cpu_s=\([0-9.]*\).*/\1/p' <<<"$r")
      rpc=$(sed -n 's/.*reads_per_cpu_s=\([0-9.]*\).*/\1/p' <<<"$r")
      label="64 ULTs on 1 stream (uring)"
      [ $m = pthread ] && label="64 Pthreads"
      echo "| $round | $label | $([ -n "$direct" ] && echo O_DIRECT || echo page cache) | $rps | $mib | $cs | $rpc |"
    done
  done
done
