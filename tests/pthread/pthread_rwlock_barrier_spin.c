/* Read-write locks (readers together, a writer alone, try/timed variants, static
 * initialiser), barriers (one PTHREAD_BARRIER_SERIAL_THREAD per round, nobody passes
 * early) and spinlocks (mutual exclusion while holders yield). */
#include "pth_test.h"

#include <stdatomic.h>
#include <stdint.h>

#define T 6

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static atomic_int readers_in, max_readers, writers_in;
static long shared_value;
static pthread_barrier_t bar;
static atomic_int serials, arrived;
static pthread_spinlock_t spin;
static long spin_counter;
static int rounds;
static int expect_ult;

static void *rw_body(void *arg)
{
    intptr_t i = (intptr_t)arg;
    if (expect_ult)
        CHECK(pth_test_is_ult());
    for (int r = 0; r < rounds; r++) {
        if ((r + i) % 4 == 0) {
            CHECK_RC(pthread_rwlock_wrlock(&rw), 0);
            CHECK_EQ_INT(atomic_fetch_add(&writers_in, 1), 0);
            CHECK_EQ_INT(atomic_load(&readers_in), 0);
            long v = shared_value;
            sched_yield();
            shared_value = v + 1;
            atomic_fetch_sub(&writers_in, 1);
            CHECK_RC(pthread_rwlock_unlock(&rw), 0);
        } else {
            CHECK_RC(pthread_rwlock_rdlock(&rw), 0);
            int n = atomic_fetch_add(&readers_in, 1) + 1;
            int m = atomic_load(&max_readers);
            while (n > m && !atomic_compare_exchange_weak(&max_readers, &m, n))
                ;
            CHECK_EQ_INT(atomic_load(&writers_in), 0);
            sched_yield(); /* other readers come in meanwhile */
            atomic_fetch_sub(&readers_in, 1);
            CHECK_RC(pthread_rwlock_unlock(&rw), 0);
        }
    }
    return NULL;
}

/* Readers share the lock: every thread takes it for reading and stays until all T hold
 * it at once (yielding meanwhile; a deadline turns a lock that admits one reader at a
 * time into a failure, not a hang).  No writer is around, so nothing may keep a reader
 * out.  (The mixed phase above only reports how many readers met: whether they do
 * depends on how the threads interleave, which a loaded machine changes.) */
static atomic_int together;
static void *readers_meet_body(void *arg)
{
    CHECK_RC(pthread_rwlock_rdlock(&rw), 0);
    atomic_fetch_add(&together, 1);
    double end = pth_test_now() + TEST_PATIENCE_S;
    while (atomic_load(&together) < T) {
        CHECK(pth_test_now() < end);
        sched_yield();
    }
    CHECK_RC(pthread_rwlock_unlock(&rw), 0);
    return NULL;
}

static void *barrier_body(void *arg)
{
    for (int r = 0; r < rounds; r++) {
        atomic_fetch_add(&arrived, 1);
        int rc = pthread_barrier_wait(&bar);
        CHECK(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
        CHECK(atomic_load(&arrived) >= (r + 1) * T); /* all of this round arrived */
        if (rc == PTHREAD_BARRIER_SERIAL_THREAD)
            atomic_fetch_add(&serials, 1);
        int rc2 = pthread_barrier_wait(&bar); /* a second barrier keeps the rounds apart */
        CHECK(rc2 == 0 || rc2 == PTHREAD_BARRIER_SERIAL_THREAD);
    }
    return NULL;
}

static void *spin_body(void *arg)
{
    for (int r = 0; r < rounds * 10; r++) {
        CHECK_RC(pthread_spin_lock(&spin), 0);
        long v = spin_counter;
        if (expect_ult && r % 8 == 0) /* (OS threads would spin out their time slices) */
            sched_yield();            /* the holder leaves its stream: waiters must yield to it */
        spin_counter = v + 1;
        CHECK_RC(pthread_spin_unlock(&spin), 0);
    }
    return NULL;
}

static void run(void *(*fn)(void *))
{
    pthread_t t[T];
    for (intptr_t i = 0; i < T; i++)
        CHECK_RC(pthread_create(&t[i], NULL, fn, (void *)i), 0);
    for (int i = 0; i < T; i++)
        CHECK_RC(pthread_join(t[i], NULL), 0);
}

int main(void)
{
    expect_ult = pth_test_start();
    rounds = (expect_ult ? 400 : 50) / pth_test_scale(); /* OS threads: yields are slow */
    run(rw_body);
    long writes = 0;
    for (int i = 0; i < T; i++)
        for (int r = 0; r < rounds; r++)
            writes += (r + i) % 4 == 0;
    CHECK_EQ_INT(shared_value, writes);
    run(readers_meet_body); /* all T readers hold it at once */
    CHECK_EQ_INT(atomic_load(&together), T);

    /* try and timed variants against a held lock */
    CHECK_RC(pthread_rwlock_rdlock(&rw), 0);
    CHECK_RC(pthread_rwlock_tryrdlock(&rw), 0);
    CHECK_RC(pthread_rwlock_trywrlock(&rw), EBUSY);
    struct timespec d = pth_test_deadline(0.02);
    CHECK_RC(pthread_rwlock_timedwrlock(&rw, &d), ETIMEDOUT);
    CHECK_RC(pthread_rwlock_unlock(&rw), 0);
    CHECK_RC(pthread_rwlock_unlock(&rw), 0);
    CHECK_RC(pthread_rwlock_wrlock(&rw), 0);
    CHECK_RC(pthread_rwlock_rdlock(&rw), EDEADLK);
    CHECK_RC(pthread_rwlock_unlock(&rw), 0);
    if (expect_ult) /* glibc does not check this one */
        CHECK_RC(pthread_rwlock_unlock(&rw), EPERM);
    CHECK_RC(pthread_rwlock_destroy(&rw), 0);

    CHECK_RC(pthread_barrier_init(&bar, NULL, 0), EINVAL);
    CHECK_RC(pthread_barrier_init(&bar, NULL, T), 0);
    run(barrier_body);
    CHECK_EQ_INT(atomic_load(&serials), rounds);
    CHECK_RC(pthread_barrier_destroy(&bar), 0);

    CHECK_RC(pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE), 0);
    run(spin_body);
    CHECK_EQ_INT(spin_counter, (long)T * rounds * 10);
    CHECK_RC(pthread_spin_trylock(&spin), 0);
    CHECK_RC(pthread_spin_trylock(&spin), EBUSY);
    CHECK_RC(pthread_spin_unlock(&spin), 0);
    CHECK_RC(pthread_spin_destroy(&spin), 0);
    printf("rwlock: up to %d readers at once; barrier: %d rounds; spin: %ld\n",
           atomic_load(&max_readers), rounds, spin_counter);
    return 0;
}
