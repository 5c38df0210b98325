/* thread_join_ready_head: joining a ULT that has run, yielded and waits ready in the
 * caller's pool.  The join completes; a ULT queued behind another ready ULT does not jump
 * the queue (FIFO order among yielding ULTs holds: a b a b); a pending cancellation or
 * migration is applied, not skipped, when the joiner is the one that lets the target run. */
#include "test.h"

#include <stdatomic.h>

static atomic_int seq[8];
static atomic_int nseq;
static atomic_int first_half[2], second_half[2];
static atomic_int second_rank = -1;

static void push(int id) { atomic_store(&seq[atomic_fetch_add(&nseq, 1)], id); }

/* records its id, yields once, records it again */
static void two_halves(void *arg)
{
    int id = (int)(intptr_t)arg;
    push(id);
    atomic_store(&first_half[id], 1);
    CHECK_ABT(ABT_thread_yield());
    push(id);
    atomic_store(&second_half[id], 1);
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    atomic_store(&second_rank, rank);
}

static void reset(void)
{
    atomic_store(&nseq, 0);
    for (int i = 0; i < 2; i++) {
        atomic_store(&first_half[i], 0);
        atomic_store(&second_half[i], 0);
    }
    atomic_store(&second_rank, -1);
}

/* the caller yields until every ULT of ids[0..n) has run its first half */
static void yield_until_first_halves(int n)
{
    for (int spins = 0;; spins++) {
        int done = 0;
        for (int i = 0; i < n; i++)
            done += atomic_load(&first_half[i]);
        if (done == n)
            return;
        if (spins > 10000000)
            TEST_FAIL("the ULTs did not run their first halves");
        CHECK_ABT(ABT_thread_yield());
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs0;
    ABT_pool pool0;
    CHECK_ABT(ABT_xstream_self(&xs0));
    CHECK_ABT(ABT_xstream_get_main_pools(xs0, 1, &pool0));

    /* 1. the target yielded and is the next ready ULT: the join runs its second half */
    reset();
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool0, two_halves, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    yield_until_first_halves(1);
    CHECK_EQ_INT(atomic_load(&second_half[0]), 0);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&second_half[0]), 1);
    CHECK_ABT(ABT_thread_free(&t));

    /* 2. two yielded ULTs, the caller joins the second: the first still goes first */
    reset();
    ABT_thread a, b;
    CHECK_ABT(ABT_thread_create(pool0, two_halves, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool0, two_halves, (void *)1, ABT_THREAD_ATTR_NULL, &b));
    yield_until_first_halves(2);
    CHECK_ABT(ABT_thread_join(b));
    CHECK_ABT(ABT_thread_join(a));
    CHECK_EQ_INT(atomic_load(&nseq), 4);
    CHECK_EQ_INT(atomic_load(&seq[0]), 0);
    CHECK_EQ_INT(atomic_load(&seq[1]), 1);
    CHECK_EQ_INT(atomic_load(&seq[2]), 0);
    CHECK_EQ_INT(atomic_load(&seq[3]), 1);
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));

    /* 3. a cancellation requested while it waits ready: joined, it never runs again */
    reset();
    CHECK_ABT(ABT_thread_create(pool0, two_halves, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    yield_until_first_halves(1);
    CHECK_ABT(ABT_thread_cancel(t));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&second_half[0]), 0);
    ABT_thread_state st;
    CHECK_ABT(ABT_thread_get_state(t, &st));
    CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_ABT(ABT_thread_free(&t));

    /* 4. a migration requested while it waits ready: its second half runs on the other
     * stream */
    reset();
    ABT_xstream xs1;
    ABT_pool pool1;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_thread_create(pool0, two_halves, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    yield_until_first_halves(1);
    CHECK_ABT(ABT_thread_migrate_to_pool(t, pool1));
    CHECK_ABT(ABT_thread_join(t));
    CHECK_EQ_INT(atomic_load(&second_half[0]), 1);
    CHECK_EQ_INT(atomic_load(&second_rank), 1);
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_ABT(ABT_xstream_join(xs1));
    CHECK_ABT(ABT_xstream_free(&xs1));

    CHECK_ABT(ABT_finalize());
    return 0;
}
