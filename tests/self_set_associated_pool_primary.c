/* self_set_associated_pool_primary: the primary (main) ULT can move itself to the
 * pool of a second execution stream with ABT_self_set_associated_pool + yield, run
 * there (ABT_self_get_xstream reports the second xstream, ABT_self_is_primary stays
 * ABT_TRUE, ABT_self_on_primary_xstream becomes ABT_FALSE), and come back the same
 * way before ABT_finalize. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs1, xs2, me;
    ABT_pool pool1, pool2;
    ABT_bool b;
    CHECK_ABT(ABT_xstream_self(&xs1));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &pool1));
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs2));
    CHECK_ABT(ABT_xstream_get_main_pools(xs2, 1, &pool2));

    CHECK_ABT(ABT_self_set_associated_pool(pool2));
    CHECK_ABT(ABT_self_yield());
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK(me == xs2);
    CHECK_ABT(ABT_self_is_primary(&b));
    CHECK_EQ_INT(b, ABT_TRUE);
    CHECK_ABT(ABT_self_on_primary_xstream(&b));
    CHECK_EQ_INT(b, ABT_FALSE);

    CHECK_ABT(ABT_self_set_associated_pool(pool1));
    CHECK_ABT(ABT_self_yield());
    CHECK_ABT(ABT_self_get_xstream(&me));
    CHECK(me == xs1);
    CHECK_ABT(ABT_self_on_primary_xstream(&b));
    CHECK_EQ_INT(b, ABT_TRUE);

    CHECK_ABT(ABT_xstream_join(xs2));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
