/* tests/internal_arch_context.c - the context-switch primitive alone (src/arch/context.h),
 * whichever backend the build picked: assembly or ucontext.
 *
 * Covers: starting a context on a malloc'd stack (stack alignment at entry, unwinders stop
 * there), 1000 round trips handing data both ways with every callee-saved register
 * checked on both sides, jumping out of a finished context and reusing its stack, nested
 * starts resumed out of order, the FP control state (rounding mode, flush-to-zero)
 * travelling with each context, and a context resumed on another OS thread.  FP *status*
 * flags are deliberately not tested (the contract leaves them with the hardware thread,
 * and the ucontext fallback cannot honour that).
 *
 * Optional: -DWEFT_CONTEXT_UCONTEXT=0 (assembly backend) adds the check that a fresh
 * context starts with frame pointer and return address 0.  With <valgrind/valgrind.h>
 * the test stacks are registered, so Valgrind runs it without stack-switch noise.
 *
 * Exit 0 pass, 1 fail.  Each failed check prints its file, line and expression. */
#include "arch/context.h"

#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "arch_test.h"

/* Tokens with the high bits set, so a truncated or mixed-up word is noticed. */
#define TOK(i)   ((void *)((~(uintptr_t)0 / 3) ^ (uintptr_t)(i)))
#define UNTOK(p) ((uintptr_t)(p) ^ (~(uintptr_t)0 / 3))

/* ---- stacks ---------------------------------------------------------------------- */

#define STACK_SIZE ((size_t)256 * 1024)

struct stack {
    char *base;
    void *top;
    unsigned vg_id;
};

static void stack_init(struct stack *s)
{
    s->base = malloc(STACK_SIZE);
    if (!s->base) {
        perror("malloc");
        exit(1);
    }
    /* Fill it, so that a context reading stale stack memory does not read zeros. */
    memset(s->base, 0xa5, STACK_SIZE);
    s->top = (void *)(((uintptr_t)s->base + STACK_SIZE) & ~(uintptr_t)15);
#ifdef HAVE_VALGRIND_H
    s->vg_id = VALGRIND_STACK_REGISTER(s->base, s->base + STACK_SIZE);
#else
    s->vg_id = 0;
#endif
}

static void stack_fini(struct stack *s)
{
#ifdef HAVE_VALGRIND_H
    VALGRIND_STACK_DEREGISTER(s->vg_id);
#endif
    free(s->base);
    s->base = NULL;
}

/* ---- register pressure ------------------------------------------------------------
 * Two layers.  canary_switch (x86-64 and AArch64 only) loads every callee-saved register
 * of the ABI with a value derived from a seed, switches, and reports any register that
 * came back different: this holds at any optimisation level.  pressured_switch keeps ten
 * integers and eight doubles, each from its own volatile load (so the compiler cannot
 * recompute them), live across the switch the way optimised C code does.  Both sides of
 * the ping-pong use different seeds, so a register the switch fails to save or restore
 * shows up as the other side's value. */

#if defined(__x86_64__) || defined(__aarch64__)
#define HAVE_CANARY_SWITCH 1
/* Returns the OR of (expected ^ actual) over the callee-saved registers, 0 if all came
 * back intact; the switch's own return value is stored to *ret. */
__attribute__((visibility("hidden"))) uintptr_t
canary_switch(weft_ctx *from, weft_ctx to, void *data, void **ret, uintptr_t seed);
#endif

#if defined(__x86_64__)
/* rdi from, rsi to, rdx data, rcx ret, r8 seed */
__asm__(".text\n"
        ".p2align 4\n"
        ".type canary_switch, @function\n"
        "canary_switch:\n"
        "  pushq %rbp\n pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n pushq %r15\n"
        "  pushq %rcx\n pushq %r8\n subq $8, %rsp\n" /* 16-byte aligned for the call */
        "  leaq 0x1111(%r8), %rbx\n leaq 0x2222(%r8), %rbp\n leaq 0x3333(%r8), %r12\n"
        "  leaq 0x4444(%r8), %r13\n leaq 0x5555(%r8), %r14\n leaq 0x6666(%r8), %r15\n"
        "  call weft_ctx_switch\n"
        "  addq $8, %rsp\n popq %r8\n popq %rcx\n"
        "  movq %rax, (%rcx)\n"
        "  xorl %eax, %eax\n"
        "  leaq 0x1111(%r8), %rdx\n xorq %rbx, %rdx\n orq %rdx, %rax\n"
        "  leaq 0x2222(%r8), %rdx\n xorq %rbp, %rdx\n orq %rdx, %rax\n"
        "  leaq 0x3333(%r8), %rdx\n xorq %r12, %rdx\n orq %rdx, %rax\n"
        "  leaq 0x4444(%r8), %rdx\n xorq %r13, %rdx\n orq %rdx, %rax\n"
        "  leaq 0x5555(%r8), %rdx\n xorq %r14, %rdx\n orq %rdx, %rax\n"
        "  leaq 0x6666(%r8), %rdx\n xorq %r15, %rdx\n orq %rdx, %rax\n"
        "  popq %r15\n popq %r14\n popq %r13\n popq %r12\n popq %rbx\n popq %rbp\n"
        "  ret\n"
        ".size canary_switch, .-canary_switch\n");
