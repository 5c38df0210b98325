#!/usr/bin/env bash
# bench/io/mc_bench.sh - weft-kvserver against Debian's memcached, side by side in
# interleaved rounds, on loopback (the load generator shares the machine's cores):
#   servers  memcached -t 2; kvserver -t 2; kvserver -t 2 -L (the log on, in /tmp);
#   load     bench/io/mc_load: C connections (1, 100, 1000, 10000), one request in flight
#            each, 90% get / 10% set over 10,000 keys, values of 100 B and 4 KiB;
#   figures  req/s, p50 and p99 latency, server CPU per request (/proc/PID/stat over the
#            measured window), server memory per connection (VmRSS growth / C).
# Each round starts every server afresh for each point, in a rotated order, so that the
# machine's load drifts over all of them alike; the ratios kvserver / memcached are taken
# within a round, and their medians over the rounds are reported.  Benchmarks are not
# tests: nothing here passes or fails on timing.
#
#   bench/io/mc_bench.sh [KVSERVER [MC_LOAD]]
#     KVSERVER  default build/rel/src/io/kvserver;  MC_LOAD  default: built into /tmp
#     env ROUNDS (3), SECS (2, per point), CONNS ("1 100 1000 10000"), SIZES ("100 4096"),
#         OUT (bench/results/<today>-kvserver.md), MEMCACHED (memcached)
set -euo pipefail
cd "$(dirname "$0")/../.."
KV=${1:-build/rel/src/io/kvserver}
LOAD=${2:-}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-2}
CONNS=${CONNS:-"1 100 1000 10000"}
SIZES=${SIZES:-"100 4096"}
OUT=${OUT:-bench/results/$(date -u +%Y-%m-%d)-kvserver.md}
MEMCACHED=${MEMCACHED:-memcached}
command -v "$MEMCACHED" >/dev/null || { echo "mc_bench: memcached missing (apt-get install memcached)" >&2; exit 2; }
[ -x "$KV" ] || { echo "mc_bench: $KV missing (cmake --build build/rel --target kvserver)" >&2; exit 2; }
work=$(mktemp -d /tmp/weft_mcb.XXXXXX)
if [ -z "$LOAD" ]; then
  LOAD=$work/mc_load
  cc -O2 -o "$LOAD" bench/io/mc_load.c -lpthread
fi
pid=
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
hard=$(ulimit -Hn)
nofile=$((hard < 21000 ? hard : 21000))
ulimit -n "$nofile"
maxc=$((nofile - 100))
port=21400
user_opt=()
[ "$(id -u)" -eq 0 ] && user_opt=(-u nobody)

start() { # start NAME: the server, its pid in $pid, listening on $port
  port=$((port + 1))
  case $1 in
    memcached) "$MEMCACHED" -p $port -l 127.0.0.1 -t 2 -c $maxc -m 1024 -U 0 "${user_opt[@]}" &
               ;;
    kvserver) "$KV" -p $port -t 2 -c $maxc -m 1024 -q >/dev/null &
              ;;
    kvserver-L) rm -f "$work/kv.log"
                "$KV" -p $port -t 2 -c $maxc -m 1024 -q -L "$work/kv.log" >/dev/null &
                ;;
  esac
  pid=$!
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "mc_bench: $1 did not listen" >&2
  exit 1
}
stop() { kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; pid=; }

