/* tests/preempt_spin_flag.c - preemption (weft_pool_set_preempt, WEFT_PREEMPT): on the only
 * stream, three ULTs spin on a flag that a ULT queued behind them sets.  Without preemption
 * the first spinner holds the stream forever (alarm: the test fails with a message instead of
 * hanging); with a time slice on the pool (argument "pool") or in the environment
 * (argument "env", ctest sets WEFT_PREEMPT), the stream's work goes to a spare, whose own
 * spinner hands it to another, until the setter runs.  Also the calls'
 * error codes. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

static _Atomic int flag, spins_done;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: the spinner was never preempted: the setter never ran\n";
    ssize_t r = write(2, msg, sizeof(msg) - 1);
    (void)r;
    _exit(1);
}

static void spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&flag)) {
    }
    atomic_fetch_add(&spins_done, 1);
}

static void setter(void *arg)
{
    (void)arg;
    atomic_store(&flag, 1);
}

static void parent(void *arg)
{
    ABT_pool pool = arg;
    for (int round = 0; round < 3; round++) {
        atomic_store(&flag, 0);
        ABT_thread s[3], t;
        for (int i = 0; i < 3; i++)
            CHECK_ABT(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &s[i]));
        CHECK_ABT(ABT_thread_create(pool, setter, NULL, ABT_THREAD_ATTR_NULL, &t));
        for (int i = 0; i < 3; i++)
            CHECK_ABT(ABT_thread_free(&s[i]));
        CHECK_ABT(ABT_thread_free(&t));
    }
}

int main(int argc, char **argv)
{
    bool env = argc > 1 && strcmp(argv[1], "env") == 0;
    signal(SIGALRM, on_alarm);
    alarm(120);
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool pool;
    CHECK_ABT(ABT_self_get_last_pool(&pool));
    CHECK_ERR(weft_pool_set_preempt(ABT_POOL_NULL, 1000), ABT_ERR_INV_POOL);
    CHECK_ERR(weft_pool_set_preempt(pool, WEFT_PREEMPT_MAX_US + 1), ABT_ERR_INV_ARG);
    if (!env)
        CHECK_ABT(weft_pool_set_preempt(pool, 2000));
    ABT_thread p; /* not the primary ULT: blocking_handoff_pipe.c says why */
    CHECK_ABT(ABT_thread_create(pool, parent, pool, ABT_THREAD_ATTR_NULL, &p));
    CHECK_ABT(ABT_thread_free(&p));
    CHECK_EQ_INT(atomic_load(&spins_done), 9);
    CHECK_ABT(weft_pool_set_preempt(pool, 0));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
