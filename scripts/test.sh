#!/usr/bin/env bash
# scripts/test.sh - the full test suite, as CI runs it (.ci/run calls this script).
#   1. installs the build dependencies when they are missing (Debian/Ubuntu, as root or
#      through sudo), and for the aarch64 configuration the cross compiler and qemu-user;
#   2. builds and runs ctest in four configurations: Release, AddressSanitizer+UBSan,
#      ThreadSanitizer, and the Release binaries again under valgrind memcheck (the valgrind
#      configuration reconfigures build/release with WEFT_TEST_VALGRIND=ON, which changes
#      only how ctest runs the tests, so nothing is built twice; its logs go to
#      build/valgrind/).  Release runs without the life-cycle checker's tool, as programs
#      run, AddressSanitizer with it (tests/CMakeLists.txt, WEFT_TEST_LIFECYCLE); after Release it
#      installs the package and builds examples/hello.c against it three ways (pkg-config
#      weft, pkg-config argobots, find_package(weft)), and checks that every installed
#      library finds libweft by itself (scripts/check_install.sh: RUNPATH $ORIGIN, the
#      Pthreads preload and a Relic-only program from that prefix, no LD_LIBRARY_PATH);
#   3. cross-builds the context-switch test for AArch64 and runs it under qemu-user
#      (tests/cross/aarch64.sh), skipped with one message when the tools cannot be installed;
#   4. docs: builds the API reference with Doxygen, any warning or a public function without
#      its sections failing, and checks the Markdown documents' links and that they narrate
#      no history (scripts/test_docs.sh, installs doxygen when missing);
#   5. packages: builds the Debian packages with cpack, installs them with apt-get, builds
#      and runs examples/hello.c and examples/consumer against them, purges them (also on
#      failure), and checks the Spack recipe (scripts/test_packages.sh).
#
# Usage: scripts/test.sh [release|asan|tsan|valgrind|aarch64|docs|packages]...
#        (default: all seven)
#
# Build trees go to build/<config>; each configuration's build, ctest and install output is
# logged to build/<config>/{build,ctest,install}.log and shown only when something fails
# (the build error, the output of a failing test).  Tests that skip (exit 77) are listed
# with the reason they print (`SKIP: reason` on stderr).  The script ends with one line per
# configuration and a final "N passed, M failed, K skipped" line, and exits non-zero if
# anything failed.
set -uo pipefail
# (with pipefail, `producer | grep -q` fails when grep exits first and the producer gets
# SIGPIPE: pipes into a test read all their input, `grep ... >/dev/null`)
cd "$(dirname "$0")/.."
root=$(pwd)

configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(release asan tsan valgrind aarch64 docs packages)
for cfg in "${configs[@]}"; do
  case "$cfg" in
    release | asan | tsan | valgrind | aarch64 | docs | packages) ;;
    *) echo "unknown configuration: $cfg (release, asan, tsan, valgrind, aarch64, docs, packages)" >&2; exit 2 ;;
  esac
done
want() { # want CONFIG: whether CONFIG was asked for
  local c
  for c in "${configs[@]}"; do [ "$c" = "$1" ] && return 0; done
  return 1
}

# ---- dependencies -----------------------------------------------------------------------
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}
apt_updated=0
apt_install() { # apt_install PACKAGE...: 0 when they installed
  command -v apt-get >/dev/null 2>&1 || return 1
  if [ $apt_updated -eq 0 ]; then
    as_root apt-get update -qq >/dev/null 2>&1 || return 1
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}

need=()
for tool in cmake ninja gcc valgrind pkg-config clang-format; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
[ -f /usr/include/valgrind/valgrind.h ] || need+=(valgrind)
# libweft-mpi (src/mpi/) and its tests under mpirun: Open MPI
command -v mpicc >/dev/null 2>&1 || need+=(libopenmpi-dev)
command -v mpirun >/dev/null 2>&1 || need+=(openmpi-bin)
if [ ${#need[@]} -gt 0 ]; then
  pkgs=()
  for t in "${need[@]}"; do
    case "$t" in ninja) pkgs+=(ninja-build) ;; gcc) pkgs+=(gcc libc6-dev) ;; *) pkgs+=("$t") ;; esac
  done
  echo "== installing: ${pkgs[*]}"
  if ! apt_install "${pkgs[@]}"; then
    echo "== could not install ${pkgs[*]} (needs apt-get and root or sudo)" >&2
    exit 1
  fi
