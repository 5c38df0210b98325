/* stress_pool_shared: shared MPMC pools under concurrent push, pop, pop_wait and remove
 * from two ULT workers and two external pthreads, while two streams' schedulers pop the
 * same pools.  Pools: S1 (FIFO) and S2 (FIFO_WAIT) are the scheduling pools of both
 * secondary streams; R (FIFO) and M (FIFO_WAIT) belong to no scheduler.  Each worker
 * repeatedly creates ULTs and tasklets into R and M, takes its own R units out again with
 * ABT_pool_remove (in random order, while the others push and remove theirs) and pushes
 * them to S1/S2, pops whatever is in M (ABT_pool_pop, ABT_pool_pop_wait_thread) and
 * pushes it to S1/S2, and joins its units.  The ULTs yield (the schedulers re-push them).
 * Checks: every unit runs exactly once, removal of one's own queued unit always succeeds,
 * pools end empty, nothing hangs (watchdog); under TSan, no data race in the pool paths. */
#include "stress_test.h"

#define BATCH        8
#define NULT_WORKERS 2
#define NEXT_WORKERS 2

static ABT_pool S[2], R, M;
static atomic_long created, ran;
static double deadline;
static int max_batches;

static void unit_ult(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
    ABT_thread_yield();
    ABT_thread_yield();
    atomic_fetch_add(&ran, 1);
}

static void unit_task(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
    atomic_fetch_add(&ran, 1);
}

/* Move whatever M holds (at most `max`) to the scheduling pools. */
static void drain_m(uint32_t *rng, int max, bool wait)
{
    for (int i = 0; i < max; i++) {
        ABT_pool dst = S[stress_rand(rng) & 1];
        if (wait && i == 0) {
            ABT_thread t;
            CHECK_ABT(ABT_pool_pop_wait_thread(M, &t, 0.0005));
            if (t == ABT_THREAD_NULL)
                return;
            CHECK_ABT(ABT_pool_push_thread(dst, t));
        } else {
            ABT_unit u;
            CHECK_ABT(ABT_pool_pop(M, &u));
            if (u == ABT_UNIT_NULL)
                return;
            CHECK_ABT(ABT_pool_push(dst, u));
        }
    }
}

static void worker(int id, bool ult)
{
    uint32_t rng = (uint32_t)id * 2654435761u + 3;
    for (int b = 0; stress_go_on(b, 1, max_batches, deadline); b++) {
        ABT_thread ts[BATCH];
        atomic_int runs[BATCH];
        int order[BATCH / 2];
        for (int i = 0; i < BATCH; i++) {
            atomic_init(&runs[i], 0);
            ABT_pool dst = i < BATCH / 2 ? R : M;
            if (stress_rand(&rng) % 3 == 0)
                CHECK_ABT(ABT_task_create(dst, unit_task, &runs[i], &ts[i]));
            else
                CHECK_ABT(ABT_thread_create(dst, unit_ult, &runs[i], ABT_THREAD_ATTR_NULL, &ts[i]));
            atomic_fetch_add(&created, 1);
        }
        for (int i = 0; i < BATCH / 2; i++)
            order[i] = i;
        for (int i = BATCH / 2 - 1; i > 0; i--) {
            int j = (int)(stress_rand(&rng) % (uint32_t)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < BATCH / 2; i++) {
            ABT_unit u;
            CHECK_ABT(ABT_thread_get_unit(ts[order[i]], &u));
            CHECK_ABT(ABT_pool_remove(R, u)); /* our own unit: nobody else takes it */
            CHECK_ABT(ABT_pool_push(S[stress_rand(&rng) & 1], u));
            size_t sz;
            CHECK_ABT(ABT_pool_get_size(M, &sz));
        }
        drain_m(&rng, BATCH / 2, (b & 1) != 0);
        /* join ours; those still in M are moved on by whoever drains M (we help) */
        for (int i = 0; i < BATCH; i++) {
            for (;;) {
                ABT_thread_state st;
                CHECK_ABT(ABT_thread_get_state(ts[i], &st));
                if (st == ABT_THREAD_STATE_TERMINATED)
                    break;
                drain_m(&rng, 1, false);
                if (ult)
                    ABT_thread_yield();
                else
                    sched_yield();
            }
            CHECK_ABT(ABT_thread_free(&ts[i]));
            CHECK_EQ_INT(atomic_load(&runs[i]), 1);
        }
        stress_progress();
    }
}

static void ult_worker(void *arg) { worker((int)(intptr_t)arg, true); }

static void *ext_worker(void *arg)
{
    worker((int)(intptr_t)arg, false);
    return NULL;
}

int main(int argc, char **argv)
{
    stress_watchdog wd;
    stress_watchdog_start(&wd, "stress_pool_shared");
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &S[0]));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &S[1]));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &R));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &M));
    ABT_xstream xs[2];
    ABT_pool order0[2] = { S[0], S[1] }, order1[2] = { S[1], S[0] };
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, order0, ABT_SCHED_CONFIG_NULL, &xs[0]));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, order1, ABT_SCHED_CONFIG_NULL, &xs[1]));

    max_batches = 4000 / stress_scale_div();
    deadline = sync_now() + stress_budget(1.0);
    stress_set_phase("push/pop/remove on shared pools");
    ABT_thread uw[NULT_WORKERS];
    pthread_t ew[NEXT_WORKERS];
    for (int i = 0; i < NULT_WORKERS; i++)
        CHECK_ABT(ABT_thread_create(S[i & 1], ult_worker, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                    &uw[i]));
    for (int i = 0; i < NEXT_WORKERS; i++)
        CHECK(pthread_create(&ew[i], NULL, ext_worker, (void *)(intptr_t)(10 + i)) == 0);
    for (int i = 0; i < NEXT_WORKERS; i++)
        pthread_join(ew[i], NULL);
    for (int i = 0; i < NULT_WORKERS; i++)
        CHECK_ABT(ABT_thread_free(&uw[i]));

    CHECK_EQ_INT(atomic_load(&ran), atomic_load(&created));
    CHECK(atomic_load(&created) > 0);
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_xstream_free(&xs[i]));
    ABT_pool all[4] = { S[0], S[1], R, M };
    for (int i = 0; i < 4; i++) {
        size_t sz = 1;
        CHECK_ABT(ABT_pool_get_total_size(all[i], &sz));
        CHECK_EQ_INT(sz, 0);
        CHECK_ABT(ABT_pool_free(&all[i]));
    }
    CHECK_ABT(ABT_finalize());
    stress_watchdog_stop(&wd);
    return 0;
}