#elif defined(__aarch64__)
/* x0 from, x1 to, x2 data, x3 ret, x4 seed.  x19-x29 and d8-d15 get seed+1 .. seed+19. */
#define CANARY_CHECK_X(reg, k) "  add x9, x4, #" #k "\n eor x9, x9, " #reg "\n orr x0, x0, x9\n"
#define CANARY_CHECK_D(reg, k) \
    "  add x9, x4, #" #k "\n fmov x10, " #reg "\n eor x9, x9, x10\n orr x0, x0, x9\n"
__asm__(".text\n"
        ".p2align 4\n"
        ".type canary_switch, %function\n"
        "canary_switch:\n"
        "  hint #34\n" /* bti c */
        "  stp x29, x30, [sp, #-176]!\n"
        "  stp x19, x20, [sp, #16]\n stp x21, x22, [sp, #32]\n stp x23, x24, [sp, #48]\n"
        "  stp x25, x26, [sp, #64]\n stp x27, x28, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n stp d10, d11, [sp, #112]\n stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n stp x3, x4, [sp, #160]\n"
        "  add x19, x4, #1\n add x20, x4, #2\n add x21, x4, #3\n add x22, x4, #4\n"
        "  add x23, x4, #5\n add x24, x4, #6\n add x25, x4, #7\n add x26, x4, #8\n"
        "  add x27, x4, #9\n add x28, x4, #10\n add x29, x4, #11\n"
        "  add x9, x4, #12\n fmov d8, x9\n add x9, x4, #13\n fmov d9, x9\n"
        "  add x9, x4, #14\n fmov d10, x9\n add x9, x4, #15\n fmov d11, x9\n"
        "  add x9, x4, #16\n fmov d12, x9\n add x9, x4, #17\n fmov d13, x9\n"
        "  add x9, x4, #18\n fmov d14, x9\n add x9, x4, #19\n fmov d15, x9\n"
        "  bl weft_ctx_switch\n"
        "  ldp x3, x4, [sp, #160]\n"
        "  str x0, [x3]\n"
        "  mov x0, #0\n" CANARY_CHECK_X(x19, 1) CANARY_CHECK_X(x20, 2) CANARY_CHECK_X(x21, 3)
            CANARY_CHECK_X(x22, 4) CANARY_CHECK_X(x23, 5) CANARY_CHECK_X(x24, 6)
                CANARY_CHECK_X(x25, 7) CANARY_CHECK_X(x26, 8) CANARY_CHECK_X(x27, 9)
                    CANARY_CHECK_X(x28, 10) CANARY_CHECK_X(x29, 11) CANARY_CHECK_D(d8, 12)
                        CANARY_CHECK_D(d9, 13) CANARY_CHECK_D(d10, 14) CANARY_CHECK_D(d11, 15)
                            CANARY_CHECK_D(d12, 16) CANARY_CHECK_D(d13, 17) CANARY_CHECK_D(d14, 18)
                                CANARY_CHECK_D(
                                    d15, 19) "  ldp x19, x20, [sp, #16]\n ldp x21, x22, [sp, "
                                             "#32]\n ldp x23, x24, [sp, #48]\n"
                                             "  ldp x25, x26, [sp, #64]\n ldp x27, x28, [sp, #80]\n"
                                             "  ldp d8, d9, [sp, #96]\n ldp d10, d11, [sp, #112]\n "
                                             "ldp d12, d13, [sp, #128]\n"
                                             "  ldp d14, d15, [sp, #144]\n"
                                             "  ldp x29, x30, [sp], #176\n"
                                             "  ret\n"
                                             ".size canary_switch, .-canary_switch\n");
