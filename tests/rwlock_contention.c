/* rwlock_contention: readers and writers (ULTs on two streams, external threads) share
 * two counters that writers keep equal; no reader ever sees them differ, no reader is
 * inside with a writer, no update is lost and writers are not starved. */
#include "sync_test.h"

#define N_FULL 20000
static int N = N_FULL; /* a twentieth under valgrind and the sanitizers (WEFT_TEST_SLOW) */

static ABT_rwlock lk;
static long a, b;
static atomic_int readers, writers, bad;

static void reader_loop(void)
{
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_rwlock_rdlock(lk));
        atomic_fetch_add(&readers, 1);
        if (a != b || atomic_load(&writers) != 0)
            atomic_fetch_add(&bad, 1);
        atomic_fetch_sub(&readers, 1);
        CHECK_ABT(ABT_rwlock_unlock(lk));
    }
}

static void writer_loop(void)
{
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_rwlock_wrlock(lk));
        if (atomic_fetch_add(&writers, 1) != 0 || atomic_load(&readers) != 0)
            atomic_fetch_add(&bad, 1);
        a++;
        b++;
        atomic_fetch_sub(&writers, 1);
        CHECK_ABT(ABT_rwlock_unlock(lk));
    }
}

static void ult(void *arg)
{
    if ((intptr_t)arg & 1)
        writer_loop();
    else
        reader_loop();
}

static void *ext(void *arg)
{
    ult(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    N = N_FULL / test_scale_div();
    CHECK_ABT(ABT_init(argc, argv));
    sync_world w;
    sync_world_start(&w, 1, ABT_SCHED_BASIC);
    CHECK_ABT(ABT_rwlock_create(&lk));

    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, ext, (void *)(intptr_t)i) == 0);
    ABT_thread ts[6];
    for (int i = 0; i < 6; i++)
        CHECK_ABT(ABT_thread_create(w.pools[i % 2], ult, (void *)(intptr_t)(i / 2),
                                    ABT_THREAD_ATTR_NULL, &ts[i]));
    sync_join_all(6, ts);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    /* writers: ext 1, ULTs 2,3 (i/2 == 1) */
    CHECK_EQ_INT(atomic_load(&bad), 0);
    CHECK_EQ_INT(a, 3L * N);
    CHECK_EQ_INT(b, 3L * N);

    CHECK_ABT(ABT_rwlock_free(&lk));
    sync_world_stop(&w);
    CHECK_ABT(ABT_finalize());
    return 0;
}
