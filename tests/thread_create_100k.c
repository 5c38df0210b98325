/* thread_create_100k: 100,000 named ULTs on the primary execution stream, created in
 * batches of 1,000 and joined/freed after each batch, all run exactly once.  Must be
 * fast (well under a second in a Release build). */
#include "test.h"

#define TOTAL 100000
#define BATCH 1000
static unsigned char ran[TOTAL];

static void func(void *arg) { ran[(intptr_t)arg]++; }

int main(int argc, char **argv)
{
    const int total = TOTAL / test_scale_div(); /* fewer under sanitizers */
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    static ABT_thread ts[BATCH];
    for (int base = 0; base < total; base += BATCH) {
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_create(pool, func, (void *)(intptr_t)(base + i),
                                        ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < BATCH; i++)
            CHECK_ABT(ABT_thread_free(&ts[i]));
    }
    for (int i = 0; i < total; i++)
        if (ran[i] != 1)
            TEST_FAIL("ULT %d ran %d times", i, ran[i]);
    CHECK_ABT(ABT_finalize());
    return 0;
}