#endif

static void *checked_switch(weft_ctx *from, weft_ctx to, void *data, uintptr_t seed)
{
#ifdef HAVE_CANARY_SWITCH
    void *ret;
    uintptr_t bad = canary_switch(from, to, data, &ret, seed);
    CHECK(bad == 0);
    return ret;
#else
    (void)seed;
    return weft_ctx_switch(from, to, data);
#endif
}

static volatile uintptr_t pressure_int[10] = { 3, 5, 7, 11, 13, 17, 19, 23, 29, 31 };
static volatile double pressure_dbl[8] = { 1.5, 2.25, 3.125, 4.0625, 5.5, 6.75, 7.875, 8.5 };

static __attribute__((noinline)) void *pressured_switch(weft_ctx *from, weft_ctx to, void *data,
                                                        uintptr_t seed)
{
    uintptr_t a0 = pressure_int[0] * seed, a1 = pressure_int[1] * seed;
    uintptr_t a2 = pressure_int[2] * seed, a3 = pressure_int[3] * seed;
    uintptr_t a4 = pressure_int[4] * seed, a5 = pressure_int[5] * seed;
    uintptr_t a6 = pressure_int[6] * seed, a7 = pressure_int[7] * seed;
    uintptr_t a8 = pressure_int[8] * seed, a9 = pressure_int[9] * seed;
    double ds = (double)seed;
    double f0 = pressure_dbl[0] * ds, f1 = pressure_dbl[1] * ds;
    double f2 = pressure_dbl[2] * ds, f3 = pressure_dbl[3] * ds;
    double f4 = pressure_dbl[4] * ds, f5 = pressure_dbl[5] * ds;
    double f6 = pressure_dbl[6] * ds, f7 = pressure_dbl[7] * ds;

    void *ret = checked_switch(from, to, data, seed * 0x10001);

    int ibad = 0, fbad = 0;
    ibad += a0 != pressure_int[0] * seed;
    ibad += a1 != pressure_int[1] * seed;
    ibad += a2 != pressure_int[2] * seed;
    ibad += a3 != pressure_int[3] * seed;
    ibad += a4 != pressure_int[4] * seed;
    ibad += a5 != pressure_int[5] * seed;
    ibad += a6 != pressure_int[6] * seed;
    ibad += a7 != pressure_int[7] * seed;
    ibad += a8 != pressure_int[8] * seed;
    ibad += a9 != pressure_int[9] * seed;
    fbad += f0 != pressure_dbl[0] * ds;
    fbad += f1 != pressure_dbl[1] * ds;
    fbad += f2 != pressure_dbl[2] * ds;
    fbad += f3 != pressure_dbl[3] * ds;
    fbad += f4 != pressure_dbl[4] * ds;
    fbad += f5 != pressure_dbl[5] * ds;
    fbad += f6 != pressure_dbl[6] * ds;
    fbad += f7 != pressure_dbl[7] * ds;
    CHECK(!ibad);
    CHECK(!fbad);
    return ret;
}

/* ---- a fresh context: alignment and unwinding ------------------------------------- */

static _Unwind_Reason_Code count_frame(struct _Unwind_Context *uc, void *arg)
{
    (void)uc;
    return ++*(int *)arg > 64 ? _URC_NORMAL_STOP : _URC_NO_REASON;
}

/* Called first thing in a fresh context: the unwinder must find the end of the stack
 * within a few frames (the backend leaves a zero return address / undefined caller). */
static __attribute__((noinline)) void check_fresh_context(void)
{
    int frames = 0;
    _Unwind_Reason_Code rc = _Unwind_Backtrace(count_frame, &frames);
    CHECK(rc == _URC_END_OF_STACK);
    CHECK(frames >= 2 && frames <= 8);

    /* A frame pointer is forced here; it is 16-byte aligned iff the stack pointer the
     * context started with was aligned as the ABI requires. */
    CHECK(((uintptr_t)__builtin_frame_address(0) & 15) == 0);
    /* A variadic call with FP arguments: the x86-64 callee spills the vector registers
     * with aligned stores, which fault on a misaligned stack. */
    char buf[64];
    snprintf(buf, sizeof buf, "%.3f %.3f", 1.25, 2.5);
    CHECK(strcmp(buf, "1.250 2.500") == 0);
}

