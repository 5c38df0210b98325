/* fork_sc_promote: scheduler creation (WEFT_FORK_SC) under a stream's predefined
 * scheduler.  SC ULTs queued in a second stream's private pool are called there on the
 * scheduler's own stack; at its first deviation each is promoted: it keeps that stack
 * (ABT_thread_get_stacksize then gives the scheduler's stack size, ABT_SCHED_STACKSIZE)
 * and the scheduler goes on with a new one.  Covered: a yield, a contended mutex, a
 * nested join whose child deviates while the SC ULT waits on the scheduler's stack (the
 * restart promotes the waiting one), a child-first creation from an SC ULT (promoted
 * before it is queued), an SC ULT that finishes without deviating (it runs on the
 * scheduler's stack, which ABT_thread_get_stack reports), and
 * one that exits with ABT_self_exit before any deviation.  An SC ULT that another ULT
 * starts (the yield bypass, here) runs as RoC on a stack of its own.  weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

#define SCHED_STACK (256 * 1024)
#define NU          24

static ABT_pool pool2;
static ABT_mutex mtx;
static ABT_thread_attr sc_attr, cf_attr;
static long counter;
static atomic_int done, promoted, plain;

static size_t my_stacksize(void)
{
    ABT_thread self;
    size_t sz;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_get_stacksize(self, &sz));
    return sz;
}

static void yielder(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_thread_yield());
}

static void child_first(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

static void sc_body(void *arg)
{
    int i = (int)(intptr_t)arg;
    switch (i % 4) {
    case 0: /* yield */ CHECK_ABT(ABT_thread_yield()); break;
    case 1: /* a mutex others hold across a yield */
        CHECK_ABT(ABT_mutex_lock(mtx));
        CHECK_ABT(ABT_thread_yield());
        counter++;
        CHECK_ABT(ABT_mutex_unlock(mtx));
        break;
    case 2: { /* a child joined here that yields: the loop restarts while we wait */
        ABT_thread c;
        CHECK_ABT(ABT_thread_create(pool2, yielder, NULL, ABT_THREAD_ATTR_NULL, &c));
        CHECK_ABT(ABT_thread_free(&c));
        break;
    }
    case 3: { /* a child-first child: we are queued while it runs */
        atomic_int hit = 0;
        ABT_thread c;
        CHECK_ABT(ABT_thread_create(pool2, child_first, &hit, cf_attr, &c));
        CHECK_ABT(ABT_thread_free(&c));
        CHECK_EQ_INT(atomic_load(&hit), 1);
        break;
    }
    }
    if (my_stacksize() == SCHED_STACK)
        atomic_fetch_add(&promoted, 1);
    atomic_fetch_add(&done, 1);
}

static void sc_plain(void *arg)
{
    (void)arg;
    void *addr;
    size_t sz;
    ABT_thread self;
    CHECK_ABT(ABT_self_get_thread(&self));
    CHECK_ABT(ABT_thread_get_stack(self, &addr, &sz));
    /* on the scheduler's stack: that is the one reported */
    if (sz == SCHED_STACK && (char *)&sz >= (char *)addr && (char *)&sz < (char *)addr + sz)
        atomic_fetch_add(&plain, 1);
    atomic_fetch_add(&done, 1);
}

static void sc_exit(void *arg)
{
    (void)arg;
    atomic_fetch_add(&done, 1);
    CHECK_ABT(ABT_self_exit());
}

int main(int argc, char **argv)
{
    char v[32];
    snprintf(v, sizeof(v), "%d", SCHED_STACK);
    setenv("ABT_SCHED_STACKSIZE", v, 1);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_mutex_create(&mtx));
    CHECK_ABT(ABT_thread_attr_create(&sc_attr));
    CHECK_ABT(weft_thread_attr_set_fork(sc_attr, WEFT_FORK_SC));
    CHECK_ABT(ABT_thread_attr_create(&cf_attr));
    CHECK_ABT(weft_thread_attr_set_fork(cf_attr, WEFT_FORK_C_ROC_E));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &pool2));
    ABT_xstream x2;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool2, ABT_SCHED_CONFIG_NULL, &x2));

    for (int round = 0; round < 3; round++) {
        ABT_thread ths[NU + 2];
        atomic_store(&done, 0);
        atomic_store(&promoted, 0);
        atomic_store(&plain, 0);
        counter = 0;
        /* created from the primary stream into the second stream's pool: only its
         * scheduler runs them (no join bypass from here) */
        for (int i = 0; i < NU; i++)
            CHECK_ABT(ABT_thread_create(pool2, sc_body, (void *)(intptr_t)i, sc_attr, &ths[i]));
        CHECK_ABT(ABT_thread_create(pool2, sc_plain, NULL, sc_attr, &ths[NU]));
        CHECK_ABT(ABT_thread_create(pool2, sc_exit, NULL, sc_attr, &ths[NU + 1]));
        for (int i = 0; i < NU + 2; i++) {
            weft_fork_t f;
            CHECK_ABT(weft_thread_get_fork(ths[i], &f));
            CHECK_EQ_INT(f, WEFT_FORK_SC);
            CHECK_ABT(ABT_thread_free(&ths[i]));
        }
        CHECK_EQ_INT(atomic_load(&done), NU + 2);
        CHECK_EQ_INT(counter, NU / 4);
        CHECK_EQ_INT(atomic_load(&plain), 1);
        /* those the scheduler called took its stack at their deviation; those started
         * by a yielding one (the yield bypass) ran on stacks of their own (as RoC) */
        if (atomic_load(&promoted) < 1)
            TEST_FAIL("none of %d SC ULTs that deviated was promoted", NU);
    }
    CHECK_ABT(ABT_xstream_join(x2));
    CHECK_ABT(ABT_xstream_free(&x2));
    CHECK_ABT(ABT_thread_attr_free(&cf_attr));
    CHECK_ABT(ABT_thread_attr_free(&sc_attr));
    CHECK_ABT(ABT_mutex_free(&mtx));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
