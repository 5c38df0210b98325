#!/usr/bin/env bash
# scripts/test_packages.sh - the Debian packages work for their users (the `packages`
# configuration of scripts/test.sh; run it alone the same way).
#   1. builds the library (Release, prefix /usr, no tests) in build/packages and runs
#      `cpack -G DEB`: libweft_<v>-1_<arch>.deb, libweft-dev_<v>-1_<arch>.deb and
#      weft-kvserver_<v>-1_<arch>.deb;
#   2. checks their metadata (names, versions, dependencies, shlibs file, file split) and
#      that their libraries carry only $ORIGIN RUNPATHs and find libweft wherever they are
#      unpacked (scripts/check_install.sh);
#   3. installs both with `apt-get install ./libweft*.deb`, then builds and runs
#      examples/hello.c through `pkg-config weft`, `pkg-config argobots`, the static
#      library, and examples/consumer through find_package(weft), all from /usr; runs
#      /usr/bin/weft-kvserver and talks memcached's protocol to it;
#   4. purges both packages and checks that nothing of them is left, also when a step
#      failed or the script is interrupted (an EXIT trap).
# The Spack recipe is checked first (scripts/check_spack.py, no Spack needed).
# Needs dpkg, apt-get and root (or sudo).  Refuses to run when libweft or libweft-dev is
# already installed, since it would remove them at the end.
# Prints one line per check and, last, "packages: P passed, F failed"; exits 0 when all
# passed, 1 when one failed, 77 when the machine cannot install packages.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bdir=build/packages
jobs=$(nproc 2>/dev/null || echo 2)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi
}
pass=0 fail=0
mkdir -p "$bdir"
log=$bdir/packages.log
: >"$log"
check() { # check NAME COMMAND...: runs COMMAND with its output in the log
  echo "-- $1" >>"$log"
  if "${@:2}" >>"$log" 2>&1; then
    echo "   ok $1"; pass=$((pass + 1))
  else
    echo "   FAILED $1 (log: $log)"; fail=$((fail + 1))
  fi
}
finish() {
  echo "packages: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit $?
}

# ---- the Spack recipe (no Spack needed) ------------------------------------------------------
check "Spack recipe compiles and maps its variants to the build's options" \
  python3 scripts/check_spack.py
if [ "$fail" -gt 0 ]; then grep '^check_spack' "$log"; fi

# ---- the Debian packages need dpkg, apt-get and root --------------------------------------------
if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 ||
   ! as_root true 2>/dev/null; then
  echo "SKIP: the Debian packages need dpkg, apt-get and root or sudo"
  echo "packages: $pass passed, $fail failed"
  [ "$fail" -eq 0 ] && exit 77
  exit 1
fi
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in libweft libweft-dev weft-kvserver; do
  if installed "$p"; then
    echo "   FAILED $p is already installed; remove it first (this check purges it)"
    fail=$((fail + 1)); finish
  fi
done
# cpack's Depends come from dpkg-shlibdeps (dpkg-dev), which also needs `file`
if ! command -v dpkg-shlibdeps >/dev/null 2>&1 || ! command -v file >/dev/null 2>&1; then
  echo "== installing: dpkg-dev file"
  { as_root apt-get update -qq &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev file; } >>"$log" 2>&1
fi

# ---- build the packages -------------------------------------------------------------------
if ! { cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
             -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF &&
       cmake --build "$bdir" -j "$jobs" &&
       rm -f "$bdir"/libweft*.deb "$bdir"/weft-kvserver*.deb &&
       (cd "$bdir" && cpack -G DEB); } >>"$log" 2>&1; then
  echo "   FAILED build and cpack -G DEB (log: $log)"; tail -n 30 "$log"; fail=1; finish
fi
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$bdir/CMakeCache.txt")
arch=$(dpkg --print-architecture)
rt=$bdir/libweft_${version}-1_${arch}.deb
dev=$bdir/libweft-dev_${version}-1_${arch}.deb
kvs=$bdir/weft-kvserver_${version}-1_${arch}.deb
field() { dpkg-deb -f "$1" "$2"; }
expect() { # expect WHAT ACTUAL WANTED
  [ "$2" = "$3" ] && return 0
  echo "$1: got '$2', want '$3'"; return 1
}
meta_runtime() {
  expect Package "$(field "$rt" Package)" libweft &&
  expect Version "$(field "$rt" Version)" "$version-1" &&
  expect Section "$(field "$rt" Section)" libs &&
  field "$rt" Depends | grep -q '^libc6 (>= ' &&
  dpkg-deb -I "$rt" shlibs | grep -qx "libweft 1 libweft (>= $version-1)" &&
  dpkg-deb -I "$rt" postinst | grep -q ldconfig &&
  # only the shared libraries (libweft and the faces' libraries, the OpenMP face's
  # libgomp.so.1 stand-in), their SONAME links, and the gdb script gdb auto-loads for
  # libweft (tools/gdb/weft.py)
  dpkg-deb -c "$rt" | grep -E "/share/gdb/auto-load/usr/lib/.*/libweft\.so\.$version-gdb\.py\$" >/dev/null &&
  ! dpkg-deb -c "$rt" | grep -v '/$' |
    grep -v -E '/libweft(-(relic|glt|pthread|omp|io|mpi))?\.so\.1(\.[0-9.]+)?( ->.*)?$' |
    grep -v -E '/weft-omp/libgomp\.so\.1$' |
    grep -v -E '/share/gdb/auto-load/usr/lib/.*/libweft\.so\.[0-9.]+-gdb\.py$'
}
meta_dev() {
  expect Package "$(field "$dev" Package)" libweft-dev &&
  expect Version "$(field "$dev" Version)" "$version-1" &&
  expect Depends "$(field "$dev" Depends)" "libweft (= $version-1)" || return 1
  local f files
  files=$(dpkg-deb -c "$dev")
  for f in include/abt.h include/weft.h /libweft.a '/libweft.so -> libweft.so.1' \
           pkgconfig/weft.pc pkgconfig/argobots.pc cmake/weft/weftConfig.cmake \
           cmake/weft/weftConfigVersion.cmake cmake/weft/weftTargets.cmake; do
    grep -q -F -- "$f" <<<"$files" || { echo "missing $f"; return 1; }
  done
}
check "metadata of libweft (version, Depends, shlibs, ldconfig trigger, files)" meta_runtime
check "metadata of libweft-dev (Depends on the same libweft, files)" meta_dev
meta_kvserver() {
  expect Package "$(field "$kvs" Package)" weft-kvserver &&
  expect Depends "$(field "$kvs" Depends)" "libweft (= $version-1)" &&
  dpkg-deb -c "$kvs" | grep -q -E ' \./usr/bin/weft-kvserver$'
}
check "metadata of weft-kvserver (Depends on the same libweft, /usr/bin/weft-kvserver)" meta_kvserver