/* ---- 1. ping-pong ------------------------------------------------------------------ */

#define ROUNDS   1000
#define TOK_DONE TOK(0xd0e)

static weft_ctx pp_main, pp_co;

static void pingpong_fn(void *arg)
{
    check_fresh_context();
    CHECK(arg == TOK(0));
    for (uintptr_t i = 0; i < ROUNDS; i++) {
        void *r = pressured_switch(&pp_co, pp_main, TOK(2 * i + 1), 7 + i);
        if (r != TOK(2 * i + 2)) {
            CHECK(r == TOK(2 * i + 2));
            break;
        }
    }
    weft_ctx_jump(pp_main, TOK_DONE); /* out of a finished context */
}

static void test_pingpong(void)
{
    struct stack s;
    stack_init(&s);
    void *r = weft_ctx_start(&pp_main, s.top, pingpong_fn, TOK(0));
    uintptr_t i;
    for (i = 0; i < ROUNDS; i++) {
        if (r != TOK(2 * i + 1))
            break;
        r = pressured_switch(&pp_main, pp_co, TOK(2 * i + 2), 1000003 + i);
    }
    CHECK(i == ROUNDS);
    CHECK(r == TOK_DONE);
    stack_fini(&s);
}

/* ---- 2. the registers a fresh context starts with ---------------------------------
 * fresh_entry is an assembly stub used as the context function: it records the frame
 * pointer, return address and stack pointer it was entered with, then tail-jumps to C.
 * The stack must be aligned as after a call on every backend.  That the frame pointer and
 * return address are 0 (so frame-pointer walkers and unwinders stop there) is a property
 * of the assembly backends only; the build says which backend it is by defining
 * WEFT_CONTEXT_UCONTEXT to 0 or 1 (when it does not, that part is not checked). */

#if defined(WEFT_CONTEXT_UCONTEXT) && !WEFT_CONTEXT_UCONTEXT
#define CHECK_ENTRY_ZEROS 1
#else
#define CHECK_ENTRY_ZEROS 0
#endif

static weft_ctx entry_main;

__attribute__((visibility("hidden"))) uintptr_t fresh_regs[3]; /* fp, return address, sp */
__attribute__((visibility("hidden"))) void fresh_entry(void *arg);
__attribute__((visibility("hidden"), noreturn)) void fresh_entry_c(void *arg);

#if defined(__x86_64__)
#define HAVE_FRESH_ENTRY 1
#define ENTRY_SP_MOD16   8 /* as after a call */
__asm__(".text\n"
        ".p2align 4\n"
        ".type fresh_entry, @function\n"
        "fresh_entry:\n"
        "  endbr64\n"
        "  movq %rbp, fresh_regs(%rip)\n"
        "  movq (%rsp), %rax\n"
        "  movq %rax, fresh_regs+8(%rip)\n"
        "  movq %rsp, fresh_regs+16(%rip)\n"
        "  jmp fresh_entry_c\n"
        ".size fresh_entry, .-fresh_entry\n");
#elif defined(__aarch64__)
#define HAVE_FRESH_ENTRY 1
#define ENTRY_SP_MOD16   0
__asm__(".text\n"
        ".p2align 4\n"
        ".type fresh_entry, %function\n"
        "fresh_entry:\n"
        "  hint #34\n" /* bti c */
        "  adrp x9, fresh_regs\n"
        "  add x9, x9, :lo12:fresh_regs\n"
        "  stp x29, x30, [x9]\n"
        "  mov x10, sp\n"
        "  str x10, [x9, #16]\n"
        "  b fresh_entry_c\n"
        ".size fresh_entry, .-fresh_entry\n");
#else
#define HAVE_FRESH_ENTRY 0
void fresh_entry(void *arg) { fresh_entry_c(arg); }
#endif

void fresh_entry_c(void *arg)
{
#if HAVE_FRESH_ENTRY
    CHECK((fresh_regs[2] & 15) == ENTRY_SP_MOD16);
    if (CHECK_ENTRY_ZEROS) {
        CHECK(fresh_regs[0] == 0); /* frame pointer */
        CHECK(fresh_regs[1] == 0); /* return address */
    }
#endif
    check_fresh_context();
    weft_ctx_jump(entry_main, arg);
}

