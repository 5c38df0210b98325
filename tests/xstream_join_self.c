/* xstream_join_self: a ULT running on a secondary stream that calls
 * ABT_xstream_join on that same stream gets ABT_ERR_INV_XSTREAM (documented:
 * "xstream is running the calling work unit") instead of deadlocking.
 * NOTE: Argobots 1.2 only rejects this when the caller is the scheduler
 * itself; a ULT joining its own stream deadlocks there, so this test fails
 * (watchdog) against the reference build. */
#include "test.h"
#include <signal.h>
#include <unistd.h>
#include <stdatomic.h>

static ABT_xstream target;
static atomic_int join_self_ret = -1;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: ABT_xstream_join on own stream hung\n";
    if (write(2, msg, sizeof(msg) - 1) < 0) { /* nothing */
    }
    _exit(1);
}

static void join_self(void *arg)
{
    (void)arg;
    atomic_store(&join_self_ret, ABT_xstream_join(target));
}

int main(int argc, char **argv)
{
    signal(SIGALRM, on_alarm);
    alarm(150); /* a hang fails with a message, under ctest's TIMEOUT */
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    target = xs;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, join_self, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&join_self_ret), ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