fi

# Optional: gdb for the gdb script's tests (tests/gdb_*.c skip without it).
if ! command -v gdb >/dev/null 2>&1; then
  echo "== installing: gdb"
  apt_install gdb || echo "== gdb not installable: the gdb script's tests skip" >&2
fi
# Optional: libunwind-dev for the frames of the stack dumps (src/core/stack_unwind.c;
# tests/info_print_thread_stack_frames.c skips without it).
if [ ! -f /usr/include/libunwind.h ] && [ ! -f "/usr/include/$(gcc -dumpmachine 2>/dev/null)/libunwind.h" ]; then
  echo "== installing: libunwind-dev"
  apt_install libunwind-dev || echo "== libunwind-dev not installable: stack dumps print words" >&2
fi

# Optional: liburing-dev for the I/O face's io_uring backend (without it weft-io is built
# with its threads backend only; CMake says so).
if [ ! -f /usr/include/liburing.h ]; then
  echo "== installing: liburing-dev"
  apt_install liburing-dev || echo "== liburing-dev not installable: weft-io builds its threads backend only" >&2
fi

# Optional: Debian's matplotlib, for the PNG of tools/weft-trace-summary, which the trace
# tests check when some Python 3 on the machine can import it (tests/trace/CMakeLists.txt).
if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1; then
  echo "== installing: python3-matplotlib"
  apt_install python3-matplotlib ||
    echo "== python3-matplotlib not installable: the trace summary's PNG is not checked" >&2
fi

# Optional: Debian's memcached tools, for the kvserver's memccapable / memccp / memccat test
# (tests/io/kv_memcapable.sh skips without them) and memcached for bench/io/mc_bench.sh.
if ! command -v memccapable >/dev/null 2>&1 || ! command -v memcached >/dev/null 2>&1; then
  echo "== installing: libmemcached-tools memcached"
  apt_install libmemcached-tools memcached ||
    echo "== libmemcached-tools not installable: io_kvserver_memcapable skips" >&2
fi

cross_skip=""
if want aarch64; then
  cross_cc=${CROSS_CC:-aarch64-linux-gnu-gcc}
  have_qemu() { command -v qemu-aarch64 >/dev/null 2>&1 || command -v qemu-aarch64-static >/dev/null 2>&1; }
  if ! command -v "$cross_cc" >/dev/null 2>&1 || ! have_qemu; then
    echo "== installing: gcc-aarch64-linux-gnu qemu-user"
    apt_install gcc-aarch64-linux-gnu qemu-user || apt_install gcc-aarch64-linux-gnu qemu-user-static || true
  fi
  if ! command -v "$cross_cc" >/dev/null 2>&1 || ! have_qemu; then
    cross_skip="$cross_cc or qemu-aarch64 missing and not installable with apt-get (gcc-aarch64-linux-gnu, qemu-user)"
  fi
fi

# ---- helpers ----------------------------------------------------------------------------
jobs=$(nproc 2>/dev/null || echo 2)
t_all=$(date +%s)
summary=()
tot_pass=0 tot_fail=0 tot_skip=0

