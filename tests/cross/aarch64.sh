#!/usr/bin/env bash
# tests/cross/aarch64.sh - cross-build the context-switch tests (tests/internal_arch_context.c,
# and tests/internal_arch_switch_release.c for the assembly backend) for AArch64 and run them
# under qemu user-mode emulation, on an x86-64 Debian/Ubuntu machine.
# CI runs it as the aarch64 configuration of scripts/test.sh, which installs the tools first
# and skips it with one message when they cannot be installed.
#
# Usage: tests/cross/aarch64.sh [asm|ucontext|all]      (default: all)
#
#   asm       src/arch/switch_arm64_aapcs_elf_gas.S at -O0 and -O2, and at -O2 with
#             -mbranch-protection=standard (PAC return-address signing + BTI landing pads;
#             qemu's default CPU implements both, so a signing mistake traps)
#   ucontext  src/arch/switch_ucontext.c, the portable fallback
#
# Installs gcc-aarch64-linux-gnu and qemu-user with apt-get when they are missing (as root,
# or through sudo).  Environment: CROSS_CC (default aarch64-linux-gnu-gcc), QEMU_LD_PREFIX
# (default /usr/aarch64-linux-gnu), WEFT_CROSS_OUT (where binaries go; default
# ${TMPDIR:-/tmp}/weft-cross-aarch64).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
what=${1:-all}
case $what in
asm | ucontext | all) ;;
*)
    echo "usage: $0 [asm|ucontext|all]" >&2
    exit 2
    ;;
esac

cc=${CROSS_CC:-aarch64-linux-gnu-gcc}
sysroot=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
out=${WEFT_CROSS_OUT:-${TMPDIR:-/tmp}/weft-cross-aarch64}

find_qemu() {
    command -v qemu-aarch64 || command -v qemu-aarch64-static || true
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        echo "aarch64.sh: need root (or sudo) to run: $*" >&2
        exit 1
    fi
}

# ---- toolchain and emulator --------------------------------------------------------
if ! command -v "$cc" >/dev/null || [ -z "$(find_qemu)" ]; then
    if ! command -v apt-get >/dev/null; then
        echo "aarch64.sh: $cc or qemu-aarch64 missing and no apt-get to install them" >&2
        exit 1
    fi
    echo "== installing the AArch64 cross compiler and qemu-user"
    as_root apt-get update -q
    install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc-aarch64-linux-gnu)
    as_root "${install[@]}" qemu-user || as_root "${install[@]}" qemu-user-static
fi
qemu=$(find_qemu)
if ! command -v "$cc" >/dev/null || [ -z "$qemu" ]; then
    echo "aarch64.sh: the cross compiler or qemu-aarch64 is still missing" >&2
    exit 1
fi
echo "== $("$cc" --version | head -n1)"
echo "== $("$qemu" --version | head -n1)"

# ---- build and run -------------------------------------------------------------------
mkdir -p "$out"
cflags=(-std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror -g
    -I"$root/src" -I"$root/tests" -pthread)

passed=0
failed=0
failed_names=()

# run_variant NAME TEST BACKEND_SOURCE EXTRA_FLAGS...   (TEST: tests/TEST.c)
run_variant() {
    local name=$1 test=$2 backend=$3
    shift 3
    local test_src=$root/tests/$test.c
    local exe=$out/$test.$name
    name="$test $name"
    echo "== $name: build"
    if ! "$cc" "${cflags[@]}" "$@" "$test_src" "$root/$backend" -o "$exe"; then
        failed=$((failed + 1))
        failed_names+=("$name (build)")
        return
    fi
    echo "== $name: run under $(basename "$qemu")"
    if QEMU_LD_PREFIX=$sysroot timeout 300 "$qemu" -L "$sysroot" "$exe"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failed_names+=("$name")
    fi
}

asm=src/arch/switch_arm64_aapcs_elf_gas.S
uctx=src/arch/switch_ucontext.c
if [ "$what" = asm ] || [ "$what" = all ]; then
    for t in internal_arch_context internal_arch_switch_release; do
        run_variant asm-O2 $t "$asm" -O2 -DWEFT_CONTEXT_UCONTEXT=0
        run_variant asm-O0 $t "$asm" -O0 -DWEFT_CONTEXT_UCONTEXT=0
        run_variant asm-O2-pac-bti $t "$asm" -O2 -DWEFT_CONTEXT_UCONTEXT=0 -mbranch-protection=standard
    done
fi
if [ "$what" = ucontext ] || [ "$what" = all ]; then
    run_variant ucontext-O2 internal_arch_context "$uctx" -O2 -DWEFT_CONTEXT_UCONTEXT=1
fi

echo "== binaries in $out"
for n in "${failed_names[@]+"${failed_names[@]}"}"; do
    echo "FAILED: $n"
done
echo "aarch64: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
