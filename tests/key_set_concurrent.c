/* key_set_concurrent: one work unit's key values are set and read from several streams
 * and external threads at once while its key table grows.  Each round makes a fresh
 * target ULT (empty table) on stream 0 that ABT_key_sets its own share of 300 keys and
 * reads them back, and a fresh target tasklet; meanwhile a writer ULT on stream 1 and two
 * external pthreads ABT_thread_set_specific / ABT_task_set_specific their own shares of
 * the keys on both targets, in random order (so growth starts from any of them), read
 * every value back at once, and read the other writers' keys (a value, if any, must carry
 * that key's tag).  At the end of a round every key holds its writer's last value, and the
 * destructors run exactly once for each non-NULL value when the targets are freed.
 * Watched for crashes (the table was realloc'ed under concurrent readers), lost updates
 * (a value written into a table that was being copied) and, under TSan, data races. */
#include "stress_test.h"

#define NKEYS    300
#define NWRITERS 4 /* 0: the target ULT itself, 1: a ULT on stream 1, 2-3: pthreads */

static ABT_key keys[NKEYS];
static ABT_thread target;
static ABT_task target_task;
static atomic_int writers_done;
static atomic_long dtor_calls, dtor_sum;
/* last value each writer stored per key, on the thread target and on the tasklet */
static uintptr_t final_t[NKEYS], final_k[NKEYS];
static uint32_t round_no;

static uintptr_t make_val(int k, uint32_t seq)
{
    return ((uintptr_t)(k + 1) << 24) | (seq & 0xffffff);
}
static int val_key(void *v) { return (int)((uintptr_t)v >> 24) - 1; }

static void dtor(void *v)
{
    atomic_fetch_add(&dtor_calls, 1);
    atomic_fetch_add(&dtor_sum, (long)(uintptr_t)v);
}

static void check_foreign(void *v, int k)
{
    if (v && val_key(v) != k)
        TEST_FAIL("key %d reads %p, a value of key %d", k, v, val_key(v));
}

/* Writer `id`: keys k with k % NWRITERS == id, on the ULT target (through `self` when the
 * writer is the target itself) and on the tasklet. */
static void write_share(int id, bool self)
{
    uint32_t rng = (uint32_t)id * 7919u + round_no * 104729u + 1;
    int mine[NKEYS / NWRITERS + 1], n = 0;
    for (int k = id; k < NKEYS; k += NWRITERS)
        mine[n++] = k;
    if (!self) /* random order: any writer may be the one that grows the table */
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(stress_rand(&rng) % (uint32_t)(i + 1)), t = mine[i];
            mine[i] = mine[j];
            mine[j] = t;
        }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            int k = mine[i];
            uint32_t r = stress_rand(&rng);
            uintptr_t v = r % 8 == 0 ? 0 : make_val(k, r);
            void *got;
            if (self) {
                CHECK_ABT(ABT_key_set(keys[k], (void *)v));
                CHECK_ABT(ABT_key_get(keys[k], &got));
            } else {
                CHECK_ABT(ABT_thread_set_specific(target, keys[k], (void *)v));
                CHECK_ABT(ABT_thread_get_specific(target, keys[k], &got));
            }
            if ((uintptr_t)got != v)
                TEST_FAIL("writer %d key %d: set %#lx, read back %p", id, k, (unsigned long)v, got);
            final_t[k] = v;

            uintptr_t w = r % 5 == 0 ? 0 : make_val(k, r >> 8);
            CHECK_ABT(ABT_task_set_specific(target_task, keys[k], (void *)w));
            CHECK_ABT(ABT_task_get_specific(target_task, keys[k], &got));
            if ((uintptr_t)got != w)
                TEST_FAIL("writer %d tasklet key %d: set %#lx, read %p", id, k, (unsigned long)w,
                          got);
            final_k[k] = w;

            /* someone else's key, maybe being written right now */
            int o = (int)(r >> 12) % NKEYS;
            CHECK_ABT(ABT_thread_get_specific(target, keys[o], &got));
            check_foreign(got, o);
            CHECK_ABT(ABT_task_get_specific(target_task, keys[o], &got));
            check_foreign(got, o);
            stress_progress();
        }
        if (id == 1 && pass == 0)
            ABT_thread_yield();
    }
}

