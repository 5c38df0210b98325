/* overflow_lent_deep_ok: ULTs that use nearly all of their 16 KiB stack size, each joined
 * or freed fresh by the one before (so that, where a joiner lends its stack, each runs on
 * the primary ULT's stack below its joiner's frames: src/core/unit/lend.c, "a fresh unit on its
 * joiner's stack"), some of them yielding in the middle, run to their end without any
 * overflow report: the canary at the low end of a lent ULT's stack size is not mistaken
 * for an overrun when a ULT it joins covers it, nor when the ULT leaves the stack.  Four
 * levels, each using about 10/16 of its stack size in frames before it joins the next and
 * as much after.  Sanitizer and valgrind builds (WEFT_TEST_SLOW), whose frames are larger,
 * use 64 KiB stacks instead of 16 KiB: the proportions are the same. */
#include "test.h"

#include <stdint.h>

#define LEVELS 4

static ABT_pool pool;
static volatile unsigned sink;
static size_t use; /* the frames each level uses before and after its join */

/* about `bytes` of frames in 512-byte steps, every byte touched, then `then(arg)` */
__attribute__((noinline)) static unsigned deep(size_t bytes, void (*then)(void *), void *arg)
{
    volatile char frame[512];
    for (size_t i = 0; i < sizeof(frame); i++)
        frame[i] = (char)(i + bytes);
    unsigned r;
    if (bytes > sizeof(frame) + 256)
        r = deep(bytes - sizeof(frame) - 64, then, arg);
    else {
        if (then)
            then(arg);
        r = 0;
    }
    return r + frame[bytes % sizeof(frame)]; /* not a tail call */
}

static void level(void *arg);

static void join_next(void *arg)
{
    intptr_t n = (intptr_t)arg;
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, level, (void *)(n + 1), ABT_THREAD_ATTR_NULL, &t));
    if (n % 2)
        CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
}

static void yield_once(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
}

static void level(void *arg)
{
    intptr_t n = (intptr_t)arg;
    if (n + 1 < LEVELS)
        sink += deep(use, join_next, arg);
    /* and deeper once the next level is done, yielding at the bottom on odd levels */
    sink += deep(use, n % 2 ? yield_once : NULL, NULL);
}

static void other(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    size_t stack = getenv("WEFT_TEST_SLOW") ? (size_t)64 << 10 : (size_t)16 << 10;
    use = stack / 16 * 10;
    char v[32];
    snprintf(v, sizeof(v), "%zu", stack);
    setenv("ABT_THREAD_STACKSIZE", v, 1);
    unsetenv("ABT_STACK_OVERFLOW_CHECK");
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    CHECK_ABT(ABT_self_get_xstream(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    for (int round = 0; round < 4; round++) {
        ABT_thread o, t;
        /* a ULT to yield to, so that a yield leaves the stack */
        CHECK_ABT(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &o));
        CHECK_ABT(ABT_thread_create(pool, level, (void *)(intptr_t)(round % 2),
                                    ABT_THREAD_ATTR_NULL, &t));
        if (round >= 2)
            CHECK_ABT(ABT_thread_join(t));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_ABT(ABT_thread_free(&o));
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
