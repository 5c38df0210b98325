#!/usr/bin/env bash
# scripts/test_docs.sh - the documentation: the API reference builds without a warning and
# the Markdown documents hold (the `docs` configuration of scripts/test.sh; run it alone
# the same way).
#   1. installs doxygen with apt-get when it is missing (Debian package `doxygen`);
#   2. configures build/docs (library only) with -DWEFT_DOCS=ON and builds the `docs`
#      target: scripts/check_api_docs.py (every public function has its sections), then
#      Doxygen with WARN_AS_ERROR, so an undocumented declaration fails;
#   3. checks that the HTML has the landing page, the guides, a page per face, a page per
#      API module and one per design note, and that the landing page and the faces page
#      link them;
#   4. scripts/check_docs_text.py: every relative link of the Markdown documents resolves,
#      README.md and docs/ narrate no history (no time of day, "session", "was X -> Y",
#      "step N of"), .ci/run runs the test command of the README's Quick start, and the
#      instruction counts stand only where scripts/insn_counts.sh --write puts them, the
#      README's layout names every folder of src/, and each has its design note.
# Prints "docs: P passed, F failed" last; exits 0 when all passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bdir=build/docs
mkdir -p "$bdir"
log=$bdir/docs.log
: >"$log"
pass=0 fail=0
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else return 1; fi
}
if ! command -v doxygen >/dev/null 2>&1; then
  echo "== installing: doxygen"
  { as_root apt-get update -qq &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq doxygen; } >>"$log" 2>&1
fi
if ! command -v doxygen >/dev/null 2>&1; then
  echo "   FAILED doxygen is missing and could not be installed (apt-get install doxygen)"
  echo "docs: 0 passed, 1 failed"
  exit 1
fi
if cmake -S "$root" -B "$bdir" -G Ninja -DWEFT_DOCS=ON -DWEFT_BUILD_TESTS=OFF \
         -DWEFT_BUILD_BENCH=OFF >>"$log" 2>&1 &&
   cmake --build "$bdir" --target docs >>"$log" 2>&1 &&
   [ ! -s "$bdir/docs/warnings.log" ]; then
  echo "   ok docs target: $(grep -h '^check_api_docs: [0-9]* functions' "$log" | tail -n1 | sed 's/^check_api_docs: //'), doxygen $(doxygen --version), no warning"
  pass=$((pass + 1))
else
  echo "   FAILED docs target (log: $log)"
  grep -h -E '^check_api_docs: .*:|error|warning' "$log" "$bdir/docs/warnings.log" 2>/dev/null | head -n 30
  fail=$((fail + 1))
fi
html=$bdir/docs/html
faces=(abt weft glt pthread omp io relic mpi)
notes=(arch mem unit fork pool sched stream sync api tool glt pthread omp io relic mpi)
pages_ok() {
  local p
  for p in index getting_started sched_pools fork_join faces abt_8h weft_8h \
           group__execution__streams group__user__level__threads group__pools \
           md_docs_architecture md_docs_testing "${faces[@]/#/face_}" "${notes[@]/#/md_docs_design_}"; do
    [ -s "$html/$p.html" ] || { echo "missing $html/$p.html"; return 1; }
  done
  for p in "${faces[@]}"; do
    grep -q "face_$p.html" "$html/faces.html" || { echo "faces.html does not link face_$p.html"; return 1; }
  done
  for p in "${notes[@]}"; do
    grep -q "md_docs_design_$p.html" "$html/md_docs_architecture.html" ||
      { echo "the map does not link md_docs_design_$p.html"; return 1; }
  done
  grep -q 'getting_started.html' "$html/index.html" &&
  grep -q 'md_docs_architecture.html' "$html/index.html" &&
  grep -q 'Contexts' "$html/group__user__level__threads.html" &&
  grep -q 'Undefined behaviour' "$html/group__user__level__threads.html"
}
if pages_ok >>"$log" 2>&1; then
  echo "   ok HTML: landing page, guides, ${#faces[@]} face pages, the API modules, the map and ${#notes[@]} design notes"
  pass=$((pass + 1))
else
  echo "   FAILED HTML pages (log: $log)"; tail -n 3 "$log"; fail=$((fail + 1))
fi
if out=$(python3 scripts/check_docs_text.py 2>&1); then
  echo "   ok ${out#check_docs_text: }: links resolve, no history narrated, CI runs the README's command, figures in one place, a note per module"; pass=$((pass + 1))
else
  echo "   FAILED documents (scripts/check_docs_text.py):"; echo "$out" | head -n 30; fail=$((fail + 1))
fi
echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