servers=(memcached kvserver kvserver-L)
raw=$work/raw.tsv
: >"$raw"
echo "mc_bench: $ROUNDS rounds x conns {$CONNS} x sizes {$SIZES} x ${#servers[@]} servers, $SECS s each" >&2
for r in $(seq "$ROUNDS"); do
  for c in $CONNS; do
    if [ "$c" -gt "$maxc" ]; then
      echo "mc_bench: $c connections skipped: RLIMIT_NOFILE hard limit $hard" >&2
      continue
    fi
    for s in $SIZES; do
      n=${#servers[@]}
      for i in $(seq 0 $((n - 1))); do
        srv=${servers[$(((i + r + c / 100 + s / 100) % n))]}
        start "$srv"
        line=$("$LOAD" -p $port -c "$c" -d "$SECS" -w 0.5 -t 2 -P "$pid" -s "$s" -k 10000 || true)
        stop
        echo "$r	$c	$s	$srv	$line" >>"$raw"
        echo "  round $r conns $c size $s $srv: $line" >&2
      done
    done
  done
done

load=$(cut -d' ' -f1-3 /proc/loadavg)
cmd="ROUNDS=$ROUNDS SECS=$SECS CONNS=\"$CONNS\" SIZES=\"$SIZES\" bench/io/mc_bench.sh $*"
python3 - "$raw" "$OUT" "$cmd" "$load" "$("$MEMCACHED" -V 2>/dev/null | head -1)" <<'PY'
import re, statistics as st, sys, datetime
raw, out, cmd, load, mcv = sys.argv[1:6]
rows = []
for l in open(raw):
    r, c, s, srv, line = l.rstrip("\n").split("\t", 4)
    kv = dict(re.findall(r"(\w+)=([-\d.]+)", line))
    if "rps" not in kv:
        continue
    rows.append((int(r), int(c), int(s), srv, {k: float(v) for k, v in kv.items()}))
def med(xs):
    xs = [x for x in xs if x is not None]
    return st.median(xs) if xs else float("nan")
pts = sorted({(c, s) for _, c, s, _, _ in rows})
servers = ["memcached", "kvserver", "kvserver-L"]
o = []
o.append("# weft-kvserver against memcached, %s\n" % datetime.date.today().isoformat())
o.append("Written by `bench/io/mc_bench.sh` (the command below); loopback, the load generator "
         "(bench/io/mc_load.c: one request in flight per connection, 90%% get / 10%% set over "
         "10,000 keys, every get a hit, 2 client threads) on the same machine as the server. "
         "Servers: %s `-t 2 -m 1024`, weft-kvserver `-t 2 -m 1024`, and weft-kvserver with "
         "`-L` (a log in /tmp, fdatasync per group commit). Load average at the end: %s "
         "(a shared 2-core machine: the absolute figures are noisy, the ratios within a round "
         "less so).\n" % (mcv or "memcached", load))
o.append("```\n%s\n```\n" % cmd)
o.append("## Medians over the rounds\n")
o.append("| conns | value | server | req/s | p50 us | p99 us | server CPU us/req | server KiB/conn |")
o.append("|---:|---:|---|---:|---:|---:|---:|---:|")
for c, s in pts:
    for srv in servers:
        m = [d for _, cc, ss, sv, d in rows if cc == c and ss == s and sv == srv]
        if not m:
            continue
        g = lambda k: med([d.get(k) for d in m])
        o.append("| %d | %d | %s | %.0f | %.0f | %.0f | %.2f | %.1f |" % (
            c, s, srv, g("rps"), g("p50_us"), g("p99_us"), g("server_cpu_us_per_req"),
            g("server_rss_kib_per_conn")))
o.append("\n## kvserver / memcached, median of the per-round ratios\n")
o.append("| conns | value | req/s ratio | CPU/req ratio | req/s ratio with -L | rounds |")
o.append("|---:|---:|---:|---:|---:|---:|")
verdict = []
for c, s in pts:
    rr, cr, lr, n = [], [], [], 0
    for r in sorted({x[0] for x in rows}):
        get = lambda srv: next((d for rr_, cc, ss, sv, d in rows if rr_ == r and cc == c and ss == s and sv == srv), None)
        m, k, l = get("memcached"), get("kvserver"), get("kvserver-L")
        if m and k and m["rps"] > 0:
            rr.append(k["rps"] / m["rps"])
            if "server_cpu_us_per_req" in m and "server_cpu_us_per_req" in k:
                cr.append(k["server_cpu_us_per_req"] / m["server_cpu_us_per_req"])
            n += 1
        if m and l and m["rps"] > 0:
            lr.append(l["rps"] / m["rps"])
    o.append("| %d | %d | %.2f | %.2f | %.2f | %d |" % (c, s, med(rr), med(cr), med(lr), n))
    if c == 1000:
        verdict.append("- %d connections, %d B values: req/s %.2fx memcached's (goal >= 0.9), "
                       "server CPU per request %.2fx memcached's (goal <= 1): %s." % (
                           c, s, med(rr), med(cr),
                           "met" if med(rr) >= 0.9 and med(cr) <= 1 else "NOT met"))
if verdict:
    o.append("\n## The goal (issue 33: at 1,000 connections, -t 2 against memcached -t 2)\n")
    o += verdict
o.append("\n## Every run\n")
o.append("| round | conns | value | server | mc_load's line |")
o.append("|---:|---:|---:|---|---|")
for l in open(raw):
    r, c, s, srv, line = l.rstrip("\n").split("\t", 4)
    o.append("| %s | %s | %s | %s | `%s` |" % (r, c, s, srv, line))
open(out, "w").write("\n".join(o) + "\n")
print("mc_bench: wrote " + out)
PY
# the plot: a Python 3 with matplotlib (Debian's python3-matplotlib is under /usr/bin)
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import matplotlib' 2>/dev/null; then
    "$py" bench/io/mc_plot.py "$OUT" bench/figures/io_kvserver_memcached.png &&
      echo "mc_bench: wrote bench/figures/io_kvserver_memcached.png"
    break
  fi
done
