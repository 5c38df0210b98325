/* pool_create_basic_errors: ABT_pool_create_basic returns
 * ABT_ERR_INV_POOL_KIND for an unknown kind and ABT_ERR_INV_POOL_ACCESS for an
 * unknown access mode, setting the output to ABT_POOL_NULL (1.x). */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    int bad_kinds[] = { -1, 3, 99 };
    for (int i = 0; i < 3; i++) {
        ABT_pool p = (ABT_pool)&p;
        CHECK_ERR(ABT_pool_create_basic((ABT_pool_kind)bad_kinds[i], ABT_POOL_ACCESS_MPMC,
                                        ABT_FALSE, &p),
                  ABT_ERR_INV_POOL_KIND);
        CHECK(p == ABT_POOL_NULL);
    }
    int bad_accs[] = { -1, 5, 99 };
    for (int i = 0; i < 3; i++) {
        ABT_pool p = (ABT_pool)&p;
        CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)bad_accs[i], ABT_FALSE, &p),
                  ABT_ERR_INV_POOL_ACCESS);
        CHECK(p == ABT_POOL_NULL);
        p = (ABT_pool)&p;
        CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, (ABT_pool_access)bad_accs[i], ABT_FALSE,
                                        &p),
                  ABT_ERR_INV_POOL_ACCESS);
        CHECK(p == ABT_POOL_NULL);
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
