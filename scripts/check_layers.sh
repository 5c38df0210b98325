#!/usr/bin/env bash
# scripts/check_layers.sh - the layers of docs/architecture.md hold in src/:
#   1. a file includes project headers only from its own layer or a layer below it
#      (arch < mem < core < sync < faces); a face (glt, pthread, omp, io, relic, mpi)
#      never includes another face's headers;
#   2. a face reaches core only through core/face.h: of core, sync and mem (libweft's
#      insides) it includes that one header, and core/face.h itself includes only arch/
#      headers, so no face compiles core's struct layout into its own library;
#   3. internal prototypes are declared in headers, not re-declared inside .c files
#      (so the compiler checks every caller against the definition);
#   4. every quoted include names a file that exists under src/ or include/ (public
#      headers may be included from any layer).
# Exit 0 when all hold; otherwise each violation is printed as file:line: reason.
set -euo pipefail
cd "$(dirname "$0")/../src"

rank() {
  case "$1" in
    arch) echo 0 ;; mem) echo 1 ;; core) echo 2 ;; sync) echo 3 ;;
    glt|pthread|omp|io|relic|mpi) echo 4 ;;
    *) echo -1 ;;
  esac
}

bad=0
while IFS= read -r f; do
  layer=${f%%/*}
  lr=$(rank "$layer")
  if [ "$lr" -lt 0 ]; then
    echo "$f: file outside any layer (add its folder to scripts/check_layers.sh and docs/architecture.md)"
    bad=1; continue
  fi
  while IFS=: read -r line inc; do
    [ -n "$inc" ] || continue
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<<"$inc")
    tl=${target%%/*}
    if [ -e "../include/$target" ]; then
      continue                     # a public header (abt.h, weft.h, ...): any layer may
    fi
    if [ "$tl" = "$target" ]; then
      echo "$f:$line: include \"$target\" without its layer folder (write \"$layer/...\")"
      bad=1; continue
    fi
    if [ ! -e "$target" ]; then
      echo "$f:$line: include \"$target\": no such file under src/"
      bad=1; continue
    fi
    tr=$(rank "$tl")
    if [ "$tr" -gt "$lr" ]; then
      echo "$f:$line: layer $layer reaches up into $tl (\"$target\")"
      bad=1
    elif [ "$tr" -eq 4 ] && [ "$lr" -eq 4 ] && [ "$tl" != "$layer" ]; then
      echo "$f:$line: face $layer includes another face's header \"$target\""
      bad=1
    elif [ "$lr" -eq 4 ] && [ "$tr" -ge 1 ] && [ "$tr" -le 3 ] && [ "$target" != core/face.h ]; then
      echo "$f:$line: face $layer includes \"$target\": of core, sync and mem a face includes only core/face.h"
      bad=1
    elif [ "$f" = core/face.h ] && [ "$tl" != arch ]; then
      echo "$f:$line: core/face.h includes \"$target\": it may include only arch/ headers (a face sees no core struct)"
      bad=1
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):/\1:/' || true)
  case "$f" in
    *.c)
      if grep -nE '^(WEFT_INTERNAL|extern)[^(]*\([^)]*\)[^{]*;[[:space:]]*$' "$f" >/dev/null; then
        grep -nE '^(WEFT_INTERNAL|extern)[^(]*\([^)]*\)[^{]*;[[:space:]]*$' "$f" |
          sed "s|^|$f:|; s|\$|  <- prototype in a .c file: declare it in the module's header|"
        bad=1
      fi ;;
  esac
done < <(find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) | sed 's|^\./||' | sort)

if [ $bad -ne 0 ]; then
  echo "check_layers: FAILED (see docs/architecture.md, 'Layers')" >&2
  exit 1
fi
echo "check_layers: OK ($(find . -type f \( -name '*.c' -o -name '*.h' \) | wc -l) files)"
