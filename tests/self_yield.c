/* self_yield: ABT_self_yield in a ULT puts it back at the end of its pool: three
 * ULTs that each record and self-yield 3 times run round-robin (ABCABCABC) on one
 * xstream.  In a tasklet it returns ABT_ERR_INV_THREAD, from an external thread
 * ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <stdatomic.h>
#include <pthread.h>

static char rec[16];
static atomic_int pos;
static int task_rc = -1;

static void func(void *arg)
{
    for (int i = 0; i < 3; i++) {
        rec[atomic_fetch_add(&pos, 1)] = (char)(intptr_t)arg;
        CHECK_ABT(ABT_self_yield());
    }
}

static void task_func(void *arg)
{
    (void)arg;
    task_rc = ABT_self_yield();
}

static void *ext(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_self_yield(), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_create(pool, func, (void *)(intptr_t)('A' + i), ABT_THREAD_ATTR_NULL,
                                    &t[i]));
    for (int i = 0; i < 3; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    rec[atomic_load(&pos)] = 0;
    if (strcmp(rec, "ABCABCABC") != 0)
        TEST_FAIL("order %s, expected ABCABCABC", rec);

    ABT_task k;
    CHECK_ABT(ABT_task_create(pool, task_func, NULL, &k));
    CHECK_ABT(ABT_task_free(&k));
    CHECK_EQ_INT(task_rc, ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);
    CHECK_ABT(ABT_finalize());
    return 0;
}
