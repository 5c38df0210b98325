/* xstream_get_main_pools_negative: ABT_xstream_get_main_pools with a negative
 * max_pools returns ABT_ERR_INV_ARG (documented) and writes nothing.
 * NOTE: Argobots 1.2 does not check this and crashes (memcpy with a negative
 * size), so this test fails against the reference build. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream primary;
    ABT_pool sentinel = (ABT_pool)&sentinel, got = sentinel;
    CHECK_ABT(ABT_xstream_self(&primary));
    CHECK_ERR(ABT_xstream_get_main_pools(primary, -1, &got), ABT_ERR_INV_ARG);
    CHECK(got == sentinel);
    CHECK_ABT(ABT_finalize());
    return 0;
}
