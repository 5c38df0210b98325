/* fork_child_first_main: child-first creation by the primary ULT, which waits for its
 * child in the primary stream's hand-off slot rather than in its pool (post_home,
 * core/unit/create.c), for each child-first technique, on 1 and 2 streams.
 *   - A child that returns without deviating gives the primary ULT back at once, on the
 *     primary stream.
 *   - A child that yields lets the primary ULT run before its own second half, even
 *     when nothing else is queued: a yield is a deviation, and the primary ULT is ready
 *     (one stream: the child's second half must see what the primary ULT did after the
 *     creation).
 *   - On 2 streams (one pool shared by both), the primary ULT only ever runs on the
 *     primary stream, the children that deviated may end on either, and every one ends.
 * weft only. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED

#include <stdatomic.h>

#define N 2000

static atomic_int after_create; /* set by the primary ULT once its creation returned */
static atomic_int saw_main, done, on_second;

static void quiet(void *arg)
{
    (void)arg;
    atomic_fetch_add(&done, 1);
}

static void yielder(void *arg)
{
    int check = (int)(intptr_t)arg;
    CHECK_ABT(ABT_thread_yield());
    if (check && atomic_load(&after_create))
        atomic_fetch_add(&saw_main, 1);
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank != 0)
        atomic_fetch_add(&on_second, 1);
    atomic_fetch_add(&done, 1);
}

static void main_on_primary(const char *what)
{
    int rank;
    CHECK_ABT(ABT_self_get_xstream_rank(&rank));
    if (rank != 0)
        TEST_FAIL("%s: the primary ULT runs on stream %d", what, rank);
}

static void rounds(ABT_pool pool, ABT_thread_attr attr, int streams, int n)
{
    ABT_thread *h = malloc((size_t)n * sizeof *h);
    CHECK(h != NULL);
    /* children that return at once */
    atomic_store(&done, 0);
    for (int i = 0; i < n; i++) {
        CHECK_ABT(ABT_thread_create(pool, quiet, NULL, attr, &h[i]));
        main_on_primary("after a child that returned");
    }
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&h[i]));
    CHECK_EQ_INT(atomic_load(&done), n);

    /* children that yield once */
    atomic_store(&done, 0);
    atomic_store(&saw_main, 0);
    atomic_store(&on_second, 0);
    for (int i = 0; i < n; i++) {
        atomic_store(&after_create, 0);
        CHECK_ABT(ABT_thread_create(pool, yielder, (void *)(intptr_t)(streams == 1), attr, &h[i]));
        atomic_store(&after_create, 1);
        main_on_primary("after a child that yielded");
        if (streams == 1) /* finish it before the next one (its check reads the flag) */
            CHECK_ABT(ABT_thread_join(h[i]));
    }
    for (int i = 0; i < n; i++)
        CHECK_ABT(ABT_thread_free(&h[i]));
    CHECK_EQ_INT(atomic_load(&done), n);
    if (streams == 1) {
        CHECK_EQ_INT(atomic_load(&on_second), 0);
        if (atomic_load(&saw_main) != n)
            TEST_FAIL("one stream: %d of %d yielding children ran on before the primary ULT",
                      n - atomic_load(&saw_main), n);
    }
    free(h);
}

int main(int argc, char **argv)
{
    int n = test_scale_div() > 1 ? 200 : N;
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs0;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs0));
    CHECK_ABT(ABT_xstream_get_main_pools(xs0, 1, &pool));
    static const weft_fork_t cf[] = { WEFT_FORK_C_FULL, WEFT_FORK_C_FULL_E, WEFT_FORK_C_ROC,
                                      WEFT_FORK_C_ROC_E };
    ABT_thread_attr attr;
    CHECK_ABT(ABT_thread_attr_create(&attr));
    for (int t = 0; t < 4; t++) {
        CHECK_ABT(weft_thread_attr_set_fork(attr, cf[t]));
        rounds(pool, attr, 1, n);
        ABT_xstream x1;
        CHECK_ABT(
            ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pool, ABT_SCHED_CONFIG_NULL, &x1));
        rounds(pool, attr, 2, n);
        CHECK_ABT(ABT_xstream_join(x1));
        CHECK_ABT(ABT_xstream_free(&x1));
    }
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_finalize());
    return 0;
}

#endif
