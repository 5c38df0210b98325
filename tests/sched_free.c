/* sched_free: ABT_sched_free on an unused scheduler succeeds and sets the
 * handle to ABT_SCHED_NULL; a pointer to ABT_SCHED_NULL gives
 * ABT_ERR_INV_SCHED; freeing a scheduler that is the main scheduler of a
 * running stream fails with ABT_ERR_SCHED (1.x) and leaves the handle; using
 * a scheduler for a second stream fails with ABT_ERR_INV_SCHED and sets the
 * new stream handle to ABT_XSTREAM_NULL.  A non-automatic scheduler
 * (ABT_sched_config_automatic = 0) survives its stream and is freed by the
 * user afterwards. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_sched s = ABT_SCHED_NULL, h;
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ABT(ABT_sched_free(&s));
    CHECK(s == ABT_SCHED_NULL);
    CHECK_ERR(ABT_sched_free(&s), ABT_ERR_INV_SCHED);
    CHECK(s == ABT_SCHED_NULL);

    /* Non-automatic scheduler used by a stream. */
    ABT_sched_config cfg;
    CHECK_ABT(
        ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0, ABT_sched_config_var_end));
    CHECK_ABT(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, cfg, &s));
    CHECK_ABT(ABT_sched_config_free(&cfg));

    ABT_xstream xs, xs2 = (ABT_xstream)&xs2;
    CHECK_ABT(ABT_xstream_create(s, &xs));
    h = s;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == s);
    CHECK_ERR(ABT_xstream_create(s, &xs2), ABT_ERR_INV_SCHED);
    CHECK(xs2 == ABT_XSTREAM_NULL);

    ABT_sched got;
    CHECK_ABT(ABT_xstream_get_main_sched(xs, &got));
    CHECK(got == s);
    CHECK_ABT(ABT_xstream_free(&xs));

    /* Stream gone, scheduler not automatic: still valid, user frees it. */
    int n = 0;
    CHECK_ABT(ABT_sched_get_num_pools(s, &n));
    CHECK(n >= 1);
    CHECK_ABT(ABT_sched_free(&s));
    CHECK(s == ABT_SCHED_NULL);

    CHECK_ABT(ABT_finalize());
    return 0;
}
