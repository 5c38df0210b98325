/* tests/internal_arch_lend.c - the early-return call alone (src/arch/lend.h), in the form
 * the build uses (x86-64: the assembly of lend_x86_64_sysv_elf_gas.S; elsewhere
 * __builtin_setjmp).  tests/internal_arch_lend_portable.c runs the same checks with
 * -DWEFT_LEND_PORTABLE, so both forms are tested on x86-64.
 *
 * Covers: a call whose function returns (values kept in the caller's registers survive,
 * the stack pointer is back where it was); a jump back from 40 frames down, the caller's
 * values intact; a jump from a nested call to the outer call's end, skipping the inner
 * one's; weft_lend_sp lying between the called frames and the caller's; 100,000 calls
 * and jumps without the stack pointer drifting.
 *
 * Exit 0 pass, 1 fail, 77 skip (ThreadSanitizer builds).  Each failed check prints its
 * file, line and expression. */
#include "arch/lend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define BEFORE_JUMP() __asan_handle_no_return() /* the frames jumped over */
#else
#define BEFORE_JUMP() ((void)0)
#endif

#include "arch_test.h"

struct job {
    weft_lend_buf buf;
    weft_lend_buf *outer; /* nested: where the inner function jumps */
    int depth;            /* frames to go down before returning or jumping */
    int jump;             /* 0: return; 1: jump back */
    uintptr_t sp_seen;    /* weft_lend_sp(&buf) as seen from the deepest frame */
    uintptr_t deep;       /* an address in the deepest frame */
    int reached;
};

static __attribute__((noinline)) uintptr_t here(void)
{
    return (uintptr_t)__builtin_frame_address(0);
}

static __attribute__((noinline)) void dive(struct job *j, int left)
{
    volatile char pad[64]; /* real frames, not a loop */
    pad[0] = (char)left;
    if (left > 0) {
        dive(j, left - 1);
        pad[1] = pad[0]; /* not a tail call */
        return;
    }
    j->deep = here();
    j->sp_seen = (uintptr_t)weft_lend_sp(&j->buf);
    j->reached = 1;
#if defined(__x86_64__)
    /* garbage in every callee-saved register (this frame saved the caller's, and a jump
     * skips its epilogue): a jump must restore them from the buffer */
    __asm__ volatile("mov $0x1111, %%rbx\n\tmov $0x2222, %%r12\n\tmov $0x3333, %%r13\n\t"
                     "mov $0x4444, %%r14\n\tmov $0x5555, %%r15"
                     :
                     :
                     : "rbx", "r12", "r13", "r14", "r15");
#endif
    if (j->outer) {
        BEFORE_JUMP();
        weft_lend_jump(j->outer);
    }
    if (j->jump) {
        BEFORE_JUMP();
        weft_lend_jump(&j->buf);
    }
}

static void body(void *arg)
{
    struct job *j = arg;
    dive(j, j->depth);
}

/* A value the compiler cannot recompute after the call: it has to keep it, in a
 * callee-saved register or in the frame. */
static __attribute__((noinline)) uint64_t mix(uint64_t seed, uint64_t k)
{
    __asm__ volatile("" : "+r"(seed));
    return seed * 0x9e3779b97f4a7c15ull + k;
}

/* Values live across the call, so that the compiler keeps some in callee-saved
 * registers: a return must keep them, a jump must restore them. */
static __attribute__((noinline)) int call_and_check(struct job *j, uint64_t seed)
{
    uint64_t v[8];
    for (int i = 0; i < 8; i++)
        v[i] = mix(seed, (uint64_t)i);
    uint64_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5];
    uintptr_t before = here();
    weft_lend_call(&j->buf, body, j);
    int ok = 1;
    ok &= a == mix(seed, 0);
    ok &= b == mix(seed, 1);
    ok &= c == mix(seed, 2);
    ok &= d == mix(seed, 3);
    ok &= e == mix(seed, 4);
    ok &= f == mix(seed, 5);
    ok &= here() == before;
    return ok;
}

/* The outer call's function makes an inner call whose function jumps to the outer end. */
static struct job outer_job, inner_job;
static void outer_body(void *arg)
{
    (void)arg;
    inner_job.outer = &outer_job.buf;
    inner_job.depth = 5;
    inner_job.jump = 0;
    weft_lend_call(&inner_job.buf, body, &inner_job);
    outer_job.reached = 99; /* never: the inner function jumps past this */
}

int main(void)
{
#ifdef UNDER_TSAN
    /* TSan's shadow call stack does not follow a jump over frames (weft does not lend in
     * such builds: core/unit/lend.c, "scheduler creation in the joiner") */
    fprintf(stderr, "SKIP: ThreadSanitizer cannot follow weft_lend_jump\n");
    return 77;
#endif
    /* a function that returns */
    struct job j = { .depth = 40, .jump = 0 };
    CHECK(call_and_check(&j, 12345));
    CHECK(j.reached);
    /* below the call's stack pointer lie the called frames, above it the caller's */
    CHECK(j.deep < j.sp_seen);
    CHECK(j.sp_seen < here());

    /* a jump back from 40 frames down */
    struct job k = { .depth = 40, .jump = 1 };
    CHECK(call_and_check(&k, 987654321));
    CHECK(k.reached);
    CHECK(k.deep < k.sp_seen);

    /* nested: the inner function jumps to the outer call's end */
    volatile int after_outer = 0;
    weft_lend_call(&outer_job.buf, outer_body, NULL);
    after_outer = 1;
    CHECK(after_outer == 1);
    CHECK(inner_job.reached);
    CHECK(outer_job.reached == 0);

    /* many calls and jumps: the stack pointer does not drift */
    uintptr_t sp0 = here();
    int all = 1;
    for (int i = 0; i < 100000; i++) {
        struct job m = { .depth = i % 4, .jump = i & 1 };
        all &= call_and_check(&m, (uint64_t)i);
        all &= m.reached;
    }
    CHECK(all);
    CHECK(here() == sp0);

    if (failures) {
        fprintf(stderr, "internal_arch_lend%s: %d check(s) failed\n",
                WEFT_LEND_NATIVE ? "" : " (portable)", failures);
        return 1;
    }
    printf("internal_arch_lend%s: ok\n", WEFT_LEND_NATIVE ? " (native)" : " (portable)");
    return 0;
}
