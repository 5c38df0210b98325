/* fork_child_first_fib: recursive divide-and-conquer with child-first ULTs (each of the
 * four child-first techniques) on 2 execution streams sharing one pool.  fib(n) creates a
 * ULT for fib(n-1) - which runs at once while its creator waits in the pool - computes
 * fib(n-2) itself and joins.  A steal is forced first: the root's first child-first child
 * holds its stream (it spins without yielding) until the root has been taken by the
 * other stream, which can only happen if a creator queued by child-first creation can
 * be stolen; the root then runs fib there.  Checks the results.  weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

static ABT_pool pool;
static ABT_thread_attr attr;
static atomic_long on_first, on_second;

typedef struct {
    int n;
    long r;
} job;

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

static void fib(void *arg)
{
    job *j = arg;
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank == 1)
        atomic_fetch_add_explicit(&on_second, 1, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&on_first, 1, memory_order_relaxed);
    if (j->n < 14) {
        j->r = fib_seq(j->n);
        return;
    }
    job a = { j->n - 1, 0 }, b = { j->n - 2, 0 };
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(pool, fib, &a, attr, &t));
    fib(&b);
    CHECK_ABT(ABT_thread_free(&t));
    j->r = a.r + b.r;
}

static atomic_int stolen, gate_rank;

static void gate(void *arg)
{
    (void)arg;
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    atomic_store(&gate_rank, rank);
    double t0 = ABT_get_wtime();
    while (!atomic_load(&stolen)) /* no yield: only another stream can run the root */
        if (ABT_get_wtime() - t0 > 60)
            TEST_FAIL("the creator of a child-first ULT was not taken by the other stream");
}

static void root(void *arg)
{
    job *j = arg;
    ABT_thread g;
    CHECK_ABT(ABT_thread_create(pool, gate, NULL, attr, &g));
    /* here only once the second stream took us: the creator is queued before the
     * gate's first line runs, so it may be taken before the gate has said where it runs
     * (wait for that; the gate never lets its own stream go) */
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    double t0 = ABT_get_wtime();
    while (atomic_load(&gate_rank) < 0)
        if (ABT_get_wtime() - t0 > 60)
            TEST_FAIL("the gate ULT did not start");
    CHECK(rank != atomic_load(&gate_rank));
    atomic_store(&stolen, 1);
    fib(j);
    CHECK_ABT(ABT_thread_free(&g));
}

static void run(weft_fork_t f, int n)
{
    CHECK_ABT(weft_thread_attr_set_fork(attr, f));
    atomic_store(&on_first, 0);
    atomic_store(&on_second, 0);
    atomic_store(&stolen, 0);
    atomic_store(&gate_rank, -1);
    job j = { n, 0 };
    ABT_thread r;
    /* the root is a ULT other than the primary one, so that it may move */
    CHECK_ABT(ABT_thread_create(pool, root, &j, ABT_THREAD_ATTR_NULL, &r));
    CHECK_ABT(ABT_thread_free(&r));
    CHECK_EQ_INT(j.r, fib_seq(n));
    CHECK(atomic_load(&on_first) + atomic_load(&on_second) > 0);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs, x2;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &x2));
    CHECK_ABT(ABT_thread_attr_create(&attr));
    int n = getenv("WEFT_TEST_SLOW") ? 22 : 28;
    run(WEFT_FORK_C_ROC_E, n);
    run(WEFT_FORK_C_FULL, n);
    run(WEFT_FORK_C_ROC, n - 2);
    run(WEFT_FORK_C_FULL_E, n - 2);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_xstream_join(x2));
    CHECK_ABT(ABT_xstream_free(&x2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
#endif
