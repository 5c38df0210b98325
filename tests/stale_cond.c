/* stale_cond: a copy of a condition-variable handle kept after ABT_cond_free is refused
 * with ABT_ERR_INV_COND by wait, timedwait, signal, broadcast and free, also when a new
 * condition variable took its memory; nothing blocks, and the new one is unaffected. */
#include "stale_test.h"

#include <time.h>

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_mutex m;
    ABT_cond c, stale, c2;
    CHECK_ABT(ABT_mutex_create(&m));
    CHECK_ABT(ABT_cond_create(&c));
    stale = c;
    CHECK_ABT(ABT_cond_free(&c));
    CHECK_ABT(ABT_cond_create(&c2));

    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 60; /* a wait that reached the cond would outlast the watchdog */
    CHECK_ABT(ABT_mutex_lock(m));
    STALE_STEP("cond: wait on a stale handle");
    CHECK_ERR(ABT_cond_wait(stale, m), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_timedwait(stale, m, &ts), ABT_ERR_INV_COND);
    CHECK_ABT(ABT_mutex_unlock(m));
    CHECK_ERR(ABT_cond_signal(stale), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_broadcast(stale), ABT_ERR_INV_COND);
    ABT_cond copy = stale;
    CHECK_ERR(ABT_cond_free(&copy), ABT_ERR_INV_COND);

    /* the new condition variable still works: a timed wait that times out */
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    CHECK_ABT(ABT_mutex_lock(m));
    CHECK_ERR(ABT_cond_timedwait(c2, m, &ts), ABT_ERR_COND_TIMEDOUT);
    CHECK_ABT(ABT_mutex_unlock(m));
    CHECK_ABT(ABT_cond_signal(c2));
    CHECK_ABT(ABT_cond_free(&c2));
    CHECK_ABT(ABT_mutex_free(&m));
    CHECK_ABT(ABT_finalize());
    return 0;
}
