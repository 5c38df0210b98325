/* sched_idle_wake_timer: under every predefined scheduler, a stream whose only ULT is in
 * a timed wait (ABT_cond_timedwait, nobody signals) has nothing to run and sleeps, but
 * wakes for the deadline: the wait times out no earlier than its deadline, and it does
 * time out (a sleep that ignored the deadline would last until some other event, and none
 * comes: the test calls it lost after idle_wake_limit()).  The primary ULT meanwhile
 * blocks in a join, so the primary stream sleeps too. */
#include "idle_test.h"

#define WAIT_S 0.05

static double waited;
static int result;

static void timed(void *arg)
{
    (void)arg;
    ABT_mutex m;
    ABT_cond c;
    CHECK_ABT(ABT_mutex_create(&m));
    CHECK_ABT(ABT_cond_create(&c));
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long ns = ts.tv_nsec + (long long)(WAIT_S * 1e9);
    ts.tv_sec += (time_t)(ns / 1000000000LL);
    ts.tv_nsec = (long)(ns % 1000000000LL);
    double t0 = idle_now();
    CHECK_ABT(ABT_mutex_lock(m));
    result = ABT_cond_timedwait(c, m, &ts);
    CHECK_ABT(ABT_mutex_unlock(m));
    waited = idle_now() - t0;
    CHECK_ABT(ABT_cond_free(&c));
    CHECK_ABT(ABT_mutex_free(&m));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    double limit = idle_wake_limit();
    for (int k = 0; k < IDLE_NPREDEFS; k++) {
        idle_world w;
        idle_world_start(&w, idle_predefs[k]);
        for (int i = 1; i < IDLE_NSTREAMS; i++) {
            ABT_thread t;
            CHECK_ABT(ABT_thread_create(w.pool[i], timed, NULL, ABT_THREAD_ATTR_NULL, &t));
            CHECK_ABT(ABT_thread_free(&t));
            printf("%s: stream %d: timed wait of %.0f ms took %.2f ms\n",
                   idle_sched_name(idle_predefs[k]), i, WAIT_S * 1e3, waited * 1e3);
            CHECK_EQ_INT(result, ABT_ERR_COND_TIMEDOUT);
            CHECK(waited >= WAIT_S - 0.002);
            if (waited > WAIT_S + limit)
                TEST_FAIL("%s: a %.0f ms timed wait on an idle stream took %.3f s",
                          idle_sched_name(idle_predefs[k]), WAIT_S * 1e3, waited);
        }
        idle_world_stop(&w);
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
