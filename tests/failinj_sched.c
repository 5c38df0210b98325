/* failinj_sched: schedulers under allocation, mmap and pthread_create failure
 * (tests/failinj.h fails each traced call in turn).
 *
 * ABT_sched_create with a user definition (init/run/free, a config read by init),
 * ABT_sched_create_basic for BASIC, BASIC_WAIT, PRIO and RANDWS with and without pools,
 * ABT_sched_config_create, and a stacked scheduler (ABT_pool_add_sched) that runs ULTs
 * of its own pool under the primary stream's scheduler.  A failed scheduler creation
 * sets the handle to ABT_SCHED_NULL, a failed ABT_sched_config_create leaves it
 * untouched (Argobots 1.x); a failed ABT_pool_add_sched leaves the scheduler free to be
 * freed by the caller.  No failure may leak or crash. */
#include "failinj.h"

static ABT_sched_config_var cv_n = { .idx = 0, .type = ABT_SCHED_CONFIG_INT };
static int user_inits, user_frees;

static int u_init(ABT_sched sched, ABT_sched_config config)
{
    int n = 0;
    if (config != ABT_SCHED_CONFIG_NULL)
        FI_MUST(ABT_sched_config_read(config, 1, &n));
    user_inits++;
    return ABT_SUCCESS;
}

static void u_run(ABT_sched sched)
{
    ABT_pool pool;
    FI_MUST(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (;;) {
        ABT_thread t;
        FI_MUST(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL)
            FI_MUST(ABT_self_schedule(t, ABT_POOL_NULL));
        ABT_bool stop;
        FI_MUST(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        FI_MUST(ABT_xstream_check_events(sched));
    }
}

static int u_free(ABT_sched sched)
{
    user_frees++;
    return ABT_SUCCESS;
}

static void work(void *arg) { ABT_thread_yield(); }

static void feed(ABT_pool pool, int n)
{
    ABT_thread t[8];
    for (int i = 0; i < n; i++)
        if (!FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                         ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i])))
            t[i] = ABT_THREAD_NULL;
    for (int i = 0; i < n; i++)
        if (t[i] != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_free(&t[i]));
}

/* run `s` stacked: push it into the primary stream's pool, feed its own pool.  A user
 * scheduler is finished and freed here; a predefined one made by create_basic is
 * automatic and frees itself once it has left. */
static void run_stacked(ABT_sched s, ABT_pool own, int user)
{
    ABT_xstream self;
    ABT_pool main_pool;
    FI_MUST(ABT_xstream_self(&self));
    FI_MUST(ABT_xstream_get_main_pools(self, 1, &main_pool));
    if (!FI_OK(ABT_pool_add_sched(main_pool, s))) {
        FI_MUST(ABT_sched_free(&s));
        return;
    }
    feed(own, 4);
    if (user)
        FI_MUST(ABT_sched_finish(s));
    /* the stacked scheduler leaves once its pool is empty; then it can be freed */
    ABT_bool done = ABT_FALSE;
    while (!done) {
        FI_MUST(ABT_thread_yield());
        size_t n;
        FI_MUST(ABT_pool_get_total_size(main_pool, &n));
        done = n == 0;
    }
    for (int i = 0; i < 4; i++) /* let the scheduler's ULT end */
        FI_MUST(ABT_thread_yield());
    if (user)
        FI_MUST(ABT_sched_free(&s));
}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));

    /* user-defined, with a config, stacked */
    ABT_sched_config cfg;
    if (FI_OUT_KEEP(cfg, ABT_sched_config_create(&cfg, cv_n, 3, ABT_sched_config_var_end))) {
        ABT_pool pool;
        if (FI_OUT_NULL(pool, ABT_POOL_NULL,
                        ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                              &pool))) {
            ABT_sched_def def = {
                .type = ABT_SCHED_TYPE_ULT, .init = u_init, .run = u_run, .free = u_free
            };
            ABT_sched s;
            if (FI_OUT_NULL(s, ABT_SCHED_NULL, ABT_sched_create(&def, 1, &pool, cfg, &s)))
                run_stacked(s, pool, 1);
            else
                FI_MUST(ABT_pool_free(&pool));
        }
        FI_MUST(ABT_sched_config_free(&cfg));
    }
    if (user_inits != user_frees)
        FI_FAIL("user scheduler: %d inits, %d frees", user_inits, user_frees);

    /* predefined ones with runtime-made pools, stacked */
    static const ABT_sched_predef predefs[] = { ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT,
                                                ABT_SCHED_PRIO, ABT_SCHED_RANDWS };
    for (int i = 0; i < 4; i++) {
        ABT_sched s;
        if (!FI_OUT_NULL(s, ABT_SCHED_NULL,
                         ABT_sched_create_basic(predefs[i], 0, NULL, ABT_SCHED_CONFIG_NULL, &s)))
            continue;
        ABT_pool own;
        FI_MUST(ABT_sched_get_pools(s, 1, 0, &own));
        run_stacked(s, own, 0);
    }
    /* a predefined one on given pools (not automatic: freed by us) */
    ABT_pool pools[2] = { ABT_POOL_NULL, ABT_POOL_NULL };
    int np = 0;
    for (; np < 2; np++)
        if (!FI_OUT_NULL(pools[np], ABT_POOL_NULL,
                         ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                               &pools[np])))
            break;
    if (np == 2) {
        ABT_sched s;
        if (FI_OUT_NULL(s, ABT_SCHED_NULL,
                        ABT_sched_create_basic(ABT_SCHED_PRIO, 2, pools, ABT_SCHED_CONFIG_NULL,
                                               &s)))
            run_stacked(s, pools[1], 0);
    }
    for (int i = 0; i < np; i++)
        FI_MUST(ABT_pool_free(&pools[i]));
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_sched", program); }
