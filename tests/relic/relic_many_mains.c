/* relic_many_mains: several main threads, each with its own thread-bound Relic, submit at
 * once, and one thread drives several explicit handles; every task of every Relic runs
 * once, on its own Relic's assistant or, inside relic_wait, on its own main thread (the
 * counters are plain: a Relic's tasks run one at a time, each after the previous one). */
#include <stdatomic.h>

#include "relic_test.h"

#define MAINS   4
#define HANDLES 3

struct slot {
    long count;
    pthread_t main;      /* the Relic's owner */
    pthread_t assistant; /* the first other thread seen running its tasks */
    int foreign;         /* tasks seen on a third thread */
    int set;
};

static void task(void *arg)
{
    struct slot *s = arg;
    if (pthread_equal(s->main, pthread_self())) {
        /* the owner, helping inside relic_wait */
    } else if (!s->set) {
        s->assistant = pthread_self();
        s->set = 1;
    } else if (!pthread_equal(s->assistant, pthread_self())) {
        s->foreign++;
    }
    s->count++;
}

static void *main_thread(void *arg)
{
    struct slot *s = arg;
    long n = 20000 / test_scale_div();
    s->main = pthread_self();
    CHECK_RELIC(relic_init());
    relic_wake_up_hint();
    for (long i = 0; i < n; i++) {
        CHECK_RELIC(relic_submit(task, s));
        if (i % 64 == 63) /* stay below the ring: no task inline */
            CHECK_RELIC(relic_wait());
    }
    CHECK_RELIC(relic_wait());
    CHECK_EQ_INT(s->count, n);
    CHECK(!s->set || !pthread_equal(s->assistant, pthread_self()));
    CHECK_RELIC(relic_finalize());
    return NULL;
}

int main(void)
{
    /* Eight spinning threads on a small machine: keep the spins short. */
    setenv("RELIC_SPIN_US", "50", 1);
    static struct slot slots[MAINS];
    pthread_t th[MAINS];
    for (int i = 0; i < MAINS; i++)
        CHECK(pthread_create(&th[i], NULL, main_thread, &slots[i]) == 0);
    for (int i = 0; i < MAINS; i++)
        pthread_join(th[i], NULL);
    /* (Their assistants are not compared: they need not be alive at the same time, and
     * a finished thread's pthread_t may be reused.) */
    for (int i = 0; i < MAINS; i++)
        CHECK_EQ_INT(slots[i].foreign, 0);

    /* One thread, several handles, plus its thread-bound Relic. */
    relic_t h[HANDLES];
    static struct slot hs[HANDLES + 1];
    for (int j = 0; j <= HANDLES; j++)
        hs[j].main = pthread_self();
    for (int i = 0; i < HANDLES; i++)
        CHECK_RELIC(relic_create(&h[i]));
    CHECK_RELIC(relic_init());
    long n = 10000 / test_scale_div();
    for (long i = 0; i < n; i++) {
        for (int j = 0; j < HANDLES; j++)
            CHECK_RELIC(relic_submit_on(h[j], task, &hs[j]));
        CHECK_RELIC(relic_submit(task, &hs[HANDLES]));
        if (i % 50 == 49) {
            for (int j = 0; j < HANDLES; j++)
                CHECK_RELIC(relic_wait_on(h[j]));
            CHECK_RELIC(relic_wait_on(relic_self()));
        }
    }
    for (int j = 0; j < HANDLES; j++)
        CHECK_RELIC(relic_destroy(h[j])); /* waits for the rest */
    CHECK_RELIC(relic_finalize());
    for (int j = 0; j <= HANDLES; j++) {
        CHECK_EQ_INT(hs[j].count, n);
        CHECK_EQ_INT(hs[j].foreign, 0);
        for (int k = 0; k < j; k++)
            CHECK(!hs[j].set || !hs[k].set || !pthread_equal(hs[j].assistant, hs[k].assistant));
    }
    return 0;
}
