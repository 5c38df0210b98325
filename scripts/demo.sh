#!/usr/bin/env bash
# scripts/demo.sh - build weft (Release) and run the headline demo: fork-join of empty
# ULTs and tasklets, ns per unit next to pthread_create/join measured in the same run.
# Installs the build dependencies when missing (Debian/Ubuntu, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
for tool in cmake ninja gcc; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq cmake ninja-build gcc libc6-dev >/dev/null
fi
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_BENCH=ON >/dev/null
cmake --build build/release -j "$(nproc)" --target fork_join >/dev/null
exec build/release/bench/fork_join "$@"
