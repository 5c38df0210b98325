/* tests/trace/trace_events.c - a program that causes every event the tracer records, on
 * two streams, for tests/trace/check_trace.py (run with WEFT_TRACE set):
 *   create, run, finish   ULTs and tasklets in both streams' pools
 *   yield                 ULTs that yield
 *   block, resume         ULTs waiting on an eventual the primary ULT sets; joins
 *   migrate               a ULT moved to the other stream's pool before it runs
 *   steal                 stream 1's scheduler also takes from the primary stream's pool
 *   external thread       a pthread creates and joins a ULT (the locked buffer)
 * It also checks that ABT_info_print_config names the trace file.
 * WEFT_TEST_SLOW=1 (valgrind, sanitizers) scales the unit counts down. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "test.h"

static ABT_eventual ev;
static atomic_int waited;

static void yielder(void *arg)
{
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
}

static void waiter(void *arg)
{
    CHECK_ABT(ABT_eventual_wait(ev, NULL));
    atomic_fetch_add(&waited, 1);
}

static void task_fn(void *arg) { (void)arg; }

static void moved(void *arg) { (void)arg; }

static atomic_int stolen;

static void steal_me(void *arg) { atomic_fetch_add(&stolen, 1); }

static ABT_pool pool1;

static void *external(void *arg)
{
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool1, yielder, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    return NULL;
}

int main(void)
{
    const char *path = getenv("WEFT_TRACE");
    if (!path || !*path)
        TEST_SKIP("run by tests/trace/check_trace.py, which sets WEFT_TRACE");
    int n = getenv("WEFT_TEST_SLOW") ? 20 : 200;
    CHECK_ABT(ABT_init(0, NULL));

    /* ABT_info_print_config names the trace file */
    char cfg[8192] = { 0 };
    FILE *f = tmpfile();
    CHECK(f != NULL);
    CHECK_ABT(ABT_info_print_config(f));
    rewind(f);
    size_t len = fread(cfg, 1, sizeof cfg - 1, f);
    fclose(f);
    cfg[len] = 0;
    char want[4096];
    snprintf(want, sizeof want, "trace (WEFT_TRACE): %s", path);
    if (!strstr(cfg, want))
        TEST_FAIL("ABT_info_print_config does not say \"%s\":\n%s", want, cfg);

    ABT_xstream self;
    ABT_pool pool0;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pool0));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool1));
    /* stream 1 runs its own pool first, then the primary stream's: a pop there is a steal */
    ABT_pool pools1[2] = { pool1, pool0 };
    ABT_xstream xs1;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools1, ABT_SCHED_CONFIG_NULL, &xs1));

    /* units of the primary stream's pool that only stream 1 can run (the primary ULT
     * spins without yielding): steals */
    ABT_thread s[4];
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_create(pool0, steal_me, NULL, ABT_THREAD_ATTR_NULL, &s[i]));
    while (atomic_load(&stolen) < 4)
        usleep(100);
    for (int i = 0; i < 4; i++)
        CHECK_ABT(ABT_thread_free(&s[i]));

    /* a ULT moved before it ran, from a pool no scheduler takes from to stream 1's */
    ABT_pool parked;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parked));
    ABT_thread m;
    CHECK_ABT(ABT_thread_create(parked, moved, NULL, ABT_THREAD_ATTR_NULL, &m));
    CHECK_ABT(ABT_thread_migrate_to_pool(m, pool1));

    ABT_thread *t = calloc((size_t)n, sizeof *t);
    ABT_task *k = calloc((size_t)n, sizeof *k);
    CHECK(t && k);
    CHECK_ABT(ABT_eventual_create(0, &ev));
    int nwait = n / 10 + 1;
    for (int i = 0; i < nwait; i++)
        CHECK_ABT(
            ABT_thread_create(i % 2 ? pool1 : pool0, waiter, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = nwait; i < n; i++)
        CHECK_ABT(
            ABT_thread_create(i % 2 ? pool1 : pool0, yielder, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_task_create(i % 2 ? pool1 : pool0, task_fn, NULL, &k[i]));

    /* the waiters block on the eventual (the primary ULT lets them run first) */
    while (atomic_load(&waited) == 0) {
        ABT_bool blocked_all = ABT_TRUE;
        for (int i = 0; i < nwait; i++) {
            ABT_thread_state st;
            CHECK_ABT(ABT_thread_get_state(t[i], &st));
            if (st != ABT_THREAD_STATE_BLOCKED)
                blocked_all = ABT_FALSE;
        }
        if (blocked_all)
            break;
        ABT_thread_yield();
    }
    CHECK_ABT(ABT_eventual_set(ev, NULL, 0));

    pthread_t ext;
    CHECK(pthread_create(&ext, NULL, external, NULL) == 0);
    CHECK(pthread_join(ext, NULL) == 0);

    for (int i = 0; i < n; i++) {
        CHECK_ABT(ABT_thread_free(&t[i]));
        CHECK_ABT(ABT_task_free(&k[i]));
    }
    CHECK_ABT(ABT_thread_free(&m));
    CHECK_ABT(ABT_pool_free(&parked));
    CHECK_EQ_INT(atomic_load(&waited), nwait);
    CHECK_ABT(ABT_eventual_free(&ev));
    CHECK_ABT(ABT_xstream_join(xs1));
    CHECK_ABT(ABT_xstream_free(&xs1));
    free(t);
    free(k);
    CHECK_ABT(ABT_finalize());
    return 0;
}
