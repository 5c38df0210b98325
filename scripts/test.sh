#!/usr/bin/env bash
# scripts/test.sh - the full test suite, as CI runs it.
#   1. installs the build dependencies when they are missing (Debian/Ubuntu, as root);
#   2. builds and runs ctest in four configurations: Release, AddressSanitizer+UBSan,
#      ThreadSanitizer, and Release under valgrind memcheck;
#   3. docs: the API reference builds with Doxygen without a warning (scripts/test_docs.sh);
#   4. packages: the Debian packages build, install, serve a consumer and are purged, and
#      the Spack recipe is checked (scripts/test_packages.sh).
# Usage: scripts/test.sh [release|asan|tsan|valgrind|docs|packages]...   (default: all six)
# Build trees go to build/<config>.  Exits non-zero if any configuration fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

need=()
for tool in cmake ninja gcc valgrind pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
[ -f /usr/include/valgrind/valgrind.h ] || need+=(valgrind)
if [ ${#need[@]} -gt 0 ]; then
  pkgs=()
  for t in "${need[@]}"; do
    case "$t" in ninja) pkgs+=(ninja-build) ;; gcc) pkgs+=(gcc libc6-dev) ;; *) pkgs+=("$t") ;; esac
  done
  echo "== installing: ${pkgs[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi

configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(release asan tsan valgrind docs packages)
jobs=$(nproc 2>/dev/null || echo 2)
status=0
for cfg in "${configs[@]}"; do
  if [ "$cfg" = docs ] || [ "$cfg" = packages ]; then
    echo "== [$cfg] scripts/test_$cfg.sh"
    rc=0
    "scripts/test_$cfg.sh" || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then echo "== [$cfg] FAILED"; status=1; fi
    continue
  fi
  case "$cfg" in
    release)  opts=(-DCMAKE_BUILD_TYPE=Release) ;;
    asan)     opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_SANITIZE_ADDRESS=ON) ;;
    tsan)     opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_SANITIZE_THREAD=ON) ;;
    valgrind) opts=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWEFT_TEST_VALGRIND=ON) ;;
    *) echo "unknown configuration: $cfg" >&2; exit 2 ;;
  esac
  echo "== [$cfg] configure and build"
  cmake -S "$root" -B "build/$cfg" -G Ninja -DWEFT_BUILD_BENCH=OFF "${opts[@]}" >/dev/null
  cmake --build "build/$cfg" -j "$jobs" >/dev/null
  echo "== [$cfg] ctest"
  if ! (cd "build/$cfg" && ctest -j "$jobs" --output-on-failure --timeout 300); then
    echo "== [$cfg] FAILED"
    status=1
  fi
  if [ "$cfg" = release ]; then
    # the installed package works for its users: pkg-config (weft and argobots names)
    # and the CMake package, each building and running examples/hello.c
    echo "== [install] install and build examples/hello.c against it"
    prefix="$root/build/release/_install"
    rm -rf "$prefix" "build/release/_consumer"
    cmake --install "build/release" --prefix "$prefix" >/dev/null
    libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n1)
    for pc in weft argobots; do
      # shellcheck disable=SC2046
      cc -o "build/release/hello_$pc" examples/hello.c \
         $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs "$pc") \
         -Wl,-rpath,"$(dirname "$libdir")"
      "build/release/hello_$pc" >/dev/null || { echo "== [install] hello via $pc FAILED"; status=1; }
    done
    cmake -S examples/consumer -B build/release/_consumer -G Ninja \
          -DCMAKE_PREFIX_PATH="$prefix" >/dev/null &&
      cmake --build build/release/_consumer >/dev/null &&
      build/release/_consumer/hello >/dev/null ||
      { echo "== [install] hello via find_package(weft) FAILED"; status=1; }
  fi
done
exit $status