static void test_entry(void)
{
    struct stack s;
    stack_init(&s);
    void *r = weft_ctx_start(&entry_main, s.top, fresh_entry, TOK(40));
    CHECK(r == TOK(40));
    stack_fini(&s);
}

/* ---- 3. start and jump straight back, reusing one stack --------------------------- */

static weft_ctx quick_main;

static void quick_fn(void *arg) { weft_ctx_jump(quick_main, TOK(UNTOK(arg) + 1)); }

static void test_quick(void)
{
    struct stack s;
    stack_init(&s);
    for (uintptr_t i = 0; i < 100; i++) {
        void *r = weft_ctx_start(&quick_main, s.top, quick_fn, TOK(i));
        CHECK(r == TOK(i + 1));
    }
    stack_fini(&s);
}

/* ---- 4. nested starts, resumed out of order ---------------------------------------- */

static weft_ctx n_main, n_a, n_b;
static struct stack n_stack_b;
static int n_log[8], n_len;

static void n_step(int step)
{
    if (n_len < 8)
        n_log[n_len] = step;
    n_len++;
}

static void nested_b(void *arg)
{
    CHECK(arg == TOK(20));
    n_step(2);
    void *r = weft_ctx_switch(&n_b, n_a, TOK(21)); /* back into A's weft_ctx_start */
    CHECK(r == TOK(24));                           /* resumed by main, not by A */
    n_step(5);
    weft_ctx_jump(n_a, TOK(25));
}

static void nested_a(void *arg)
{
    check_fresh_context();
    CHECK(arg == TOK(10));
    n_step(1);
    /* a start from inside a started context */
    void *r = weft_ctx_start(&n_a, n_stack_b.top, nested_b, TOK(20));
    CHECK(r == TOK(21));
    n_step(3);
    r = weft_ctx_switch(&n_a, n_main, TOK(22));
    CHECK(r == TOK(25)); /* resumed by B's jump */
    n_step(6);
    weft_ctx_jump(n_main, TOK(26));
}

/* A chain of starts DEPTH deep; the innermost jumps straight back to the outermost
 * starter, abandoning every context in between. */
#define DEPTH 8
static weft_ctx chain_ctx[DEPTH + 1];
static struct stack chain_stack[DEPTH];

static void chain_fn(void *arg)
{
    uintptr_t level = UNTOK(arg);
    if (level == DEPTH)
        weft_ctx_jump(chain_ctx[0], TOK(100 + level));
    void *r = weft_ctx_start(&chain_ctx[level], chain_stack[level].top, chain_fn, TOK(level + 1));
    (void)r;
    CHECK(!"an abandoned context was resumed");
    abort();
}

static void test_nested(void)
{
    struct stack sa;
    stack_init(&sa);
    stack_init(&n_stack_b);
    n_step(0);
    void *r = weft_ctx_start(&n_main, sa.top, nested_a, TOK(10));
    CHECK(r == TOK(22));
    n_step(4);
    r = weft_ctx_switch(&n_main, n_b, TOK(24)); /* resume B directly */
    CHECK(r == TOK(26));
    n_step(7);
    CHECK(n_len == 8);
    for (int i = 0; i < 8 && i < n_len; i++)
        CHECK(n_log[i] == i);
    stack_fini(&n_stack_b);
    stack_fini(&sa);

    for (int i = 0; i < DEPTH; i++)
        stack_init(&chain_stack[i]);
    r = weft_ctx_start(&chain_ctx[0], chain_stack[0].top, chain_fn, TOK(1));
    CHECK(r == TOK(100 + DEPTH));
    for (int i = 0; i < DEPTH; i++)
        stack_fini(&chain_stack[i]);
}

/* ---- 5. FP control state travels with the context ---------------------------------- */

/* The control state is read and written directly on the two architectures with an
 * assembly backend (x86-64: both the MXCSR and the x87 control word, which must agree;
 * AArch64: FPCR), so the test needs no libm; elsewhere <fenv.h> is used.  Rounding modes
 * are numbered RN, RU, RD, RZ below. */
enum { RN, RU, RD, RZ, NMODES };

