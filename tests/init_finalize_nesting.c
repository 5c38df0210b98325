/* init_finalize_nesting: ABT_init/ABT_finalize are reference counted.  A nested
 * ABT_init succeeds, the runtime stays initialized (and usable) until the
 * outermost ABT_finalize, and only then ABT_initialized reports
 * ABT_ERR_UNINITIALIZED. */
#include "test.h"

int main(int argc, char **argv)
{
    ABT_xstream self1, self2;
    int num;

    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_initialized());
    CHECK_ABT(ABT_xstream_self(&self1));

    /* Nested init: succeeds, same primary execution stream. */
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_init(0, NULL));
    CHECK_ABT(ABT_initialized());
    CHECK_ABT(ABT_xstream_self(&self2));
    CHECK(self1 == self2);
    CHECK_ABT(ABT_xstream_get_num(&num));
    CHECK_EQ_INT(num, 1);

    /* Inner finalizes only decrement the counter. */
    CHECK_ABT(ABT_finalize());
    CHECK_ABT(ABT_initialized());
    CHECK_ABT(ABT_xstream_self(&self2));
    CHECK(self1 == self2);

    /* The runtime is still fully usable: create and free an execution stream. */
    ABT_xstream xs;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    CHECK_ABT(ABT_xstream_free(&xs));

    CHECK_ABT(ABT_finalize());
    CHECK_ABT(ABT_initialized());

    /* Outermost finalize. */
    CHECK_ABT(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    return 0;
}
