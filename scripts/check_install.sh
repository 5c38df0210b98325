#!/usr/bin/env bash
# scripts/check_install.sh PREFIX - the shared libraries installed under PREFIX find
# libweft.so.1 by themselves, from any prefix, with no LD_LIBRARY_PATH:
#   1. every installed ELF shared library that needs a libweft library has a RUNPATH entry
#      that names the directory holding it, and every RUNPATH/RPATH entry of every one is
#      $ORIGIN-relative (no absolute path: a package in /usr gets nothing lintian flags);
#   2. LD_PRELOAD=PREFIX/lib/libweft-pthread.so runs a plain Pthreads program (not linked
#      to weft) on weft;
#   3. a program that uses only Relic, linked with `pkg-config relic` and an rpath to
#      PREFIX's library directory (libweft is then not among its own dependencies), runs;
#   4. the gdb script sits where gdb's auto-load looks for libweft's companion script:
#      PREFIX/share/gdb/auto-load/<real path of libweft.so.X.Y.Z>-gdb.py.
# Used by scripts/test.sh after the Release install (a private prefix) and by
# scripts/test_packages.sh (PREFIX /usr, from the Debian packages).  Prints one line per
# library or program and exits 0 when all hold, 1 otherwise.
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2


for tool in readelf cc pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check_install: $tool is missing" >&2; exit 1; }
done

libweft=$(find "$prefix" -name 'libweft.so.1' 2>/dev/null | head -n 1)
[ -n "$libweft" ] || { echo "check_install: no libweft.so.1 under $prefix" >&2; exit 1; }
libdir=$(dirname "$libweft")
fail=0
bad() { echo "   FAILED $*"; fail=1; }

# ---- 1. RUNPATH of every installed weft library ----------------------------------------
n=0
while IFS= read -r f; do
  readelf -h "$f" 2>/dev/null | grep 'DYN (' >/dev/null || continue  # (no -q: pipefail)
  dyn=$(readelf -d "$f" 2>/dev/null)
  n=$((n + 1))
  dir=$(dirname "$f")
  paths=$(sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p' <<<"$dyn" | tr ':' '\n')
  shown=$(paste -sd: <<<"$paths")
  ok=1
  while IFS= read -r p; do
    [ -z "$p" ] && continue
    case "$p" in
      '$ORIGIN' | '$ORIGIN/'* | '${ORIGIN}' | '${ORIGIN}/'*) ;;
      *) bad "$f: RUNPATH entry '$p' is not \$ORIGIN-relative"; ok=0 ;;
    esac
  done <<<"$paths"
  # the libweft libraries it needs must be found through those entries
  for need in $(sed -n 's/.*(NEEDED).*\[\(libweft[^]]*\)\]/\1/p' <<<"$dyn"); do
    found=0
    while IFS= read -r p; do
      [ -z "$p" ] && continue
      d=${p/\$\{ORIGIN\}/$dir}
      d=${d/\$ORIGIN/$dir}
      [ -e "$d/$need" ] && found=1
    done <<<"$paths"
    [ $found -eq 1 ] || { bad "$f needs $need, which its RUNPATH (${shown:-none}) does not find"; ok=0; }
  done
  [ $ok -eq 1 ] && echo "   ok $f (RUNPATH: ${shown:-none})"
done < <(find "$prefix" \( -name 'libweft*.so*' -o -path '*/weft-omp/*.so*' \) -type f 2>/dev/null | sort)
[ $n -gt 0 ] || bad "no shared library found under $prefix"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- 2. the Pthreads preload from PREFIX ----------------------------------------------------
if [ -f "$libdir/libweft-pthread.so" ]; then
  cat >"$tmp/preload.c" <<'EOF'
/* a plain Pthreads program: with libweft-pthread preloaded, weft is in the process */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static void *run(void *arg) { return arg; }
int main(void)
{
    pthread_t t;
    void *r = NULL;
    if (pthread_create(&t, NULL, run, (void *)42) != 0 || pthread_join(t, &r) != 0 || r != (void *)42)
        return 1;
    if (!dlsym(RTLD_DEFAULT, "ABT_initialized")) {
        fprintf(stderr, "libweft is not in the process\n");
        return 1;
    }
    puts("preload: ok");
    return 0;
}
EOF
  if cc -o "$tmp/preload" "$tmp/preload.c" -pthread -ldl >"$tmp/log" 2>&1 &&
     env -u LD_LIBRARY_PATH LD_PRELOAD="$libdir/libweft-pthread.so" "$tmp/preload" >>"$tmp/log" 2>&1; then
    echo "   ok LD_PRELOAD=$libdir/libweft-pthread.so, no LD_LIBRARY_PATH"
  else
    bad "LD_PRELOAD=$libdir/libweft-pthread.so:"; sed 's/^/      /' "$tmp/log"
  fi
fi

# ---- 3. a Relic-only program through pkg-config relic ---------------------------------------
pcdir=$(dirname "$(find "$prefix" -name relic.pc 2>/dev/null | head -n 1)")
if [ -f "$pcdir/relic.pc" ]; then
  cat >"$tmp/relic_only.c" <<'EOF'
/* uses Relic only: libweft is a dependency of libweft-relic, not of the program */
#include <relic.h>
#include <stdio.h>
static int done;
static void task(void *arg) { (*(int *)arg)++; }
int main(void)
{
    if (relic_init() != 0 || relic_submit(task, &done) != 0 || relic_wait() != 0 ||
        relic_finalize() != 0 || done != 1)
        return 1;
    puts("relic: ok");
    return 0;
}
EOF
  # shellcheck disable=SC2046
  if cc -o "$tmp/relic_only" "$tmp/relic_only.c" -Wl,--as-needed \
        $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs relic) -Wl,-rpath,"$libdir" \
        >"$tmp/log" 2>&1 &&
     env -u LD_LIBRARY_PATH "$tmp/relic_only" >>"$tmp/log" 2>&1; then
    echo "   ok a program linked with pkg-config relic, no LD_LIBRARY_PATH"
  else
    bad "a program linked with pkg-config relic:"; sed 's/^/      /' "$tmp/log"
  fi
fi

# ---- 4. the gdb script next to the library, for gdb's auto-load ----------------------------
real=$(find "$prefix" -path "$prefix/share" -prune -o -name 'libweft.so.[0-9]*.[0-9]*.[0-9]*' \
       -type f -print 2>/dev/null | head -n 1)
if [ -n "$real" ]; then
  # the path libweft has once installed: PREFIX is the staging prefix or the final one
  want="$prefix/share/gdb/auto-load$real-gdb.py"
  alt=$(find "$prefix/share/gdb/auto-load" -name "$(basename "$real")-gdb.py" 2>/dev/null | head -n 1)
  if [ -f "$want" ]; then
    echo "   ok gdb script ${want#"$prefix"/}"
  elif [ -n "$alt" ]; then
    echo "   ok gdb script ${alt#"$prefix"/} (installed for another prefix)"
  else
    bad "no gdb script $want"
  fi
fi

exit $fail