dur() { local s=$(($(date +%s) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
record() { # record CONFIG PASSED FAILED SKIPPED START [NOTE]
  local line
  line=$(printf '%-9s %4d passed, %d failed, %d skipped  %s' "$1" "$2" "$3" "$4" "$(dur "$5")")
  [ -n "${6:-}" ] && line="$line  ($6)"
  summary+=("$line")
  echo "== [$1] $2 passed, $3 failed, $4 skipped in $(dur "$5")${6:+  ($6)}"
  tot_pass=$((tot_pass + $2)); tot_fail=$((tot_fail + $3)); tot_skip=$((tot_skip + $4))
}
show_log() { # show_log FILE WHAT: the error lines of a log, then its last 40 lines
  local n
  n=$(wc -l <"$1")
  if [ "$n" -gt 40 ] && head -n $((n - 40)) "$1" | grep -q -E -i 'error|FAILED|undefined reference'; then
    echo "---- $2: error lines of $1"
    head -n $((n - 40)) "$1" | grep -E -i 'error|FAILED|undefined reference' | head -n 30
  fi
  echo "---- $2: last lines of $1"
  tail -n 40 "$1"
  echo "----"
}
# junit_report FILE: prints "SKIP <name>: <reason>" for skipped tests and the last lines of
# the output of failed ones, from ctest's JUnit file.
junit_report() {
  awk '
    function unxml(s) {
      gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
      gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s); return s
    }
    function flush() {
      if (name == "") return
      if (status == "notrun") {
        if (reason == "") reason = "(the test printed no SKIP: line)"
        printf "   skipped %s: %s\n", name, reason
      } else if (status == "fail") {
        printf "   FAILED %s after %.1f s (a timeout if near its TIMEOUT), last lines of its output:\n", name, secs
        s = nout > 25 ? nout - 25 : 0
        for (i = s + 1; i <= nout; i++) printf "      %s\n", out[i]
      }
      name = ""
    }
    /<testcase / {
      flush()
      name = $0; sub(/.*<testcase name="/, "", name); sub(/".*/, "", name)
      status = $0; sub(/.* status="/, "", status); sub(/".*/, "", status)
      secs = $0; sub(/.* time="/, "", secs); sub(/".*/, "", secs); secs += 0
      reason = ""; nout = 0; inout = 0
    }
    /<system-out>/ { inout = 1; sub(/.*<system-out>/, "") }
    inout {
      line = $0; last = sub(/<\/system-out>.*/, "", line)
      if (!(last && line == "")) {
        line = unxml(line); out[++nout] = line
        if (reason == "" && line ~ /SKIP:/) { reason = line; sub(/.*SKIP:[ \t]*/, "", reason) }
      }
      if (last) inout = 0
    }
    END { flush() }
  ' "$1"
}
junit_count() { # junit_count FILE ATTRIBUTE: the attribute of <testsuite>
  sed -n "s/^[[:space:]]*$2=\"\\([0-9]*\\)\".*/\\1/p" "$1" | head -n 1
}

# ---- native configurations ----------------------------------------------------------------
for cfg in "${configs[@]}"; do
  case "$cfg" in aarch64 | docs | packages) continue ;; esac
  case "$cfg" in
    release)  opts=(-DCMAKE_BUILD_TYPE=Release -DWEFT_TEST_LIFECYCLE=OFF -DWEFT_TEST_VALGRIND=OFF) ;;
    asan)     opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_SANITIZE_ADDRESS=ON) ;;
    tsan)     opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_SANITIZE_THREAD=ON) ;;
    valgrind) opts=(-DCMAKE_BUILD_TYPE=Release -DWEFT_TEST_LIFECYCLE=OFF -DWEFT_TEST_VALGRIND=ON) ;;
  esac
  t0=$(date +%s)
  bdir=build/$cfg     # the build tree
  ldir=$root/$bdir    # its logs
  if [ "$cfg" = valgrind ]; then
    bdir=build/release
    ldir=$root/build/valgrind
  fi
  mkdir -p "$bdir" "$ldir"
  echo "== [$cfg] configure and build $bdir (log: ${ldir#"$root"/}/build.log)"
  if ! { cmake -S "$root" -B "$bdir" -G Ninja -DWEFT_BUILD_BENCH=OFF "${opts[@]}" &&
         cmake --build "$bdir" -j "$jobs"; } >"$ldir/build.log" 2>&1; then
    show_log "$ldir/build.log" "[$cfg] BUILD FAILED"
    record "$cfg" 0 1 0 "$t0" "build failed, see ${ldir#"$root"/}/build.log"
    continue
  fi
  echo "== [$cfg] ctest (log: ${ldir#"$root"/}/ctest.log)"
  rm -f "$ldir/junit.xml"
  (cd "$bdir" && ctest -j "$jobs" --timeout 300 --output-on-failure --output-junit "$ldir/junit.xml") \
    >"$ldir/ctest.log" 2>&1
  rc=$?
  if [ -f "$ldir/junit.xml" ]; then
    n=$(junit_count "$ldir/junit.xml" tests)
    f=$(junit_count "$ldir/junit.xml" failures)
    s=$(junit_count "$ldir/junit.xml" skipped)
    d=$(junit_count "$ldir/junit.xml" disabled)
    p=$((n - f - s - d))
    junit_report "$ldir/junit.xml"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then # ctest failed without a failing test
      show_log "$ldir/ctest.log" "[$cfg] ctest exited $rc"
      f=1
    fi
    record "$cfg" "$p" "$f" "$s" "$t0"
  else
    show_log "$ldir/ctest.log" "[$cfg] ctest wrote no junit.xml"
    record "$cfg" 0 1 0 "$t0" "ctest exited $rc"
  fi

  if [ "$cfg" = release ]; then
    # the installed package works for its users: pkg-config (weft and argobots names)
    # and the CMake package, each building and running examples/hello.c
    t0=$(date +%s)
    echo "== [install] install and build examples/hello.c against it (log: $bdir/install.log)"
    prefix="$root/$bdir/_install"
    log=$bdir/install.log
    : >"$log"
    ipass=0 ifail=0
    rm -rf "$prefix" "$bdir/_consumer"
    if cmake --install "$bdir" --prefix "$prefix" >>"$log" 2>&1; then
      libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n1)
      for pc in weft argobots; do
        # shellcheck disable=SC2046
        if { echo "-- hello via pkg-config $pc" &&
             cc -o "$bdir/hello_$pc" examples/hello.c \
                $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs "$pc") \
                -Wl,-rpath,"$(dirname "$libdir")" && "$bdir/hello_$pc"; } >>"$log" 2>&1; then
          ipass=$((ipass + 1))
        else
          echo "   FAILED hello via pkg-config $pc"; ifail=$((ifail + 1))
        fi
      done
      # GLT (src/glt): the library build through glt.pc, the header-only build through weft.pc
      for mode in glt fastglt; do
        if [ "$mode" = glt ]; then gflags=""; gpc=glt; else gflags=-DFASTGLT; gpc=weft; fi
        # shellcheck disable=SC2046,SC2086
        if { echo "-- examples/glt_hello.c via pkg-config $gpc $gflags" &&
             cc $gflags -o "$bdir/glt_hello_$mode" examples/glt_hello.c \
                $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs "$gpc") \
                -Wl,-rpath,"$(dirname "$libdir")" && GLT_NUM_THREADS=2 "$bdir/glt_hello_$mode"; } >>"$log" 2>&1; then
          ipass=$((ipass + 1))
        else
          echo "   FAILED glt_hello via pkg-config $gpc $gflags"; ifail=$((ifail + 1))
        fi
      done
      # every installed library finds libweft.so.1 from this private prefix by itself
      # (RUNPATH $ORIGIN): their RUNPATHs, LD_PRELOAD of libweft-pthread, a Relic-only program
      if { echo "-- scripts/check_install.sh $prefix" && scripts/check_install.sh "$prefix"; } >>"$log" 2>&1; then
        ipass=$((ipass + 1))
      else
        echo "   FAILED scripts/check_install.sh: an installed library does not find libweft by itself"
        ifail=$((ifail + 1))
      fi
      if { echo "-- hello via find_package(weft)" &&
           cmake -S examples/consumer -B "$bdir/_consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" &&
           cmake --build "$bdir/_consumer" && "$bdir/_consumer/hello"; } >>"$log" 2>&1; then
        ipass=$((ipass + 1))
      else
        echo "   FAILED hello via find_package(weft)"; ifail=$((ifail + 1))
      fi
      # the OpenMP face, three ways: linked (pkg-config weft-omp), a libgomp-linked binary
      # over the lib/weft-omp/libgomp.so.1 stand-in, and the same binary with LD_PRELOAD
      if [ -f "$(dirname "$libdir")/libweft-omp.so" ]; then
        ompdir=$(dirname "$libdir")
        # shellcheck disable=SC2046
        if { echo "-- examples/omp_nested.c: pkg-config weft-omp, stand-in, LD_PRELOAD" &&
             gcc -fopenmp -c examples/omp_nested.c -o "$bdir/omp_nested.o" &&
             gcc -o "$bdir/omp_nested_weft" "$bdir/omp_nested.o" \
                 $(PKG_CONFIG_PATH="$libdir" pkg-config --libs weft-omp) -Wl,-rpath,"$ompdir" &&
             ! ldd "$bdir/omp_nested_weft" | grep libgomp >/dev/null && "$bdir/omp_nested_weft" &&
             gcc -fopenmp examples/omp_nested.c -o "$bdir/omp_nested_gomp" &&
             LD_LIBRARY_PATH="$ompdir/weft-omp" ldd "$bdir/omp_nested_gomp" |
               grep "weft-omp/libgomp.so.1" >/dev/null &&
             LD_LIBRARY_PATH="$ompdir/weft-omp" "$bdir/omp_nested_gomp" &&
             LD_PRELOAD="$ompdir/libweft-omp.so" "$bdir/omp_nested_gomp"; } >>"$log" 2>&1; then
          ipass=$((ipass + 1))
        else
          echo "   FAILED examples/omp_nested.c against the installed libweft-omp"; ifail=$((ifail + 1))
        fi
      fi
    else
      echo "   FAILED cmake --install"; ifail=3
    fi
    [ $ifail -gt 0 ] && show_log "$log" "[install] FAILED"
    record install $ipass $ifail 0 "$t0"
  fi
