/* src/core/tool/debug_layout.c - what a debugger needs to read the runtime's structures with
 * no debug information and no inferior call: weft_debug_layout, a table of name/value
 * pairs (offsets, sizes, constants and the addresses of the registries), exported so
 * that it survives `strip` (it is in the dynamic symbol table).
 *
 * The gdb script (tools/gdb/weft.py, installed next to libweft.so for gdb's auto-load)
 * finds the table by its symbol, reads it from the process or the core file, and walks:
 *   streams   weft_g.by_rank[0 .. rank_cap) (NULL slots skipped);
 *   pools     weft_g.pools through all_next; schedulers weft_g.scheds through all_next;
 *   units     every live descriptor of the descriptor slabs (mem/desc.c's own table,
 *             "mem.layout": a live descriptor has nonzero flags), plus the primary ULT
 *             (weft_g.primary->main_unit), which has an allocation of its own.
 * Each entry is a name ("struct.field" for an offset, "sizeof.struct", "const.NAME",
 * "addr.NAME") and a value; the table ends with a NULL name.  A reader ignores names it
 * does not know and says which it misses, so the table grows without breaking readers.
 * The saved context of a parked ULT (unit.ctx) is the stack pointer of the frame that
 * src/arch/switch_<arch>.S describes; "ctx.*" gives its slots. */
#include <stddef.h>

#include "core/runtime.h"
#include "core/types.h"
#include "mem/mem.h"

// clang-format off
#define OFF(s, f) { #s "." #f, offsetof(struct s, f) }
#define SZ(s)     { "sizeof." #s, sizeof(struct s) }
#define K(n)      { "const." #n, (uintptr_t)(n) }
// clang-format on

WEFT_API const struct weft_debug_entry weft_debug_layout[] = {
    { "version", 1 },
    { "addr.weft_g", (uintptr_t)&weft_g },
    { "mem.layout", (uintptr_t)weft_desc_debug_layout },
    OFF(weft_global, primary),
    OFF(weft_global, by_rank),
    OFF(weft_global, rank_cap),
    OFF(weft_global, pools),
    OFF(weft_global, scheds),
    OFF(weft_global, init_count),
    SZ(weft_unit),
    SZ(weft_xstream),
    SZ(weft_pool),
    SZ(weft_sched),
    OFF(weft_unit, next),
    OFF(weft_unit, pool),
    OFF(weft_unit, fn),
    OFF(weft_unit, arg),
    OFF(weft_unit, ctx),
    OFF(weft_unit, stack),
    OFF(weft_unit, flags),
    OFF(weft_unit, stack_kind),
    OFF(weft_unit, in_pool),
    OFF(weft_unit, state),
    OFF(weft_unit, xs),
    OFF(weft_unit, joiner),
    OFF(weft_unit, stack_size),
    OFF(weft_unit, id),
    OFF(weft_unit, request),
    OFF(weft_unit, user_stack),
    OFF(weft_unit, sched),
    OFF(weft_stack, usable),
    { "const.WEFT_STACK_HEADER_SIZE", WEFT_STACK_HEADER_SIZE },
    OFF(weft_pool, head),
    OFF(weft_pool, size),
    OFF(weft_pool, ops),
    OFF(weft_pool, kind),
    OFF(weft_pool, access),
    OFF(weft_pool, id),
    OFF(weft_pool, num_scheds),
    OFF(weft_pool, num_blocked),
    OFF(weft_pool, all_next),
    OFF(weft_pool_ops, name),
    OFF(weft_pool_ops, size),
    OFF(weft_sched, pools),
    OFF(weft_sched, num_pools),
    OFF(weft_sched, predef),
    OFF(weft_sched, use),
    OFF(weft_sched, xs),
    OFF(weft_sched, unit),
    OFF(weft_sched, request),
    OFF(weft_sched, all_next),
    OFF(weft_xstream, cur),
    OFF(weft_xstream, sched),
    OFF(weft_xstream, main_sched),
    OFF(weft_xstream, rank),
    OFF(weft_xstream, primary),
    OFF(weft_xstream, state),
    OFF(weft_xstream, thread),
    OFF(weft_xstream, epoch),
    OFF(weft_xstream, main_unit),
    OFF(weft_xstream, os_stack_lo),
    OFF(weft_xstream, os_stack_size),
    K(WEFT_READY),
    K(WEFT_RUNNING),
    K(WEFT_BLOCKED),
    K(WEFT_TERMINATED),
    K(WEFT_U_ULT),
    K(WEFT_U_NAMED),
    K(WEFT_U_MAIN),
    K(WEFT_U_SCHED),
    K(WEFT_U_MAIN_SCHED),
    K(WEFT_REQ_SUSPENDED),
    K(WEFT_STACK_NONE),
    K(WEFT_STACK_CACHED),
    K(WEFT_STACK_OWNED),
    K(WEFT_STACK_USER),
    K(WEFT_STACK_OS),
    K(WEFT_STACK_BORROWED),
    K(WEFT_STACK_SC),
    K(WEFT_STACK_LENT),
    K(WEFT_XS_CREATED),
    K(WEFT_XS_RUNNING),
    K(WEFT_XS_TERMINATED),
#if defined(__x86_64__) && !WEFT_CONTEXT_UCONTEXT
    /* switch_x86_64_sysv_elf_gas.S: the saved frame, from the saved stack pointer */
    { "ctx.arch", 1 }, /* 1: x86-64 */
    { "ctx.r15", 0x08 },
    { "ctx.r14", 0x10 },
    { "ctx.r13", 0x18 },
    { "ctx.r12", 0x20 },
    { "ctx.rbx", 0x28 },
    { "ctx.rbp", 0x30 },
    { "ctx.pc", 0x38 },
    { "ctx.size", 0x40 }, /* the caller's stack pointer is ctx + size */
#else
    { "ctx.arch", 0 }, /* a layout the gdb script does not unwind */
#endif
    { NULL, 0 },
};