static void target_fn(void *arg)
{
    write_share(0, true);
    atomic_fetch_add(&writers_done, 1);
    /* stay alive (and yield the stream to the tasklet) until everyone has written */
    while (atomic_load(&writers_done) < NWRITERS)
        ABT_thread_yield();
    for (int k = 0; k < NKEYS; k++) {
        void *v;
        CHECK_ABT(ABT_key_get(keys[k], &v));
        if ((uintptr_t)v != final_t[k])
            TEST_FAIL("key %d: final value %p, last written %#lx (lost update)", k, v,
                      (unsigned long)final_t[k]);
    }
}

static void task_fn(void *arg)
{
    /* the tasklet's own values: on keys nobody else writes on it (none) - just read */
    for (int k = 0; k < NKEYS; k += 37) {
        void *v;
        CHECK_ABT(ABT_key_get(keys[k], &v));
        check_foreign(v, k);
    }
}

static void writer_ult(void *arg)
{
    write_share((int)(intptr_t)arg, false);
    atomic_fetch_add(&writers_done, 1);
}

static void *writer_pthread(void *arg)
{
    write_share((int)(intptr_t)arg, false);
    atomic_fetch_add(&writers_done, 1);
    return NULL;
}

int main(int argc, char **argv)
{
    stress_watchdog wd;
    stress_watchdog_start(&wd, "key_set_concurrent");
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_create(dtor, &keys[k]));

    int max_rounds = 400 / stress_scale_div();
    double end = sync_now() + stress_budget(1.0);
    stress_set_phase("concurrent set/get on one unit's keys");
    for (round_no = 0; stress_go_on(round_no, 1, max_rounds, end); round_no++) {
        atomic_store(&writers_done, 0);
        atomic_store(&dtor_calls, 0);
        atomic_store(&dtor_sum, 0);
        CHECK_ABT(ABT_task_create(w.pools[0], task_fn, NULL, &target_task));
        CHECK_ABT(ABT_thread_create(w.pools[0], target_fn, NULL, ABT_THREAD_ATTR_NULL, &target));
        ABT_thread wu;
        CHECK_ABT(ABT_thread_create(w.pools[1], writer_ult, (void *)(intptr_t)1,
                                    ABT_THREAD_ATTR_NULL, &wu));
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            CHECK(pthread_create(&th[i], NULL, writer_pthread, (void *)(intptr_t)(2 + i)) == 0);
        /* the primary ULT blocks in ABT first, so that stream 0 runs the targets */
        CHECK_ABT(ABT_thread_free(&target)); /* it checks the final values first */
        CHECK_ABT(ABT_thread_free(&wu));
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        CHECK_ABT(ABT_task_join(target_task));
        for (int k = 0; k < NKEYS; k++) {
            void *v;
            CHECK_ABT(ABT_task_get_specific(target_task, keys[k], &v));
            if ((uintptr_t)v != final_k[k])
                TEST_FAIL("tasklet key %d: final %p, last written %#lx (lost update)", k, v,
                          (unsigned long)final_k[k]);
        }
        CHECK_ABT(ABT_task_free(&target_task));
        long calls = 0, sum = 0;
        for (int k = 0; k < NKEYS; k++) {
            calls += (final_t[k] != 0) + (final_k[k] != 0);
            sum += (long)final_t[k] + (long)final_k[k];
        }
        CHECK_EQ_INT(atomic_load(&dtor_calls), calls);
        CHECK_EQ_INT(atomic_load(&dtor_sum), sum);
    }

    for (int k = 0; k < NKEYS; k++)
        CHECK_ABT(ABT_key_free(&keys[k]));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    stress_watchdog_stop(&wd);
    return 0;
}
