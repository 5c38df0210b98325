/* xstream_is_primary: ABT_xstream_is_primary is ABT_TRUE only for the primary
 * execution stream (also when asked from a ULT on another stream) and fails
 * with ABT_ERR_INV_XSTREAM for ABT_XSTREAM_NULL. */
#include "test.h"
#include <stdatomic.h>

static ABT_xstream primary, secondary;
static atomic_int res_primary = -1, res_secondary = -1;

static void ult(void *arg)
{
    (void)arg;
    ABT_bool b;
    if (ABT_xstream_is_primary(primary, &b) == ABT_SUCCESS)
        atomic_store(&res_primary, b);
    if (ABT_xstream_is_primary(secondary, &b) == ABT_SUCCESS)
        atomic_store(&res_secondary, b);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_bool b = ABT_FALSE;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ABT(ABT_xstream_is_primary(primary, &b));
    CHECK_EQ_INT(b, ABT_TRUE);

    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &secondary));
    b = ABT_TRUE;
    CHECK_ABT(ABT_xstream_is_primary(secondary, &b));
    CHECK_EQ_INT(b, ABT_FALSE);

    ABT_pool pool;
    ABT_thread t;
    CHECK_ABT(ABT_xstream_get_main_pools(secondary, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ABT(ABT_thread_free(&t));
    CHECK_EQ_INT(atomic_load(&res_primary), ABT_TRUE);
    CHECK_EQ_INT(atomic_load(&res_secondary), ABT_FALSE);

    CHECK_ERR(ABT_xstream_is_primary(ABT_XSTREAM_NULL, &b), ABT_ERR_INV_XSTREAM);

    CHECK_ABT(ABT_xstream_free(&secondary));
    CHECK_ABT(ABT_finalize());
    return 0;
}
