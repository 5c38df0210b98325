/* thread_join_blocked: the main ULT joins ULT A while A is itself BLOCKED in a join
 * on ULT B (single xstream).  B checks that A is BLOCKED, then finishes; A is woken,
 * finishes, and the main ULT's join returns. */
#include "test.h"
#include <stdatomic.h>

static ABT_thread a, b;
static atomic_int a_done, b_saw_a_blocked, b_done;

static void func_b(void *arg)
{
    (void)arg;
    /* Yield until A has blocked in its join on us. */
    for (int i = 0; i < 1000; i++) {
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(a, &st));
        if (st == ABT_THREAD_STATE_BLOCKED) {
            atomic_store(&b_saw_a_blocked, 1);
            break;
        }
        CHECK_ABT(ABT_thread_yield());
    }
    atomic_store(&b_done, 1);
}

static void func_a(void *arg)
{
    ABT_pool pool = (ABT_pool)arg;
    CHECK_ABT(ABT_thread_create(pool, func_b, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_join(b));
    CHECK_EQ_INT(atomic_load(&b_done), 1);
    atomic_store(&a_done, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    CHECK_ABT(ABT_thread_create(pool, func_a, pool, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_join(a));
    CHECK_EQ_INT(atomic_load(&a_done), 1);
    CHECK_EQ_INT(atomic_load(&b_saw_a_blocked), 1);
    CHECK_ABT(ABT_thread_free(&b));
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_finalize());
    return 0;
}
