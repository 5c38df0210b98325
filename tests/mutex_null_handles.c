/* mutex_null_handles: every ABT_mutex_* routine returns ABT_ERR_INV_MUTEX for
 * ABT_MUTEX_NULL and every ABT_mutex_attr_* routine ABT_ERR_INV_MUTEX_ATTR for
 * ABT_MUTEX_ATTR_NULL; freeing a NULL handle leaves it unchanged. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_mutex m = ABT_MUTEX_NULL;
    ABT_mutex_attr a = ABT_MUTEX_ATTR_NULL;
    ABT_bool b;

    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_INV_MUTEX);
    CHECK(m == ABT_MUTEX_NULL);
    CHECK_ERR(ABT_mutex_lock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_high(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_low(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_spinlock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_se(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_de(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_get_attr(ABT_MUTEX_NULL, &a), ABT_ERR_INV_MUTEX);

    /* equal is a plain comparison, valid for NULL handles */
    CHECK_ABT(ABT_mutex_equal(ABT_MUTEX_NULL, ABT_MUTEX_NULL, &b));
    CHECK_EQ_INT(b, ABT_TRUE);

    CHECK_ERR(ABT_mutex_attr_free(&a), ABT_ERR_INV_MUTEX_ATTR);
    CHECK(a == ABT_MUTEX_ATTR_NULL);
    CHECK_ERR(ABT_mutex_attr_set_recursive(ABT_MUTEX_ATTR_NULL, ABT_TRUE), ABT_ERR_INV_MUTEX_ATTR);
    CHECK_ERR(ABT_mutex_attr_get_recursive(ABT_MUTEX_ATTR_NULL, &b), ABT_ERR_INV_MUTEX_ATTR);

    CHECK_ABT(ABT_finalize());
    return 0;
}
