/* weft_pool_prio_order: a priority pool (weft_pool_create_prio) hands out units by level,
 * FIFO within a level: weft_thread_create_prio sets a ULT's level, a ULT without one
 * goes to level num_levels / 2, and the push hints ABT_POOL_CONTEXT_PRIO_HIGH_PRIO /
 * _LOW_PRIO put one push at the first / last level.  ABT_pool_get_size,
 * ABT_pool_print_all_threads (in pop order) and ABT_pool_remove work on it; the argument
 * errors of weft_pool_create_prio, weft_thread_create_prio and weft_thread_set/get_prio. */
#include "test.h"

#include <weft.h>

#define N 7

static void nop(void *arg) {}

static ABT_thread listed[N + 1];
static int nlisted;
static void list_fn(void *arg, ABT_thread t) { listed[nlisted++] = t; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_pool p, fifo;
    CHECK_ABT(weft_pool_create_prio(ABT_POOL_ACCESS_MPMC, 4, ABT_FALSE, &p));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &fifo));
    int levels = 0;
    CHECK_ABT(weft_pool_get_num_levels(p, &levels));
    CHECK_EQ_INT(levels, 4);

    ABT_thread t[N];
    CHECK_ABT(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, 3, &t[0]));
    CHECK_ABT(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, 1, &t[1]));
    CHECK_ABT(ABT_thread_create(p, nop, NULL, ABT_THREAD_ATTR_NULL, &t[2])); /* level 2 */
    CHECK_ABT(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, 0, &t[3]));
    CHECK_ABT(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, 1, &t[4]));
    /* two made elsewhere and pushed with a hint */
    CHECK_ABT(ABT_thread_create(fifo, nop, NULL, ABT_THREAD_ATTR_NULL, &t[5]));
    CHECK_ABT(ABT_thread_create(fifo, nop, NULL, ABT_THREAD_ATTR_NULL, &t[6]));
    ABT_thread x;
    CHECK_ABT(ABT_pool_pop_thread(fifo, &x));
    CHECK(x == t[5]);
    CHECK_ABT(ABT_pool_push_thread_ex(p, x, ABT_POOL_CONTEXT_PRIO_HIGH_PRIO));
    CHECK_ABT(ABT_pool_pop_thread(fifo, &x));
    CHECK(x == t[6]);
    CHECK_ABT(ABT_pool_push_thread_ex(p, x, ABT_POOL_CONTEXT_PRIO_LOW_PRIO));

    int prio = 99;
    CHECK_ABT(weft_thread_get_prio(t[1], &prio));
    CHECK_EQ_INT(prio, 1);
    CHECK_ABT(weft_thread_get_prio(t[2], &prio));
    CHECK_EQ_INT(prio, -1);
    CHECK_ABT(weft_thread_get_prio(t[5], &prio));
    CHECK_EQ_INT(prio, -1); /* a hint is for one push only */

    size_t size = 0;
    CHECK_ABT(ABT_pool_get_size(p, &size));
    CHECK_EQ_INT(size, N);
    const int order[N] = { 3, 5, 1, 4, 2, 0, 6 };
    CHECK_ABT(ABT_pool_print_all_threads(p, NULL, list_fn));
    CHECK_EQ_INT(nlisted, N);
    for (int i = 0; i < N; i++)
        CHECK(listed[i] == t[order[i]]);

    /* remove one from the middle, and put it back at level 1 */
    ABT_unit unit;
    CHECK_ABT(ABT_thread_get_unit(t[4], &unit));
    CHECK_ABT(ABT_pool_remove(p, unit));
    CHECK_ERR(ABT_pool_remove(p, unit), ABT_ERR_POOL);
    CHECK_ABT(ABT_pool_get_size(p, &size));
    CHECK_EQ_INT(size, N - 1);
    CHECK_ABT(ABT_pool_push_thread(p, t[4]));

    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_pool_pop_thread(p, &x));
        if (x != t[order[i]])
            TEST_FAIL("pop %d: got the ULT made %s, expected ULT %d", i,
                      x == ABT_THREAD_NULL ? "(none)" : "later", order[i]);
    }
    CHECK_ABT(ABT_pool_pop_thread(p, &x));
    CHECK(x == ABT_THREAD_NULL);

    /* errors */
    ABT_pool q;
    CHECK_ERR(weft_pool_create_prio(ABT_POOL_ACCESS_MPMC, 0, ABT_FALSE, &q), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_pool_create_prio(ABT_POOL_ACCESS_MPMC, 65, ABT_FALSE, &q), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_pool_create_prio(ABT_POOL_ACCESS_MPMC, 2, ABT_FALSE, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_pool_create_prio((ABT_pool_access)99, 2, ABT_FALSE, &q),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(q == ABT_POOL_NULL);
    CHECK_ERR(weft_pool_get_num_levels(fifo, &levels), ABT_ERR_INV_POOL);
    CHECK_ERR(weft_thread_create_prio(fifo, nop, NULL, ABT_THREAD_ATTR_NULL, 0, &x),
              ABT_ERR_INV_POOL);
    CHECK(x == ABT_THREAD_NULL);
    CHECK_ERR(weft_thread_create_prio(ABT_POOL_NULL, nop, NULL, ABT_THREAD_ATTR_NULL, 0, &x),
              ABT_ERR_INV_POOL);
    CHECK_ERR(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, 4, &x), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_create_prio(p, nop, NULL, ABT_THREAD_ATTR_NULL, -1, &x), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_set_prio(ABT_THREAD_NULL, 0), ABT_ERR_INV_THREAD);
    CHECK_ERR(weft_thread_set_prio(t[0], 64), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_set_prio(t[0], -2), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_get_prio(t[0], NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(weft_thread_get_prio(ABT_THREAD_NULL, &prio), ABT_ERR_INV_THREAD);

    /* a priority set later applies from the next push */
    CHECK_ABT(weft_thread_set_prio(t[0], 0));
    CHECK_ABT(weft_thread_set_prio(t[3], -1));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_pool_push_thread(p, t[i]));
    CHECK_ABT(ABT_pool_pop_thread(p, &x));
    CHECK(x == t[0]);
    CHECK_ABT(ABT_pool_push_thread(p, x));

    /* run them all */
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &xs));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&t[i]));
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_pool_free(&p));
    CHECK_ABT(ABT_pool_free(&fifo));
    CHECK_ABT(ABT_finalize());
    return 0;
}
