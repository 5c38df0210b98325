/* glt_sync: mutex (lock/unlock from ULTs on every thread, trylock free and taken,
 * spinlock), barrier (all ULTs meet, repeatedly) and condition variable (signal and
 * broadcast) of GLT, and their failure paths (a barrier of 0, NULL pointers). */
#include "glt_test.h"

#define ULTS 8
static GLT_mutex mtx;
static GLT_barrier bar;
static GLT_cond cnd;
static long counter;
static int phase_seen[ULTS];
static int rounds;

static void worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int r = 0; r < rounds; r++) {
        if (r % 2)
            CHECK_ABT(glt_mutex_spinlock(mtx));
        else
            CHECK_ABT(glt_mutex_lock(mtx));
        long v = counter;
        if (r % 5 == 0)
            glt_yield(); /* holding the lock across a switch */
        counter = v + 1;
        CHECK_ABT(glt_mutex_unlock(mtx));
    }
    CHECK_ABT(glt_barrier_wait(&bar));
    /* after the barrier every worker finished its rounds */
    phase_seen[id] = (int)__atomic_load_n(&counter, __ATOMIC_RELAXED);
    CHECK_ABT(glt_barrier_wait(&bar));
}

static int ready, go, woken;
static void waiter(void *arg)
{
    CHECK_ABT(glt_mutex_lock(mtx));
    ready++;
    while (go == 0)
        CHECK_ABT(glt_cond_wait(cnd, mtx));
    go--;
    woken++;
    CHECK_ABT(glt_mutex_unlock(mtx));
}

int main(int argc, char **argv)
{
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();
    rounds = 2000 / test_scale_div();
    CHECK_ABT(glt_mutex_create(&mtx));
    CHECK_ABT(glt_barrier_create(ULTS, &bar));
    CHECK_ABT(glt_cond_create(&cnd));

    GLT_ult u[ULTS];
    for (int i = 0; i < ULTS; i++)
        CHECK_ABT(glt_ult_create_to(worker, (void *)(intptr_t)i, &u[i], i % n));
    for (int i = 0; i < ULTS; i++) {
        CHECK_ABT(glt_ult_join(&u[i]));
        CHECK_ABT(glt_ult_free(&u[i]));
        CHECK_EQ_INT(phase_seen[i], (long)ULTS * rounds);
    }
    CHECK_EQ_INT(counter, (long)ULTS * rounds);

    /* trylock */
    CHECK_ABT(glt_mutex_trylock(mtx));
    CHECK_ERR(glt_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(glt_mutex_unlock(mtx));

    /* condition: 4 waiters, one signal then a broadcast */
    for (int i = 0; i < 4; i++)
        CHECK_ABT(glt_ult_create_to(waiter, NULL, &u[i], i % n));
    for (;;) {
        CHECK_ABT(glt_mutex_lock(mtx));
        int r = ready;
        CHECK_ABT(glt_mutex_unlock(mtx));
        if (r == 4)
            break;
        glt_yield();
    }
    CHECK_ABT(glt_mutex_lock(mtx));
    go = 1;
    CHECK_ABT(glt_cond_signal(cnd));
    CHECK_ABT(glt_mutex_unlock(mtx));
    for (;;) {
        CHECK_ABT(glt_mutex_lock(mtx));
        int w = woken;
        CHECK_ABT(glt_mutex_unlock(mtx));
        if (w == 1)
            break;
        glt_yield();
    }
    CHECK_ABT(glt_mutex_lock(mtx));
    go = 3;
    CHECK_ABT(glt_cond_broadcast(cnd));
    CHECK_ABT(glt_mutex_unlock(mtx));
    for (int i = 0; i < 4; i++) {
        CHECK_ABT(glt_ult_join(&u[i]));
        CHECK_ABT(glt_ult_free(&u[i]));
    }
    CHECK_EQ_INT(woken, 4);

    CHECK_ABT(glt_cond_free(&cnd));
    CHECK(cnd == ABT_COND_NULL);
    CHECK_ABT(glt_barrier_free(&bar));
    CHECK(bar == ABT_BARRIER_NULL);
    CHECK_ABT(glt_mutex_free(&mtx));
    CHECK(mtx == ABT_MUTEX_NULL);

    /* failure paths */
    GLT_barrier b2 = (GLT_barrier)&b2;
    CHECK_ERR(glt_barrier_create(0, &b2), ABT_ERR_INV_ARG);
    CHECK(b2 == ABT_BARRIER_NULL);
    CHECK_ERR(glt_barrier_create(-2, &b2), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_barrier_wait(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(glt_barrier_wait(&b2), ABT_ERR_INV_BARRIER);
    CHECK_ERR(glt_mutex_lock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(glt_mutex_trylock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(glt_cond_signal(ABT_COND_NULL), ABT_ERR_INV_COND);
    CHECK(glt_mutex_create(NULL) != ABT_SUCCESS);
    CHECK_ABT(glt_finalize());
    printf("glt_sync (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
