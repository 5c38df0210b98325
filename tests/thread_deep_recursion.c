/* thread_deep_recursion: a ULT whose stack size is set to 64 KiB through
 * ABT_thread_attr_set_stacksize can use a good part of it (about 35 KiB of frames in
 * a recursion that keeps every frame's buffer live), and yields at the deepest point
 * so that a second such ULT runs interleaved; both compute the right result, and a
 * 512 KiB stack handles a deeper recursion. */
#include "test.h"
#include <stdint.h>

#define FRAME 256

static uint64_t recurse(int depth, int yield_at_bottom)
{
    volatile unsigned char buf[FRAME];
    for (int i = 0; i < FRAME; i++)
        buf[i] = (unsigned char)(depth + i);
    uint64_t sum = 0;
    if (depth > 0)
        sum = recurse(depth - 1, yield_at_bottom);
    else if (yield_at_bottom)
        CHECK_ABT(ABT_thread_yield());
    for (int i = 0; i < FRAME; i++)
        sum += buf[i];
    return sum;
}

static uint64_t expected(int depth)
{
    uint64_t s = 0;
    for (int d = 0; d <= depth; d++)
        for (int i = 0; i < FRAME; i++)
            s += (unsigned char)(d + i);
    return s;
}

struct job {
    int depth;
    uint64_t result;
};

static void func(void *arg)
{
    struct job *j = (struct job *)arg;
    j->result = recurse(j->depth, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 64 * 1024));
    /* 120 frames of > 256 bytes each: about 33 KiB (-O2) to 39 KiB (-O0) of the
     * 64 KiB. */
    struct job a = { 120, 0 }, b = { 120, 0 };
    ABT_thread ta, tb;
    CHECK_ABT(ABT_thread_create(pool, func, &a, attr, &ta));
    CHECK_ABT(ABT_thread_create(pool, func, &b, attr, &tb));
    CHECK_ABT(ABT_thread_free(&ta));
    CHECK_ABT(ABT_thread_free(&tb));
    CHECK_EQ_INT(a.result, expected(120));
    CHECK_EQ_INT(b.result, expected(120));

    CHECK_ABT(ABT_thread_attr_set_stacksize(attr, 512 * 1024));
    struct job c = { 1000, 0 };
    CHECK_ABT(ABT_thread_create(pool, func, &c, attr, &ta));
    CHECK_ABT(ABT_thread_free(&ta));
    CHECK_EQ_INT(c.result, expected(1000));

    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}