#if defined(__x86_64__)
static unsigned mxcsr_get(void)
{
    unsigned v;
    __asm__ volatile("stmxcsr %0" : "=m"(v));
    return v;
}
static void mxcsr_set(unsigned v) { __asm__ volatile("ldmxcsr %0" ::"m"(v)); }
static const unsigned hw_rc[NMODES] = { 0, 2, 1, 3 }; /* RC field encoding, SSE and x87 alike */
static int round_get(void)
{
    unsigned short cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    unsigned sse = (mxcsr_get() >> 13) & 3, x87 = (cw >> 10) & 3u;
    for (int m = 0; m < NMODES; m++)
        if (hw_rc[m] == sse && hw_rc[m] == x87)
            return m;
    return -1; /* SSE and x87 disagree: half of the state travelled */
}
static void round_set(int m)
{
    unsigned short cw;
    mxcsr_set((mxcsr_get() & ~0x6000u) | hw_rc[m] << 13);
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    cw = (unsigned short)((cw & ~0xc00u) | hw_rc[m] << 10);
    __asm__ volatile("fldcw %0" ::"m"(cw));
}
#define HAVE_FTZ 1
static int ftz_get(void) { return (mxcsr_get() >> 15) & 1; }
static void ftz_set(int on) { mxcsr_set((mxcsr_get() & ~0x8000u) | (on ? 0x8000u : 0)); }

#elif defined(__aarch64__)
static uint64_t fpcr_get(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, fpcr" : "=r"(v));
    return v;
}
static void fpcr_set(uint64_t v) { __asm__ volatile("msr fpcr, %0" ::"r"(v)); }
static const unsigned hw_rc[NMODES] = { 0, 1, 2, 3 }; /* FPCR.RMode: RN, RP, RM, RZ */
static int round_get(void)
{
    unsigned rc = (unsigned)(fpcr_get() >> 22) & 3;
    for (int m = 0; m < NMODES; m++)
        if (hw_rc[m] == rc)
            return m;
    return -1;
}
static void round_set(int m)
{
    fpcr_set((fpcr_get() & ~((uint64_t)3 << 22)) | (uint64_t)hw_rc[m] << 22);
}
#define HAVE_FTZ 1
static int ftz_get(void) { return (int)((fpcr_get() >> 24) & 1); }
static void ftz_set(int on)
{
    fpcr_set((fpcr_get() & ~((uint64_t)1 << 24)) | (uint64_t)(on != 0) << 24);
}

#elif defined(FE_TONEAREST) && defined(FE_UPWARD) && defined(FE_DOWNWARD) && defined(FE_TOWARDZERO)
static const int fe_mode[NMODES] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
static int round_get(void)
{
    int fe = fegetround();
    for (int m = 0; m < NMODES; m++)
        if (fe_mode[m] == fe)
            return m;
    return -1;
}
static void round_set(int m) { fesetround(fe_mode[m]); }
#define HAVE_FTZ 0
static int ftz_get(void) { return 0; }
static void ftz_set(int on) { (void)on; }

#else
#define NO_ROUNDING_MODES 1
static int round_get(void) { return RN; }
static void round_set(int m) { (void)m; }
#define HAVE_FTZ          0
static int ftz_get(void) { return 0; }
static void ftz_set(int on) { (void)on; }
#endif

/* 1/10 and -1/10 are inexact and round differently under each of the four modes, so the
 * pair tells which mode the arithmetic really uses, not just what the register says. */
static volatile double fp_one = 1.0, fp_ten = 10.0;
static double fp_sig[NMODES][2];
static int fp_check_arith; /* 0 where the FP unit ignores the mode (e.g. under Valgrind) */
static int fp_check_ftz;   /* 0 where the flush-to-zero bit does not stick */

static void fp_signature(double out[2])
{
    out[0] = fp_one / fp_ten;
    out[1] = -fp_one / fp_ten;
}

/* Does this context's FP unit use rounding mode m and flush-to-zero setting ftz? */
static __attribute__((noinline)) int fp_state_is(int m, int ftz)
{
    double sig[2];
    if (round_get() != m)
        return 0;
    if (fp_check_arith) {
        fp_signature(sig);
        if (memcmp(sig, fp_sig[m], sizeof sig) != 0)
            return 0;
    }
    return !fp_check_ftz || ftz_get() == ftz;
}

static __attribute__((noinline)) void fp_state_set(int m, int ftz)
{
    round_set(m);
    if (fp_check_ftz)
        ftz_set(ftz);
}

/* Mode each side sets in round k; equal in some rounds, so that the "same as the live
 * value, skip the write" path is taken too. */
