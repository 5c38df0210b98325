#!/usr/bin/env bash
# scripts/format.sh - formats the C and C++ sources with clang-format and the repository's
# .clang-format: src/, include/, tests/, bench/, examples/ (files tracked by git).
#
#   scripts/format.sh            rewrite the files in place
#   scripts/format.sh --check    change nothing; list the files that are not formatted and
#                                exit 1 if there is any
#   scripts/format.sh [--check] FILE...   only these files
#
# Installs clang-format with apt-get when it is missing (as root or through sudo).
# CLANG_FORMAT names another binary (clang-format 14 or later).
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
case "${1:-}" in -h | --help) sed -n '2,12p' "$0"; exit 0 ;; esac

cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "== installing clang-format"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang-format; } >/dev/null ||
    { echo "format.sh: clang-format missing and not installable with apt-get" >&2; exit 2; }
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' \
                         'bench/*.c' 'bench/*.h' 'bench/*.cpp' 'examples/*.c')
fi

if [ $check -eq 0 ]; then
  "$cf" -i --style=file "${files[@]}"
  echo "formatted ${#files[@]} files"
  exit 0
fi

# one clang-format process for every file (one per file took a minute on 400 files)
bad=0
while read -r n f; do
  echo "$f: $n place(s) not formatted"
  bad=$((bad + 1))
done < <("$cf" --style=file --dry-run "${files[@]}" 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' |
         uniq -c)
if [ $bad -gt 0 ]; then
  echo "$bad of ${#files[@]} files are not formatted (run scripts/format.sh, see the diff with git diff)"
  exit 1
fi
echo "all ${#files[@]} files formatted"