# ---- install, use, purge ------------------------------------------------------------------
purge() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq weft-kvserver libweft-dev libweft >>"$log" 2>&1
}
trap 'purge' EXIT
work=$(mktemp -d)
trap 'purge; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

# the packaged libraries carry no absolute RUNPATH (lintian's custom-library-search-path) and
# find libweft by themselves wherever they are unpacked ($ORIGIN: scripts/check_install.sh)
check "the packaged libraries: RUNPATH \$ORIGIN only, relocatable (scripts/check_install.sh)" \
  bash -c "dpkg-deb -x '$root/$rt' '$work/unpacked' && dpkg-deb -x '$root/$dev' '$work/unpacked' &&
           '$root/scripts/check_install.sh' '$work/unpacked/usr'"
if ! check "apt-get install ./libweft*.deb ./weft-kvserver*.deb" \
     as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$root/$rt" "$root/$dev" "$root/$kvs"; then
  tail -n 20 "$log"
  finish
fi
libdir=$(pkg-config --variable=libdir weft 2>/dev/null)
check "pkg-config finds weft $version and argobots under /usr" \
  bash -c "[ \"\$(pkg-config --modversion weft)\" = '$version' ] && pkg-config --exists argobots &&
           case \"\$(realpath '$libdir')\" in /usr/lib*) ;; *) false ;; esac"
for pc in weft argobots; do
  # shellcheck disable=SC2046
  check "examples/hello.c via pkg-config $pc, runs on the installed libweft.so.1" \
    bash -c "cc -o '$work/hello_$pc' '$root/examples/hello.c' \$(pkg-config --cflags --libs $pc) &&
             '$work/hello_$pc' && ldd '$work/hello_$pc' | grep -q -E '=> /(usr/)?lib/.*libweft\\.so\\.1 '"
done
check "examples/hello.c with the static libweft.a" \
  bash -c "cc -o '$work/hello_static' '$root/examples/hello.c' \$(pkg-config --cflags weft) \
             '$libdir/libweft.a' \$(pkg-config --libs-only-l --static weft | sed 's/-lweft//') &&
           '$work/hello_static' && ! ldd '$work/hello_static' | grep -q libweft"
check "examples/consumer via find_package(weft)" \
  bash -c "cmake -S '$root/examples/consumer' -B '$work/consumer' -G Ninja &&
           cmake --build '$work/consumer' && '$work/consumer/hello'"
shlibdeps() { # a program linked to libweft gets "libweft (>= v)" from dpkg-shlibdeps
  mkdir -p "$work/deb/debian" &&
  printf 'Source: t\n\nPackage: t\nArchitecture: any\n' >"$work/deb/debian/control" &&
  (cd "$work/deb" && dpkg-shlibdeps -O "$work/hello_weft") | grep -q "libweft (>= $version-1)"
}
check "dpkg-shlibdeps of a consumer: libweft (>= $version-1)" shlibdeps

kvserver_runs() { # /usr/bin/weft-kvserver answers set and get on a port of its own
  local out=$work/kvs.out pid port=
  /usr/bin/weft-kvserver -p 0 -t 2 -q >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out")
    [ -n "$port" ] && break
    sleep 0.1
  done
  local ok=1
  if [ -n "$port" ] && exec 3<>"/dev/tcp/127.0.0.1/$port"; then
    printf 'set pkg 3 0 2\r\nok\r\nget pkg\r\n' >&3
    local l1 l2 l3
    IFS= read -r -t 30 l1 <&3; IFS= read -r -t 30 l2 <&3; IFS= read -r -t 30 l3 <&3
    exec 3<&-
    [ "$l1" = $'STORED\r' ] && [ "$l2" = $'VALUE pkg 3 2\r' ] && [ "$l3" = $'ok\r' ] && ok=0
  fi
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" || ok=1
  ldd /usr/bin/weft-kvserver | grep -q -E '=> /(usr/)?lib/.*libweft-io\.so\.1 ' || ok=1
  return $ok
}
check "/usr/bin/weft-kvserver serves memcached's set and get, on the installed libweft-io" kvserver_runs

purge_clean() {
  purge &&
  ! installed libweft && ! installed libweft-dev && ! installed weft-kvserver &&
  [ ! -e /usr/bin/weft-kvserver ] &&
  [ ! -e /usr/include/abt.h ] && [ ! -e "$libdir/libweft.so.1" ] && [ ! -e "$libdir/pkgconfig/weft.pc" ] &&
  ! pkg-config --exists weft
}
check "apt-get purge leaves nothing of libweft, libweft-dev, weft-kvserver" purge_clean
finish