#define FP_ROUNDS 8
static const int fp_main_mode[FP_ROUNDS] = { RN, RZ, RU, RD, RD, RN, RZ, RU };
static const int fp_co_mode[FP_ROUNDS] = { RU, RD, RZ, RD, RN, RN, RU, RZ };

static weft_ctx fp_main, fp_co;

static void fp_fn(void *arg)
{
    (void)arg;
    for (int k = 0; k < FP_ROUNDS; k++) {
        fp_state_set(fp_co_mode[k], k & 1);
        weft_ctx_switch(&fp_co, fp_main, NULL);
        CHECK(fp_state_is(fp_co_mode[k], k & 1)); /* main's setting did not leak in */
    }
    fp_state_set(RD, 1);
    weft_ctx_jump(fp_main, NULL); /* the jump path restores the control state too */
}

static void test_fp_control(void)
{
#ifdef NO_ROUNDING_MODES
    fprintf(stderr, "fp_control: no rounding-mode control on this target, skipped\n");
    return;
#endif
    /* What does this environment honour? */
    fp_check_arith = 1;
    for (int m = 0; m < NMODES; m++) {
        round_set(m);
        CHECK(round_get() == m);
        fp_signature(fp_sig[m]);
        for (int j = 0; j < m; j++)
            if (memcmp(fp_sig[m], fp_sig[j], sizeof fp_sig[m]) == 0)
                fp_check_arith = 0;
    }
    round_set(RN);
    ftz_set(1);
    fp_check_ftz = HAVE_FTZ && ftz_get() == 1;
    ftz_set(0);
    if (!fp_check_arith)
        fprintf(stderr, "fp_control: arithmetic ignores the rounding mode here; "
                        "checking the control registers only\n");
    if (HAVE_FTZ && !fp_check_ftz)
        fprintf(stderr, "fp_control: flush-to-zero does not stick here; not checked\n");

    struct stack s;
    stack_init(&s);
    int mode = RN, ftz = 0;
    fp_state_set(mode, ftz);
    weft_ctx_start(&fp_main, s.top, fp_fn, NULL);
    for (int k = 0; k < FP_ROUNDS; k++) {
        CHECK(fp_state_is(mode, ftz)); /* the context's setting did not leak out */
        mode = fp_main_mode[k];
        ftz = !(k & 1);
        fp_state_set(mode, ftz);
        weft_ctx_switch(&fp_main, fp_co, NULL);
    }
    CHECK(fp_state_is(mode, ftz)); /* after the context's jump */
    fp_state_set(RN, 0);
    stack_fini(&s);
}

/* ---- 6. resumed on another OS thread ----------------------------------------------- */

static weft_ctx m_main, m_co, m_thr;
static _Thread_local int thread_tag;

static __attribute__((noinline)) int read_thread_tag(void)
{
    __asm__ volatile("" ::: "memory");
    return thread_tag;
}

static void migrate_fn(void *arg)
{
    CHECK(arg == TOK(30));
    CHECK(read_thread_tag() == 1);
    void *r = weft_ctx_switch(&m_co, m_main, TOK(31));
    CHECK(r == TOK(32));           /* handed over by the other thread */
    CHECK(read_thread_tag() == 2); /* and we now run on it */
    weft_ctx_jump(m_thr, TOK(33));
}

static void *migrate_thread(void *arg)
{
    (void)arg;
    thread_tag = 2;
    void *r = weft_ctx_switch(&m_thr, m_co, TOK(32));
    CHECK(r == TOK(33));
    return NULL;
}

static void test_migrate(void)
{
    struct stack s;
    stack_init(&s);
    thread_tag = 1;
    void *r = weft_ctx_start(&m_main, s.top, migrate_fn, TOK(30));
    CHECK(r == TOK(31));
    pthread_t t;
    if (pthread_create(&t, NULL, migrate_thread, NULL) != 0) {
        fprintf(stderr, "migrate: pthread_create failed\n");
        failures++;
    } else {
        pthread_join(t, NULL);
    }
    stack_fini(&s);
}

int main(void)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        { "pingpong", test_pingpong },     { "entry", test_entry },
        { "quick", test_quick },           { "nested", test_nested },
        { "fp_control", test_fp_control }, { "migrate", test_migrate },
    };
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int before = failures;
        tests[i].run();
        if (failures == before) {
            passed++;
            printf("ok   %s\n", tests[i].name);
        } else {
            failed++;
            printf("FAIL %s\n", tests[i].name);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
