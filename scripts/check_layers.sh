#!/usr/bin/env bash
# scripts/check_layers.sh - the layers of docs/architecture.md hold in src/:
#   1. a file includes project headers only from its own layer or a layer below it
#      (arch < mem < core < sync < faces); a face (glt, pthread, omp, io, relic, mpi)
#      never includes another face's headers;
#   2. inside core, a file includes only headers of its own room or of a room below it:
#        base < tool < pool < unit < sched < stream < api
#      base   the headers at core's top level (types.h, handle.h, runtime.h, wait.h,
#             face.h): the structs, handles, the runtime singleton, the wait interface;
#      tool   tool/: the hooks the engine calls (tool events, trace, sanitizer
#             annotations, overflow checks, stack-dump stop points);
#      pool   pool/: the containers of units;
#      unit   unit/: the engine that creates, switches, parks, wakes and joins units;
#      sched  sched/: the loops that run units, idling, the poll and timer hooks;
#      stream stream/: execution streams, init and finalize, affinity, fork();
#      api    api/: the thin ABT_* entry points.
#      The few includes against this order are listed in EXCEPTIONS below, each with the
#      reason it holds;
#   3. a face reaches core only through core/face.h: of core, sync and mem (libweft's
#      insides) it includes that one header, and core/face.h itself includes only arch/
#      headers, so no face compiles core's struct layout into its own library;
#   4. internal prototypes are declared in headers, not re-declared inside .c files
#      (so the compiler checks every caller against the definition);
#   5. every quoted include names a file that exists under src/ or include/ (public
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

# The rooms of core, bottom first (rule 2).
core_rank() {
  case "$1" in
    base) echo 0 ;; tool) echo 1 ;; pool) echo 2 ;; unit) echo 3 ;; sched) echo 4 ;;
    stream) echo 5 ;; api) echo 6 ;; *) echo -1 ;;
  esac
}

# The room of a file under core/ (empty: none).
core_room() {
  case "$1" in
    core/types.h|core/handle.h|core/runtime.h|core/wait.h|core/face.h) echo base ;;
    core/unit/*) echo unit ;;
    core/*/*)
      local r=${1#core/}; r=${r%%/*}
      [ "$(core_rank "$r")" -ge 0 ] && echo "$r" ;;
  esac
  return 0
}

# Includes against the room order that hold for a reason (rule 2): "file target", glob
# patterns, the target as written.
#   pool -> sched/idle.h: a pool keeps the idle nodes of the schedulers that sleep on it
#     and its push wakes one (the waker's half of the idle protocol, which idle.h states
#     for both halves; it includes only types.h).
#   unit -> sched/sched.h, sched/loop.h: the engine's scheduler side runs the primary
#     stream's scheduler on a stack of its own (sched_entry: stop, retire) and implements
#     the entries of the restartable loop (weft_sched_loop_enter/begin/end), which
#     loop.h declares for WEFT_SCHED_LOOP_DEFINE.
#   unit -> api/thread_attr.h: fork.c holds the entry points weft_thread_attr_set_fork,
#     weft_thread_attr_get_fork and weft_thread_get_fork next to the technique table.
#   tool -> pool, unit: the code behind three hooks reads what it observes: a stack dump
#     walks the pools and names each unit (stack_dump.c), the overflow handler finds the
#     unit whose stack overflowed (overflow.c), the tracer samples pool sizes
#     (trace_record.c).  Their headers include only base.
EXCEPTIONS="
core/pool/pool.h core/sched/idle.h
core/unit* core/sched/sched.h
core/unit* core/sched/loop.h
core/unit/* core/api/thread_attr.h
core/tool/stack_dump.c core/pool/pool.h
core/tool/stack_dump.c core/unit*
core/tool/overflow.c core/unit*
core/tool/trace_record.c core/pool/pool.h
"

core_excepted() { # file target
  local f t
  while read -r f t; do
    [ -n "$f" ] || continue
    # shellcheck disable=SC2254
    case "$1" in $f) case "$2" in $t) return 0 ;; esac ;; esac
  done <<<"$EXCEPTIONS"
  return 1
}

bad=0
while IFS= read -r f; do
  layer=${f%%/*}
  lr=$(rank "$layer")
  if [ "$lr" -lt 0 ]; then
    echo "$f: file outside any layer (add its folder to scripts/check_layers.sh and docs/architecture.md)"
    bad=1; continue
  fi
  if [ "$layer" = core ] && [ -z "$(core_room "$f")" ]; then
    echo "$f: file outside any room of core (add it to a room, scripts/check_layers.sh and docs/architecture.md)"
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
    elif [ "$layer" = core ] && [ "$tl" = core ]; then
      fr=$(core_room "$f"); to=$(core_room "$target")
      if [ -z "$to" ]; then
        echo "$f:$line: include \"$target\": a core header outside any room"
        bad=1
      elif [ "$(core_rank "$to")" -gt "$(core_rank "$fr")" ] && ! core_excepted "$f" "$target"; then
        echo "$f:$line: room $fr reaches up into room $to (\"$target\"; order: base < tool < pool < unit < sched < stream < api)"
        bad=1
      fi
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
