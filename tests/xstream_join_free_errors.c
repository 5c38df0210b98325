/* xstream_join_free_errors: the primary execution stream cannot be joined or
 * freed (ABT_ERR_INV_XSTREAM, handle left unchanged); a ULT cannot free the
 * stream it is running on (ABT_ERR_INV_XSTREAM, handle unchanged, stream keeps
 * running); ABT_XSTREAM_NULL is rejected with ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream target;
static atomic_int free_self_ret = -1, handle_kept = 0;

static void free_self(void *arg)
{
    (void)arg;
    ABT_xstream h = target;
    atomic_store(&free_self_ret, ABT_xstream_free(&h));
    atomic_store(&handle_kept, h == target);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_xstream primary, h;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ERR(ABT_xstream_join(primary), ABT_ERR_INV_XSTREAM);
    h = primary;
    CHECK_ERR(ABT_xstream_free(&h), ABT_ERR_INV_XSTREAM);
    CHECK(h == primary);

    CHECK_ERR(ABT_xstream_join(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    h = ABT_XSTREAM_NULL;
    CHECK_ERR(ABT_xstream_free(&h), ABT_ERR_INV_XSTREAM);
    CHECK(h == ABT_XSTREAM_NULL);

    ABT_xstream xs;
    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    target = xs;
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, free_self, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&free_self_ret), ABT_ERR_INV_XSTREAM);
    CHECK_EQ_INT(atomic_load(&handle_kept), 1);

    ABT_xstream_state st;
    CHECK_ABT(ABT_xstream_get_state(xs, &st));
    CHECK_EQ_INT(st, ABT_XSTREAM_STATE_RUNNING);

    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_finalize());
    return 0;
}
