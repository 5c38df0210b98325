/* mutex_create_free: ABT_mutex_create / create_with_attr / free / get_attr / equal, and
 * the mutex_attr routines: free resets the handle, attributes round-trip, a NULL
 * attribute means the defaults, and a fresh mutex is unlocked. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_mutex m = ABT_MUTEX_NULL;
    CHECK_ABT(ABT_mutex_create(&m));
    CHECK(m != ABT_MUTEX_NULL);
    CHECK_ABT(ABT_mutex_trylock(m));
    CHECK_ABT(ABT_mutex_unlock(m));
    ABT_bool eq = ABT_FALSE;
    CHECK_ABT(ABT_mutex_equal(m, m, &eq));
    CHECK_EQ_INT(eq, ABT_TRUE);

    ABT_mutex_attr attr = ABT_MUTEX_ATTR_NULL, got = ABT_MUTEX_ATTR_NULL;
    ABT_bool rec = ABT_TRUE;
    CHECK_ABT(ABT_mutex_get_attr(m, &got));
    CHECK_ABT(ABT_mutex_attr_get_recursive(got, &rec));
    CHECK_EQ_INT(rec, ABT_FALSE);
    CHECK_ABT(ABT_mutex_attr_free(&got));
    CHECK(got == ABT_MUTEX_ATTR_NULL);

    CHECK_ABT(ABT_mutex_attr_create(&attr));
    CHECK_ABT(ABT_mutex_attr_get_recursive(attr, &rec));
    CHECK_EQ_INT(rec, ABT_FALSE);
    CHECK_ABT(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_ABT(ABT_mutex_attr_get_recursive(attr, &rec));
    CHECK_EQ_INT(rec, ABT_TRUE);

    ABT_mutex r = ABT_MUTEX_NULL;
    CHECK_ABT(ABT_mutex_create_with_attr(attr, &r));
    CHECK_ABT(ABT_mutex_attr_free(&attr));
    CHECK_ABT(ABT_mutex_get_attr(r, &got));
    CHECK_ABT(ABT_mutex_attr_get_recursive(got, &rec));
    CHECK_EQ_INT(rec, ABT_TRUE);
    CHECK_ABT(ABT_mutex_attr_free(&got));
    /* recursive: the owner may lock twice */
    CHECK_ABT(ABT_mutex_lock(r));
    CHECK_ABT(ABT_mutex_lock(r));
    CHECK_ABT(ABT_mutex_unlock(r));
    CHECK_ABT(ABT_mutex_unlock(r));
    CHECK_ABT(ABT_mutex_equal(m, r, &eq));
    CHECK_EQ_INT(eq, ABT_FALSE);

    /* ABT_MUTEX_ATTR_NULL: default (non-recursive) attributes */
    ABT_mutex d = ABT_MUTEX_NULL;
    CHECK_ABT(ABT_mutex_create_with_attr(ABT_MUTEX_ATTR_NULL, &d));
    CHECK_ABT(ABT_mutex_lock(d));
    CHECK_ERR(ABT_mutex_trylock(d), ABT_ERR_MUTEX_LOCKED);
    CHECK_ABT(ABT_mutex_unlock(d));

    CHECK_ABT(ABT_mutex_free(&m));
    CHECK(m == ABT_MUTEX_NULL);
    CHECK_ABT(ABT_mutex_free(&r));
    CHECK(r == ABT_MUTEX_NULL);
    CHECK_ABT(ABT_mutex_free(&d));
    CHECK(d == ABT_MUTEX_NULL);

    CHECK_ABT(ABT_finalize());
    return 0;
}