done

# ---- AArch64 under qemu-user ----------------------------------------------------------------
if want aarch64; then
  t0=$(date +%s)
  if [ -n "$cross_skip" ]; then
    echo "== [aarch64] SKIPPED: $cross_skip"
    record aarch64 0 0 1 "$t0" "skipped: cross tools not installable"
  else
    mkdir -p build/aarch64
    log=build/aarch64/cross.log
    echo "== [aarch64] cross-build tests/internal_arch_context.c and internal_arch_switch_release.c, run under qemu-user (log: $log)"
    WEFT_CROSS_OUT="$root/build/aarch64" tests/cross/aarch64.sh all >"$log" 2>&1
    rc=$?
    p=$(sed -n 's/^aarch64: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
    f=$(sed -n 's/^aarch64: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
    if [ -z "$p" ] || { [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; }; then
      p=${p:-0}; f=1
    fi
    [ "$f" -gt 0 ] && show_log "$log" "[aarch64] FAILED"
    record aarch64 "$p" "$f" 0 "$t0"
  fi
fi

# ---- docs and packages (each script prints its checks and a "<name>: P passed, F failed"
# line; exit 77 = could not run here) ------------------------------------------------------------
for cfg in docs packages; do
  want "$cfg" || continue
  t0=$(date +%s)
  mkdir -p "build/$cfg"
  echo "== [$cfg] scripts/test_$cfg.sh"
  out=$("scripts/test_$cfg.sh" 2>&1)
  rc=$?
  echo "$out" | grep -v "^$cfg: [0-9]* passed"
  p=$(echo "$out" | sed -n "s/^$cfg: \([0-9]*\) passed, \([0-9]*\) failed\$/\1/p" | tail -n1)
  f=$(echo "$out" | sed -n "s/^$cfg: \([0-9]*\) passed, \([0-9]*\) failed\$/\2/p" | tail -n1)
  p=${p:-0}; f=${f:-0}
  if [ "$rc" -eq 77 ]; then
    record "$cfg" "$p" "$f" 1 "$t0" "skipped: $(echo "$out" | sed -n 's/^SKIP: //p' | head -n1)"
  else
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    record "$cfg" "$p" "$f" 0 "$t0"
  fi
done

echo "== summary"
for line in "${summary[@]}"; do echo "   $line"; done
echo "$tot_pass passed, $tot_fail failed, $tot_skip skipped ($(dur "$t_all"))"
[ "$tot_fail" -eq 0 ]
