/* fork_recursive_randws: recursive divide-and-conquer under every fork-join technique,
 * with each stream's own pool and ABT_SCHED_RANDWS (a scheduler pops its pool, then steals
 * from the other's), on 1 and 2 streams; and once with one pool shared by both streams.
 *
 * Each ULT creates its children into its own stream's pool and joins them:
 *   - fib(n) creates fib(n-1), computes fib(n-2) itself, joins;
 *   - N-Queens: a ULT per safe square of the next row, the node joins them all;
 *   - an unbalanced tree (a node has 4 children when a hash of its id says so).
 * The results must equal the serial ones.  What this covers: the join of a fresh child
 * from a RANDWS loop's own pool (the loop's bypass pool: the usual join, the SC unit
 * called on its joiner's stack, a parked joiner's bypass), fresh SS and SC children run
 * by their joiner, child-first creators taken by the other stream, and the primary ULT
 * waiting for a root ULT that may end on the other stream.  weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>
#include <stdint.h>

#include "recursive_kernels.h" /* bench/common: the serial kernels of bench/abt/recursive.c */

static ABT_pool pools[2];
static ABT_thread_attr attr;
static atomic_long ran_on[2];

static ABT_pool my_pool(void)
{
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    atomic_fetch_add_explicit(&ran_on[rank & 1], 1, memory_order_relaxed);
    return pools[rank & 1];
}

/* ---- fib ---- */
static void fib(void *arg)
{
    fib_job *j = arg;
    if (j->n < 4) {
        j->r = fib_serial(j->n);
        return;
    }
    fib_job a = { j->n - 1, 0 }, b = { j->n - 2, 0 };
    ABT_thread t;
    CHECK_ABT(ABT_thread_create(my_pool(), fib, &a, attr, &t));
    fib(&b);
    CHECK_ABT(ABT_thread_join(t));
    CHECK_ABT(ABT_thread_free(&t));
    j->r = a.r + b.r;
}

/* ---- N-Queens ---- */
static void nq(void *arg)
{
    nq_job *j = arg;
    if (j->row == j->n) {
        j->count = 1;
        return;
    }
    nq_job kids[12];
    ABT_thread th[12];
    int k = 0;
    uint32_t all = (1u << j->n) - 1, fr = all & ~(j->cols | j->d1 | j->d2);
    ABT_pool p = my_pool();
    while (fr) {
        uint32_t bit = fr & -fr;
        fr &= fr - 1;
        kids[k] = (nq_job){
            j->n, j->row + 1, j->cols | bit, ((j->d1 | bit) << 1) & all, (j->d2 | bit) >> 1, 0
        };
        CHECK_ABT(ABT_thread_create(p, nq, &kids[k], attr, &th[k]));
        k++;
    }
    long c = 0;
    for (int i = 0; i < k; i++) {
        CHECK_ABT(ABT_thread_free(&th[i])); /* the free joins */
        c += kids[i].count;
    }
    j->count = c;
}

/* ---- an unbalanced tree ---- */
static int tree_kids(uint64_t id, int depth) { return depth < 2 || mix64(id) % 4 == 0 ? 4 : 0; }

typedef struct {
    uint64_t id;
    int depth;
    long count;
} tree_job;

static long tree_serial(uint64_t id, int depth)
{
    long c = 1;
    for (int i = 0, k = tree_kids(id, depth); i < k; i++)
        c += tree_serial(mix64(id * 31 + (uint64_t)i + 1), depth + 1);
    return c;
}

static void tree(void *arg)
{
    tree_job *j = arg;
    int k = tree_kids(j->id, j->depth);
    tree_job kids[4];
    ABT_thread th[4];
    for (int i = 0; i < k; i++) {
        kids[i] = (tree_job){ mix64(j->id * 31 + (uint64_t)i + 1), j->depth + 1, 0 };
        CHECK_ABT(ABT_thread_create(my_pool(), tree, &kids[i], attr, &th[i]));
    }
    long c = 1;
    for (int i = 0; i < k; i++) {
        CHECK_ABT(ABT_thread_join(th[i]));
        CHECK_ABT(ABT_thread_free(&th[i]));
        c += kids[i].count;
    }
    j->count = c;
}

/* ---- a root ULT per program, joined by the primary ULT ---- */
static int fib_n, queens_n;
static long results[3];

static void root(void *arg)
{
    (void)arg;
    fib_job f = { fib_n, 0 };
    fib(&f);
    results[0] = f.r;
    nq_job q = { queens_n, 0, 0, 0, 0, 0 };
    nq(&q);
    results[1] = q.count;
    tree_job t = { 1, 0, 0 };
    tree(&t);
    results[2] = t.count;
}

static const weft_fork_t techs[] = { WEFT_FORK_FULL,  WEFT_FORK_FULL_L, WEFT_FORK_ROC,
                                     WEFT_FORK_ROC_L, WEFT_FORK_SS,     WEFT_FORK_SS_L,
                                     WEFT_FORK_SC,    WEFT_FORK_C_FULL, WEFT_FORK_C_FULL_E,
                                     WEFT_FORK_C_ROC, WEFT_FORK_C_ROC_E };

static void run_all(const char *setup, int streams)
{
    long expect[3] = { fib_serial(fib_n), nq_serial(queens_n, 0, 0, 0, 0), tree_serial(1, 0) };
    for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++) {
        CHECK_ABT(weft_thread_attr_set_fork(attr, techs[i]));
        atomic_store(&ran_on[0], 0);
        atomic_store(&ran_on[1], 0);
        results[0] = results[1] = results[2] = -1;
        ABT_thread t;
        CHECK_ABT(ABT_thread_create(pools[0], root, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_free(&t));
        for (int k = 0; k < 3; k++)
            if (results[k] != expect[k])
                TEST_FAIL("%s, %d stream(s), technique %d: program %d gave %ld, expected %ld",
                          setup, streams, (int)techs[i], k, results[k], expect[k]);
        if (streams == 1 && atomic_load(&ran_on[1]) != 0)
            TEST_FAIL("%s: a ULT ran on a stream that does not exist", setup);
    }
}

int main(int argc, char **argv)
{
    int slow = test_scale_div() > 1;
    fib_n = slow ? 12 : 18;
    queens_n = slow ? 6 : 8;
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_thread_attr_create(&attr));
    ABT_xstream xs0;
    CHECK_ABT(ABT_xstream_self(&xs0));

    /* a pool per stream, RANDWS; the primary stream's scheduler replaced first */
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(xs0, ABT_SCHED_RANDWS, 2, pools));
    run_all("randws", 1);
    ABT_xstream x1;
    ABT_pool theirs[2] = { pools[1], pools[0] };
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_RANDWS, 2, theirs, ABT_SCHED_CONFIG_NULL, &x1));
    run_all("randws", 2);
    CHECK_ABT(ABT_xstream_join(x1));
    CHECK_ABT(ABT_xstream_free(&x1));

    /* one pool shared by both streams' BASIC schedulers */
    ABT_pool shared;
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    CHECK_ABT(ABT_xstream_set_main_sched_basic(xs0, ABT_SCHED_BASIC, 1, &shared));
    pools[0] = pools[1] = shared;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &x1));
    run_all("shared", 2);
    CHECK_ABT(ABT_xstream_join(x1));
    CHECK_ABT(ABT_xstream_free(&x1));

    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}

#endif
