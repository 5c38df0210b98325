#!/bin/sh
# bench/common/load.sh - competing busy processes for benchmarks under load.
#
# Sourced by a runner (`. bench/common/load.sh`), it gives two functions:
#   load_start N   start N busy processes per CPU of this process's affinity mask, each
#                  pinned to its CPU (taskset), and install a trap that stops them on
#                  exit, Ctrl-C (INT), TERM and HUP, so an error in the runner never
#                  leaves them spinning;
#   load_stop      stop them (idempotent; the trap calls it).
# N = 0 starts nothing.  A busy process is `sh -c 'while :; do :; done'` under taskset;
# their process ids are kept in LOAD_PIDS, and only those are killed.
# Run directly (`bench/common/load.sh N [SECONDS]`) it loads the machine for SECONDS
# (default: until Ctrl-C).
LOAD_PIDS=

load_stop() {
    if [ -n "$LOAD_PIDS" ]; then
        # shellcheck disable=SC2086
        kill $LOAD_PIDS 2>/dev/null || true
        # shellcheck disable=SC2086
        wait $LOAD_PIDS 2>/dev/null || true
        LOAD_PIDS=
    fi
}

load_cpus() {
    # the CPUs this process may run on, one per line (taskset's list, ranges expanded)
    taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | while IFS=- read -r lo hi; do
        [ -n "$hi" ] || hi=$lo
        i=$lo
        while [ "$i" -le "$hi" ]; do
            echo "$i"
            i=$((i + 1))
        done
    done
}

load_start() {
    n=${1:-0}
    [ "$n" -gt 0 ] 2>/dev/null || return 0
    command -v taskset >/dev/null || { echo "load.sh: taskset (util-linux) is needed" >&2; return 1; }
    trap 'load_stop' EXIT
    trap 'load_stop; trap - INT; kill -INT $$' INT
    trap 'load_stop; exit 143' TERM
    trap 'load_stop; exit 129' HUP
    for cpu in $(load_cpus); do
        k=0
        while [ $k -lt "$n" ]; do
            taskset -c "$cpu" sh -c 'while :; do :; done' &
            LOAD_PIDS="$LOAD_PIDS $!"
            k=$((k + 1))
        done
    done
    sleep 0.2 # let the scheduler spread them before the first measurement
}

case $0 in
    *load.sh)
        set -eu
        load_start "${1:?usage: load.sh N [SECONDS]}"
        echo "load.sh: $1 busy processes per CPU:$LOAD_PIDS"
        if [ -n "${2:-}" ]; then sleep "$2"; else while :; do sleep 3600; done; fi
        ;;
esac
