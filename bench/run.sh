#!/bin/sh
# weft benchmark suite, one command: installs the baseline packages that are
# missing (Debian: clang, libomp-dev, libtbb-dev, valgrind, python3-matplotlib),
# builds everything in Release, runs every benchmark with repeats, and writes
# results.json, results.csv, summary.md and the PNG figures (bench/results/).
#
#   bench/run.sh                          full run (under 10 minutes on 2 cores)
#   bench/run.sh --quick                  short run (about a minute)
#   bench/run.sh --argobots /opt/argobots side by side with an installed Argobots
#   bench/run.sh --help                   all options (bench/run.py)
#
# Set WEFT_BENCH_NO_INSTALL=1 to never call apt-get.
set -e
here=$(cd "$(dirname "$0")" && pwd)

missing=""
command -v clang >/dev/null 2>&1 || missing="$missing clang"
ls /usr/lib/llvm-*/lib/libomp.so >/dev/null 2>&1 || missing="$missing libomp-dev"
[ -e /usr/include/oneapi/tbb.h ] || [ -e /usr/include/tbb/tbb.h ] || missing="$missing libtbb-dev"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || missing="$missing python3-matplotlib"

if [ -n "$missing" ] && [ -z "$WEFT_BENCH_NO_INSTALL" ]; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "== installing:$missing"
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; }; then
            echo "== apt-get failed: the baselines that need$missing are skipped"
        fi
    else
        echo "== missing:$missing (not root or no apt-get): those baselines are skipped"
    fi
fi

py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" "$here/run.py" "$@"
