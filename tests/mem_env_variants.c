/* mem_env_variants: the memory settings change where stacks and descriptors come from,
 * never what programs see.  For each setting (huge-page arenas through
 * ABT_MEM_LP_ALLOC=thp and =mmap_hp_rp, caches disabled with ABT_MEM_MAX_NUM_STACKS=0
 * and ABT_MEM_MAX_NUM_DESCS=0, guard pages with ABT_STACK_OVERFLOW_CHECK=mprotect),
 * 2,000 ULTs that yield and 2,000 tasklets run on two streams, each exactly once, and
 * the stack of a ULT is usable over its whole size. */
#include "test.h"
#include <stdatomic.h>
#include <string.h>

#define N 2000
static atomic_int ran[N];

static void ult(void *arg)
{
    ABT_thread_yield();
    atomic_fetch_add(&ran[(intptr_t)arg], 1);
}

/* Bytes deep() touches: most of the default 16 KiB stack, less under
 * ABT_STACK_OVERFLOW_CHECK=mprotect, whose guard page is the lowest page of the 16 KiB
 * (the Argobots layout). */
static int depth = 12 * 1024;

static void deep(void *arg)
{
    volatile char buf[depth];
    memset((char *)buf, 1, sizeof(buf));
    atomic_fetch_add(&ran[(intptr_t)arg], buf[100]);
}

static void task(void *arg) { atomic_fetch_add(&ran[(intptr_t)arg], 1); }

static void run(const char *name, const char *value)
{
    setenv(name, value, 1);
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs[2];
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_self(&xs[0]));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));
    memset(ran, 0, sizeof(ran));
    static ABT_thread t[N];
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_create(pools[i % 2], i % 100 ? ult : deep, (void *)(intptr_t)i,
                                    ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_task_create(pools[i % 2], task, (void *)(intptr_t)i, NULL));
    CHECK_ABT(ABT_xstream_free(&xs[1]));
    CHECK_ABT(ABT_finalize()); /* waits for the unnamed tasklets */
    for (int i = 0; i < N; i++)
        if (atomic_load(&ran[i]) != 2)
            TEST_FAIL("%s=%s: unit %d ran %d times, expected 2", name, value, i,
                      atomic_load(&ran[i]));
    unsetenv(name);
}

int main(void)
{
    run("ABT_MEM_LP_ALLOC", "thp");
    run("ABT_MEM_LP_ALLOC", "mmap_hp_rp");
    run("ABT_MEM_MAX_NUM_STACKS", "0");
    run("ABT_MEM_MAX_NUM_DESCS", "0");
    depth = 8 * 1024;
    run("ABT_STACK_OVERFLOW_CHECK", "mprotect");
    return 0;
}
