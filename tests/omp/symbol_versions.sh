#!/bin/sh
# tests/omp/symbol_versions.sh LIB - every GOMP_*/omp_* symbol libweft-omp exports has the
# version node libgomp exports it under (so a binary linked against libgomp binds to it),
# (a symbol this libgomp lacks, declared by omp.h, is noted), and the core entry points gcc 12 emits are all there.  Skips (77) without objdump or
# the system libgomp.
set -eu
lib=$1
gomp=$(ls /usr/lib/*-linux-gnu/libgomp.so.1 /usr/lib64/libgomp.so.1 2>/dev/null | head -1 || true)
command -v objdump >/dev/null 2>&1 && [ -n "$gomp" ] || exit 77
syms() { objdump -T "$1" | awk '$2=="g" && $4!="*UND*" && $NF ~ /^(GOMP_|omp_)/ {v=$(NF-1); gsub(/[()]/,"",v); print $NF, v}' | sort -u; }
syms "$lib" > ours.txt
syms "$gomp" > theirs.txt
fail=0
while read -r name ver; do
    if grep -q "^$name " theirs.txt && ! grep -qx "$name $ver" theirs.txt; then
        echo "symbol $name@$ver: libgomp has $(grep "^$name " theirs.txt | tr '\n' ' ')"
        fail=1
    elif ! grep -q "^$name " theirs.txt; then
        echo "note: $name@$ver is not exported by this libgomp (omp.h declares it)"
    fi
done < ours.txt
for s in "GOMP_parallel GOMP_4.0" "GOMP_parallel_start GOMP_1.0" "GOMP_task GOMP_2.0" \
         "GOMP_taskloop GOMP_4.5" "GOMP_loop_nonmonotonic_dynamic_start GOMP_4.5" \
         "GOMP_loop_ull_static_next GOMP_2.0" "GOMP_loop_start GOMP_5.0" \
         "omp_get_thread_num OMP_1.0" "omp_init_lock OMP_3.0" "omp_init_lock OMP_1.0" \
         "omp_in_final OMP_3.1" "omp_get_max_task_priority OMP_4.5" "omp_display_env OMP_5.1"; do
    grep -qx "$s" ours.txt || { echo "missing: $s"; fail=1; }
done
echo "$(wc -l < ours.txt) symbols checked"
exit $fail
